#pragma once
// What the benchmark programs share: the min statistic, ratios timed within each iteration and
// a main() that refuses to time computations that do not agree.

#include <algorithm>
#include <chrono>
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

/// Two runs back to back in every iteration, in alternating order, each timed by the steady
/// clock; the counter `ratio_name` is the ratio of their summed times over the repetition's
/// iterations (the reported time is the pair's), which does not depend on how the machine's speed
/// drifts between benchmarks.
template <class RunA, class RunB>
void time_ratio(benchmark::State& state, const RunA& run_a, const RunB& run_b, const char* ratio_name) {
  using Clock = std::chrono::steady_clock;
  Clock::duration time_a{}, time_b{};
  bool a_first = true;
  for (auto _ : state) {
    for (const bool a : {a_first, !a_first}) {
      const Clock::time_point start = Clock::now();
      a ? run_a() : run_b();
      (a ? time_a : time_b) += Clock::now() - start;
    }
    a_first = !a_first;
  }
  state.counters[ratio_name] = std::chrono::duration<double>(time_a) / std::chrono::duration<double>(time_b);
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
