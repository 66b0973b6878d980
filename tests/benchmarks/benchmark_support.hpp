#pragma once
// What the benchmark programs share: the min statistic, ratios timed within each iteration, the
// floor of the audit's cost (DriftOnly) and a main() that refuses to time computations that do
// not agree.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <benchmark/benchmark.h>

#include <energy_audit/types.hpp>

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

/// time_ratio with `prepare()` called before each of the two runs, outside their clocks: a reset
/// of the state both runs start from, whose cost then enters neither side of the ratio.
template <class Prepare, class RunA, class RunB>
void time_ratio_prepared(benchmark::State& state, const Prepare& prepare, const RunA& run_a, const RunB& run_b,
                         const char* ratio_name) {
  using Clock = std::chrono::steady_clock;
  Clock::duration time_a{}, time_b{};
  bool a_first = true;
  for (auto _ : state) {
    for (const bool a : {a_first, !a_first}) {
      prepare();
      const Clock::time_point start = Clock::now();
      a ? run_a() : run_b();
      (a ? time_a : time_b) += Clock::now() - start;
    }
    a_first = !a_first;
  }
  state.counters[ratio_name] = std::chrono::duration<double>(time_a) / std::chrono::duration<double>(time_b);
}

/// The least any audit must do at every step: δ_C's numerator, sup |C − C(t0)|, from the sample
/// of the first stage (Z carried, T and V evaluated with the accelerations). An observer for
/// integrate_const, like AuditObserver but keeping one number: no Audit, no energy scale, no rows.
template <class System>
struct DriftOnly {
  const System& system;
  double C0 = 0, max_abs_drift = 0;
  bool started = false;

  void operator()(const ConstVectorRef& y, double t) { keep(system.sample(y, t).C()); }
  void evaluate_and_observe(const Vector& y, Vector& dydt, double t) {
    keep(system.rates_and_sample(y, dydt, t).C());
  }
  void keep(double C) {
    if (!started) C0 = C;
    started = true;
    max_abs_drift = std::max(max_abs_drift, std::abs(C - C0));
  }
};

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
