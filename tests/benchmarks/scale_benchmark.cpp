/// \file
/// The audit at scale: the N-link pendulum chain (tests/fixtures/pendulum_chain.hpp), rk4 with
/// h = 1e-3 over 200 steps from the chain's fanned-out start, per step:
///
///   BM_Chain_Hand<N>_AuditOn / BM_Chain_Hand<N>_AuditOff   audit on / off, hand accelerations,
///                                                          target <= 1.10 at N = 10, <= 1.05 at 50 and 100
///   BM_Chain_Hand_AuditRatio<N>: the same ratio measured within each iteration, an audited and
///   an unaudited run back to back in alternating order (counter on_over_off); its repetitions'
///   median and spread do not depend on how the machine's speed drifts between benchmarks
///   BM_Chain_Hand_DriftOnlyRatio<N>: the audit's floor (Z, T and V from the shared first stage,
///   sup |C - C0|: DriftOnly) / the unaudited run, timed as above (counter floor_over_off)
///   BM_Chain_Hand<N>_AuditOn against N, and BM_Chain_Derived<N>_AuditOn against N (derived
///   accelerations: nested forward mode over T up to max_dofs_for_nested_forward_mode coordinates,
///   on a tape above, its second derivatives summed over the tape up to
///   max_dofs_for_summed_second_derivatives and by a reverse sweep beyond, see docs/benchmarks.md;
///   at N = 200 the mass matrix is heap-backed, in the hand accelerations too): the cost of one
///   audited step, and its growth with N
///   BM_Chain_DerivedOverHand<N>: derived / hand accelerations per audited step, measured as
///   BM_Chain_Hand_AuditRatio is (counter derived_over_hand), target <= 3 at N = 20 and N = 50
///   BM_Crane3d_AuditOn / BM_Crane3d_AuditOff                 the 3D crane of seed 000 (derived
///                                                          accelerations), audit on / off per rk4
///                                                          step, target <= 1.05
///   BM_Chain_HistoryMemory<N>/steps: heap in use after an audited run of `steps` steps, with
///   every row kept, with every 100th row kept, and with the rows handed to a sink (counters
///   bytes_per_row, heap_bytes_all_rows, heap_bytes_every_100th, heap_bytes_sink)
///
/// main() first checks that the hand and the derived accelerations of the chain agree.

#include <malloc.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <span>

#include <benchmark/benchmark.h>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "benchmark_support.hpp"
#include "crane3d.hpp"
#include "pendulum_chain.hpp"

namespace {

namespace ea = energy_audit;
using ea::testing::PendulumChain;
using ea::testing::PendulumChainEnergies;
using energy_audit::benchmarks::add_min_statistic;
using energy_audit::benchmarks::DriftOnly;
using energy_audit::benchmarks::time_ratio;

constexpr double h = 1e-3;
constexpr std::size_t steps = 200;

template <class Model>
ea::Vector start_of(const ea::LagrangeSystem<Model>& system) {
  if constexpr (requires { system.model().start_angles(); }) {
    return system.initial_state(system.model().start_angles(), Model::template Coordinates<double>::Zero());
  } else {
    const auto start = system.model().initial_state();
    return system.initial_state(start.q, start.v);
  }
}

template <class Model>
ea::LagrangeSystem<Model> rk4_system(bool audited) {
  return ea::LagrangeSystem<Model>(Model{}, ea::LagrangeSystem<Model>::default_source(),
                                   audited ? ea::EnergyFlow::Carried : ea::EnergyFlow::Off);
}

/// One rk4 run with step `step` over `steps` steps from y0, audited (a default Audit) or not (the
/// system then carries no Z either).
template <class Model>
void rk4_run(const ea::LagrangeSystem<Model>& system, bool audited, const ea::Vector& y0, double step) {
  ea::Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  const double t1 = step * static_cast<double>(steps);
  if (audited) {
    ea::Audit audit;
    ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, t1, step, ea::watch(system, audit));
    double drift = audit.relative_drift();
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(drift);
  } else {
    ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, t1, step);
    benchmark::DoNotOptimize(result);
  }
  benchmark::DoNotOptimize(y.data());
  benchmark::ClobberMemory();
}

