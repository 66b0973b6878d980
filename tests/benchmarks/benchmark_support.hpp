#pragma once
// What both benchmark programs share: the min statistic and a main() that refuses to time
// computations that do not agree.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <benchmark/benchmark.h>

namespace energy_audit::benchmarks {

/// Adds the minimum over repetitions to mean, median, stddev and cv: on a shared, noisy
/// machine the fastest repetition is the least disturbed one.
inline void add_min_statistic(benchmark::internal::Benchmark* b) {
  b->ComputeStatistics("min", [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
  });
}

/// Runs the benchmarks after `same_computations()` has confirmed that the compared runs agree.
inline int run_checked_benchmarks(int argc, char** argv, const char* program, bool (*same_computations)()) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (!same_computations()) {
    std::fprintf(stderr, "%s: the compared integrations differ; not benchmarking\n", program);
    return EXIT_FAILURE;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace energy_audit::benchmarks