/// rk4 with step `step` over `steps` steps from the model's start, audited or not.
template <class Model>
void run_rk4(benchmark::State& state, bool audited, double step) {
  const ea::LagrangeSystem<Model> system = rk4_system<Model>(audited);
  const ea::Vector y0 = start_of(system);
  for (auto _ : state) rk4_run(system, audited, y0, step);
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(steps));
  state.counters["N"] = Model::dofs;
}

template <int N>
void BM_Chain_Hand_AuditOff(benchmark::State& state) { run_rk4<PendulumChain<N>>(state, false, h); }
template <int N>
void BM_Chain_Hand_AuditOn(benchmark::State& state) { run_rk4<PendulumChain<N>>(state, true, h); }
/// Audit on / off within each iteration (time_ratio), counter on_over_off.
template <int N>
void BM_Chain_Hand_AuditRatio(benchmark::State& state) {
  const auto on = rk4_system<PendulumChain<N>>(true), off = rk4_system<PendulumChain<N>>(false);
  const ea::Vector y0_on = start_of(on), y0_off = start_of(off);
  time_ratio(
      state, [&] { rk4_run(on, true, y0_on, h); }, [&] { rk4_run(off, false, y0_off, h); }, "on_over_off");
  state.counters["N"] = N;
}

/// One rk4 run observed by the audit's floor (DriftOnly: Z, T and V from the first stage, sup
/// |C − C0|, nothing else).
template <class Model>
void drift_only_run(const ea::LagrangeSystem<Model>& system, const ea::Vector& y0, double step) {
  ea::Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  DriftOnly<ea::LagrangeSystem<Model>> drift{system};
  const double t1 = step * static_cast<double>(steps);
  ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, t1, step, drift);
  benchmark::DoNotOptimize(result);
  benchmark::DoNotOptimize(drift.max_abs_drift);
  benchmark::DoNotOptimize(y.data());
  benchmark::ClobberMemory();
}

/// The audit's floor / the unaudited run within each iteration, counter floor_over_off.
template <int N>
void BM_Chain_Hand_DriftOnlyRatio(benchmark::State& state) {
  const auto floor = rk4_system<PendulumChain<N>>(true);
  const auto off = rk4_system<PendulumChain<N>>(false);
  const ea::Vector y0_floor = start_of(floor), y0_off = start_of(off);
  time_ratio(
      state, [&] { drift_only_run(floor, y0_floor, h); }, [&] { rk4_run(off, false, y0_off, h); },
      "floor_over_off");
  state.counters["N"] = N;
}

/// Derived / hand accelerations within each iteration (time_ratio), both audited, counter
/// derived_over_hand. The hand run's audit checks the equations as a default Audit does.
template <int N>
void BM_Chain_DerivedOverHand(benchmark::State& state) {
  const auto derived = rk4_system<PendulumChainEnergies<N>>(true);
  const auto hand = rk4_system<PendulumChain<N>>(true);
  const ea::Vector y0_derived = start_of(derived), y0_hand = start_of(hand);
  time_ratio(
      state, [&] { rk4_run(derived, true, y0_derived, h); }, [&] { rk4_run(hand, true, y0_hand, h); },
      "derived_over_hand");
  state.counters["N"] = N;
}

template <int N>
void BM_Chain_Derived_AuditOn(benchmark::State& state) { run_rk4<PendulumChainEnergies<N>>(state, true, h); }

// The crane slews and luffs from its equilibrium; h = 0.005 as in its tests.
void BM_Crane3d_AuditOff(benchmark::State& state) { run_rk4<ea::examples::Crane3d>(state, false, 0.005); }
void BM_Crane3d_AuditOn(benchmark::State& state) { run_rk4<ea::examples::Crane3d>(state, true, 0.005); }
BENCHMARK(BM_Crane3d_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK(BM_Crane3d_AuditOn)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

#define EA_CHAIN_HAND(N)                                                                                        \
  BENCHMARK_TEMPLATE(BM_Chain_Hand_AuditOff, N)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic); \
  BENCHMARK_TEMPLATE(BM_Chain_Hand_AuditOn, N)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic)
EA_CHAIN_HAND(2);
EA_CHAIN_HAND(5);
EA_CHAIN_HAND(10);
EA_CHAIN_HAND(20);
EA_CHAIN_HAND(50);
EA_CHAIN_HAND(100);
EA_CHAIN_HAND(200);
#undef EA_CHAIN_HAND
BENCHMARK_TEMPLATE(BM_Chain_Hand_AuditRatio, 10)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Hand_DriftOnlyRatio, 10)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Hand_AuditRatio, 50)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Hand_AuditRatio, 100)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 2)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 5)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 10)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 20)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 24)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 50)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 100)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_Derived_AuditOn, 200)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_DerivedOverHand, 10)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_DerivedOverHand, 20)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_DerivedOverHand, 50)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_DerivedOverHand, 100)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_TEMPLATE(BM_Chain_DerivedOverHand, 200)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// Heap in use (glibc's count of allocated bytes), after an audited run of state.range(0) steps
/// whose audit is still alive, less the heap in use before it.
template <int N>
std::size_t heap_after_run(std::size_t run_steps, const ea::AuditOptions& options) {
  const ea::LagrangeSystem<PendulumChain<N>> system{PendulumChain<N>{}};
  ea::Vector y = start_of(system);
  ea::FixedStepper stepper(ea::methods::Rk4{});
  const std::size_t before = mallinfo2().uordblks;
  ea::Audit audit(options);
  ea::integrate_const(stepper, system, y, 0.0, h * static_cast<double>(run_steps), h, ea::watch(system, audit));
  const std::size_t after = mallinfo2().uordblks;
  return after > before ? after - before : 0;
}

template <int N>
void BM_Chain_HistoryMemory(benchmark::State& state) {
  const auto run_steps = static_cast<std::size_t>(state.range(0));
  ea::AuditOptions all_rows, every_100th, sink;
  every_100th.store_every = 100;
  sink.row_sink = [](const ea::HistoryLayout&, std::span<const double> rows) { benchmark::DoNotOptimize(rows.data()); };
  std::size_t all = 0, thinned = 0, streamed = 0;
  for (auto _ : state) {
    all = heap_after_run<N>(run_steps, all_rows);
    thinned = heap_after_run<N>(run_steps, every_100th);
    streamed = heap_after_run<N>(run_steps, sink);
  }
  ea::HistoryLayout layout;
  layout.dofs = layout.second_half = N;
  state.counters["bytes_per_row"] = static_cast<double>(layout.row_size() * sizeof(double));
  state.counters["heap_bytes_all_rows"] = static_cast<double>(all);
  state.counters["heap_bytes_every_100th"] = static_cast<double>(thinned);
  state.counters["heap_bytes_sink"] = static_cast<double>(streamed);
}
BENCHMARK_TEMPLATE(BM_Chain_HistoryMemory, 10)->Arg(1000)->Arg(10000)->Arg(100000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_Chain_HistoryMemory, 50)->Arg(1000)->Arg(10000)->Iterations(1)->Unit(benchmark::kMillisecond);

template <int N>
bool same_accelerations() {
  const PendulumChain<N> chain;
  typename PendulumChain<N>::template Coordinates<double> v;
  for (int i = 0; i < N; ++i) v[i] = 0.1 * (i % 7) - 0.3;
  const auto q = chain.start_angles();
  const auto hand = chain.accelerations(q, v, 0.0);
  const auto derived = ea::derived_accelerations(chain, q, v, 0.0);
  const double difference = (hand - derived).norm() / derived.norm();
  const bool ok = difference <= 1e-10;
  std::fprintf(stderr, "check: chain N = %d, hand vs derived accelerations, relative difference %.3e %s\n", N,
               difference, ok ? "ok" : "DIFFERENT");
  return ok;
}

bool same_computations() {
  return same_accelerations<2>() && same_accelerations<10>() && same_accelerations<24>() && same_accelerations<50>() &&
         same_accelerations<100>() && same_accelerations<200>();
}

}  // namespace

int main(int argc, char** argv) {
  return energy_audit::benchmarks::run_checked_benchmarks(argc, argv, "energy_audit_scale_benchmarks", same_computations);
}
