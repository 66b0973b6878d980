/// \file
/// Benchmarks of the fixed-step module. Every full run integrates the crane
/// (examples/models/crane.hpp, default parameters and initial state) over [0, 5] with
/// h = 1e-3, i.e. 5000 steps per iteration. Ratios to read from one run of the binary:
///
///   BM_Rk4Crane_AuditOn / BM_Rk4Crane_AuditOff            audit overhead,      target <= 1.05
///   BM_Rk4_Library / BM_Rk4_HandLoop                       stepper overhead,    target <= 1.05
///   BM_Rk4_Library / BM_Rk4_Odeint                         against Boost.Odeint, target <= 1
///   BM_CraneAccelerations_Derived / BM_CraneAccelerations_Hand   per evaluation, target <= 2
///   BM_Rk4Crane_Derived / BM_Rk4Crane_Hand                 per full run,        target <= 2
///   BM_Cli_Rk4_AuditOff / BM_Rk4_HandLoop_AuditOff         command line,        target <= 1.05
///   BM_Cli_Rk4_AuditOff / BM_Rk4_Odeint_AuditOff           command line,        target <= 1
///   BM_Cli_Rk4_AuditOff / BM_Rk4_IndependentHandLoop_AuditOff  against a loop written
///     without the library (state in a std::array, right-hand side inlined), target <= 1.05
///   BM_Cli_Rk4_AuditOff / BM_Rk4_IndependentOdeint_AuditOff    against Odeint on the same
///     std::array state and right-hand side,                      target <= 1
///   BM_Cli_Rk4_AuditOn_Every1000 / BM_Cli_Rk4_AuditOff     command line audit,  target <= 1.10
///   BM_Cli_Rk4_AuditRatio (counter on_over_off), BM_Cli_Rk4_OverIndependentHandLoop and
///     _OverIndependentOdeint (counter command_line_over_reference): the same command-line
///     ratios timed within each iteration (time_ratio), the steadier measure on a busy machine
///   BM_Rk4Crane_Hamilton / BM_Rk4Crane_Derived             Hamilton / Lagrange, target <= 1.5
///   BM_CraneDae_Maggi_Rk4 / BM_CraneDae_Rk4                Maggi / multipliers, target <= 1.0
///   BM_Cli_Rk4_AuditOn_Every1000_EquationCheckEveryStep and _NoEquationCheck: the equation
///   check's cost at every step and its share at the default of every 100th step (reported)
///
/// Diagnostics (no target): BM_Rk4Crane_AuditOn_StoreNone is AuditOn keeping no history rows,
/// so AuditOn - StoreNone is the cost of the stored history and StoreNone - BM_Rk4_Library that
/// of sampling and recording the energies; BM_Rk4_Library - BM_Rk4Crane_AuditOff is the cost of
/// carrying Z. BM_Rk4Crane_DriftOnly / BM_Rk4Crane_AuditOff is the floor of the audit overhead:
/// Z carried, T and V taken from the shared first stage, and sup |C - C0| kept, nothing else
/// (no Audit, no energy scale, no rows). BM_Rk4Crane_Hand is the same computation as
/// BM_Rk4_Library (a noise gauge). BM_CraneEquationResidual / BM_CraneAccelerations_Derived is
/// the cost of checking the hand accelerations at one state (equation_residual.hpp) against
/// that of deriving them.
///
/// The derivatives the audit and the multiplier systems take at every evaluation (no target:
/// compared between versions of the library): ∂T/∂t and ∂V/∂t and Ż of a rheonomic model
/// (BM_MovingSupportPendulum_TimeDerivatives, _EnergyFlowRate, and _Rk4 with hand accelerations
/// and Z carried), the constraint terms G, g, ψ, Ġ v + ġ, Φ of crane-dae and of the hoisted
/// pendulum in its holonomic and kinematic forms (BM_ConstraintTerms_*), and whole rk4 runs of
/// multiplier models (BM_CraneDae_Rk4: crane-dae over [0, 5] with h = 1e-3, scleronomic;
/// BM_HoistedPendulum_Rk4: the driven rope over [0, 5], which adds ∂T/∂t and ∂V/∂t).
/// Every benchmark also reports the minimum over repetitions (--benchmark_repetitions=N).
///
/// Library, hand loop and odeint use the same right-hand side (LagrangeSystem<Crane>, hand
/// accelerations, Z carried) on the same time grid t_k = t0 + k h; main() checks that they end
/// in the same state before any benchmark runs, and exits with a message if they do not. The
/// two independent references (BM_Rk4_Independent*) use none of the library: the crane's
/// equations written out on a std::array state, as a program written without it would; main()
/// checks that they end where the library does, to round-off.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>
#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>

#include <crane.hpp>
#include <crane_dae.hpp>
#include <energy_audit/energy_audit.hpp>
#include <hoisted_pendulum.hpp>
#include <moving_support_pendulum.hpp>
#include <model_registry.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "benchmark_support.hpp"

namespace {

using energy_audit::benchmarks::add_min_statistic;
using energy_audit::benchmarks::DriftOnly;
using energy_audit::benchmarks::time_ratio;

namespace ea = energy_audit;
namespace odeint = boost::numeric::odeint;

using Crane = ea::examples::Crane;
using CraneDae = ea::examples::CraneDae;
using System = ea::LagrangeSystem<Crane>;
using Coordinates = Crane::Coordinates<double>;
using ea::AccelerationSource;
using ea::EnergyFlow;
using ea::Vector;

constexpr double t0 = Crane::interval.t0;
constexpr double t1 = Crane::interval.t_end;
constexpr double h = 1e-3;

System make_system(AccelerationSource source, EnergyFlow flow) {
  return System(Crane{}, source, flow);
}

Vector initial_state(const System& system) {
  const ea::InitialState<Crane::dofs> init = system.model().initial_state();
  return system.initial_state(init.q, init.v);
}

std::size_t step_count() { return ea::fixed_step_count(t0, t1, h); }

/// integrate_const's grid: t_k = t0 + k h, the last point exactly t1.
double grid_time(std::size_t k, std::size_t steps) {
  return k == steps ? t1 : t0 + static_cast<double>(k) * h;
}

/// Steps per iteration as items, so the report also shows steps per second.
void count_steps(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(step_count()));
}

// ---------------------------------------------------------------------------------------------
// The three rk4 integrations compared in (b).

/// The library: FixedStepper(Rk4) through integrate_const, no observer.
ea::IntegrationResult library_rk4(ea::FixedStepper& stepper, const System& system, Vector& y) {
  return ea::integrate_const(stepper, system, y, t0, t1, h);
}

/// A benchmark loop over library_rk4 for the crane with the given accelerations and Z.
void run_library_rk4(benchmark::State& state, AccelerationSource source, EnergyFlow flow) {
  const System system = make_system(source, flow);
  const Vector y0 = initial_state(system);
  Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  for (auto _ : state) {
    y = y0;
    ea::IntegrationResult result = library_rk4(stepper, system, y);
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  count_steps(state);
}

/// A plain classic rk4 loop on preallocated vectors.
struct HandRk4Workspace {
  explicit HandRk4Workspace(Eigen::Index size) : k1(size), k2(size), k3(size), k4(size), tmp(size) {}
  Vector k1, k2, k3, k4, tmp;
};

void hand_rk4(HandRk4Workspace& w, const System& system, Vector& y) {
  const std::size_t steps = step_count();
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = grid_time(k, steps);
    const double dt = grid_time(k + 1, steps) - t;
    system(y, w.k1, t);
    w.tmp = y + (0.5 * dt) * w.k1;
    system(w.tmp, w.k2, t + 0.5 * dt);
    w.tmp = y + (0.5 * dt) * w.k2;
    system(w.tmp, w.k3, t + 0.5 * dt);
    w.tmp = y + dt * w.k3;
    system(w.tmp, w.k4, t + dt);
    y += (dt / 6.0) * (w.k1 + 2.0 * w.k2 + 2.0 * w.k3 + w.k4);
  }
}

/// Boost.Odeint's classic rk4 on Eigen vectors, driven by do_step on the same grid.
using OdeintRk4 =
    odeint::runge_kutta4<Vector, double, Vector, double, odeint::vector_space_algebra>;

void odeint_rk4(OdeintRk4& stepper, const System& system, Vector& y) {
  const auto rhs = [&system](const Vector& x, Vector& dxdt, double t) { system(x, dxdt, t); };
  const std::size_t steps = step_count();
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = grid_time(k, steps);
    stepper.do_step(rhs, y, t, grid_time(k + 1, steps) - t);
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Audit overhead.

void BM_Rk4Crane_AuditOff(benchmark::State& state) {
  run_library_rk4(state, AccelerationSource::Hand, EnergyFlow::Off);
}
BENCHMARK(BM_Rk4Crane_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void run_audited(benchmark::State& state, const ea::AuditOptions& options) {
  const System system = make_system(AccelerationSource::Hand, EnergyFlow::Carried);
  const Vector y0 = initial_state(system);
  Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  for (auto _ : state) {
    y = y0;
    ea::Audit audit(options);
    ea::IntegrationResult result =
        ea::integrate_const(stepper, system, y, t0, t1, h, ea::watch(system, audit));
    double drift = audit.relative_drift();
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(drift);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  count_steps(state);
}

void BM_Rk4Crane_AuditOn(benchmark::State& state) { run_audited(state, ea::AuditOptions{}); }
BENCHMARK(BM_Rk4Crane_AuditOn)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// Diagnostic: the audit judging every step but storing no history row.
void BM_Rk4Crane_AuditOn_StoreNone(benchmark::State& state) {
  ea::AuditOptions options;
  options.store_every = 0;
  run_audited(state, options);
}
BENCHMARK(BM_Rk4Crane_AuditOn_StoreNone)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Rk4Crane_DriftOnly(benchmark::State& state) {
  const System system = make_system(AccelerationSource::Hand, EnergyFlow::Carried);
  const Vector y0 = initial_state(system);
  Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  for (auto _ : state) {
    y = y0;
    DriftOnly<System> drift{system};
    ea::IntegrationResult result = ea::integrate_const(stepper, system, y, t0, t1, h, drift);
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(drift.max_abs_drift);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  count_steps(state);
}
BENCHMARK(BM_Rk4Crane_DriftOnly)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// (b) Library rk4 vs hand loop vs odeint, on the same right-hand side.

void BM_Rk4_Library(benchmark::State& state) {
  run_library_rk4(state, AccelerationSource::Hand, EnergyFlow::Carried);
}
BENCHMARK(BM_Rk4_Library)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void run_hand_loop(benchmark::State& state, EnergyFlow flow) {
  const System system = make_system(AccelerationSource::Hand, flow);
  const Vector y0 = initial_state(system);
  Vector y = y0;
  HandRk4Workspace workspace(y0.size());
  for (auto _ : state) {
    y = y0;
    hand_rk4(workspace, system, y);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  count_steps(state);
}

void BM_Rk4_HandLoop(benchmark::State& state) { run_hand_loop(state, EnergyFlow::Carried); }
BENCHMARK(BM_Rk4_HandLoop)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void run_odeint(benchmark::State& state, EnergyFlow flow) {
  const System system = make_system(AccelerationSource::Hand, flow);
  const Vector y0 = initial_state(system);
  Vector y = y0;
  OdeintRk4 stepper;
  for (auto _ : state) {
    y = y0;
    odeint_rk4(stepper, system, y);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  count_steps(state);
}

void BM_Rk4_Odeint(benchmark::State& state) { run_odeint(state, EnergyFlow::Carried); }
BENCHMARK(BM_Rk4_Odeint)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// (d) The command line's own run function (energy-audit run crane --method rk4 ...), against
// the hand loop and Odeint on y = [q, v] (--no-audit carries no Z).

void BM_Rk4_HandLoop_AuditOff(benchmark::State& state) { run_hand_loop(state, EnergyFlow::Off); }
BENCHMARK(BM_Rk4_HandLoop_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Rk4_Odeint_AuditOff(benchmark::State& state) { run_odeint(state, EnergyFlow::Off); }
BENCHMARK(BM_Rk4_Odeint_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// The crane's right-hand side written without the library, as an independent program would:
/// y = [x1, phi, x1', phi'] in a std::array, the accelerations of eq. 19 inlined, the parameters
/// compile-time constants (those of CraneParameters).
using IndependentState = std::array<double, 4>;

struct IndependentCraneRates {
  static constexpr ea::examples::CraneParameters p{};
  void operator()(const IndependentState& y, IndependentState& dydt, double /*t*/) const {
    const double x1 = y[0], phi = y[1], x1_dot = y[2], phi_dot = y[3];
    const double c = std::cos(phi), sn = std::sin(phi);
    const double delta = 4 * p.m1 + p.m2 + 3 * p.m2 * c * c;
    dydt[0] = x1_dot;
    dydt[1] = phi_dot;
    dydt[2] = (-2 * p.m2 * p.l * c * phi_dot * phi_dot - 4 * p.k * x1_dot - 4 * p.s * x1 +
               1.5 * p.m2 * p.g * std::sin(2 * phi)) /
              delta;
    dydt[3] = (3 * p.m2 * p.l * c * sn * phi_dot * phi_dot + 6 * sn * (p.s * x1 + p.k * x1_dot) -
               6 * p.g * (p.m1 + p.m2) * c) /
              (p.l * delta);
  }
};

IndependentState independent_initial_state() {
  constexpr ea::examples::CraneParameters p{};
  return {p.x1_0, p.phi_0, p.x1_dot_0, p.phi_dot_0};
}

/// Classic rk4 written out on the std::array state, on the grid t_k = t0 + k h.
IndependentState independent_hand_rk4() {
  const IndependentCraneRates rates;
  IndependentState y = independent_initial_state(), k1, k2, k3, k4, stage;
  const std::size_t steps = step_count();
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = grid_time(k, steps);
    const double dt = grid_time(k + 1, steps) - t;
    rates(y, k1, t);
    for (std::size_t e = 0; e < y.size(); ++e) stage[e] = y[e] + 0.5 * dt * k1[e];
    rates(stage, k2, t + 0.5 * dt);
    for (std::size_t e = 0; e < y.size(); ++e) stage[e] = y[e] + 0.5 * dt * k2[e];
    rates(stage, k3, t + 0.5 * dt);
    for (std::size_t e = 0; e < y.size(); ++e) stage[e] = y[e] + dt * k3[e];
    rates(stage, k4, t + dt);
    for (std::size_t e = 0; e < y.size(); ++e) y[e] += dt / 6.0 * (k1[e] + 2.0 * k2[e] + 2.0 * k3[e] + k4[e]);
  }
  return y;
}

/// Boost.Odeint's classic rk4 on the same std::array state and right-hand side.
IndependentState independent_odeint_rk4() {
  odeint::runge_kutta4<IndependentState> stepper;
  IndependentState y = independent_initial_state();
  const std::size_t steps = step_count();
  for (std::size_t k = 0; k < steps; ++k) {
    const double t = grid_time(k, steps);
    stepper.do_step(IndependentCraneRates{}, y, t, grid_time(k + 1, steps) - t);
  }
  return y;
}

/// One run of an independent reference, its final state kept from the optimizer.
template <class Run>
void run_reference_once(const Run& run) {
  IndependentState y = run();
  benchmark::DoNotOptimize(y.data());
  benchmark::ClobberMemory();
}

template <class Run>
void run_independent(benchmark::State& state, const Run& run) {
  for (auto _ : state) run_reference_once(run);
  count_steps(state);
}

void BM_Rk4_IndependentHandLoop_AuditOff(benchmark::State& state) {
  run_independent(state, independent_hand_rk4);
}
BENCHMARK(BM_Rk4_IndependentHandLoop_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Rk4_IndependentOdeint_AuditOff(benchmark::State& state) {
  run_independent(state, independent_odeint_rk4);
}
BENCHMARK(BM_Rk4_IndependentOdeint_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// `energy-audit run crane --method rk4 --step 1e-3` with --no-audit, or audited with the
/// history of every `store_every`-th step handed to a sink (as --csv FILE --every K streams it)
/// and the equations checked every `equation_check_every`-th step (0: --no-equation-check).
ea::studies::RunOutcome run_command_line(bool audited, std::size_t store_every,
                                     std::size_t equation_check_every = ea::AuditOptions{}.equation_check_every) {
  ea::studies::RunSettings settings;
  settings.method = ea::studies::default_method();
  settings.step = h;
  settings.audited = audited;
  settings.audit.store_every = store_every;
  settings.audit.equation_check_every = equation_check_every;
  settings.audit.row_sink = [](const ea::HistoryLayout&, std::span<const double> rows) {
    benchmark::DoNotOptimize(rows.data());
  };
  return ea::studies::run_model(ea::examples::find_model("crane"), {}, settings);
}

void run_command_line(benchmark::State& state, bool audited, std::size_t store_every,
                      std::size_t equation_check_every = ea::AuditOptions{}.equation_check_every) {
  for (auto _ : state) {
    const ea::studies::RunOutcome outcome = run_command_line(audited, store_every, equation_check_every);
    benchmark::DoNotOptimize(outcome.steps);
  }
  count_steps(state);
}

void BM_Cli_Rk4_AuditOff(benchmark::State& state) { run_command_line(state, false, 0); }
BENCHMARK(BM_Cli_Rk4_AuditOff)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cli_Rk4_AuditOn_Every1000(benchmark::State& state) { run_command_line(state, true, 1000); }
BENCHMARK(BM_Cli_Rk4_AuditOn_Every1000)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// The equation check's share: none (--no-equation-check), and at every step.
void BM_Cli_Rk4_AuditOn_Every1000_NoEquationCheck(benchmark::State& state) { run_command_line(state, true, 1000, 0); }
BENCHMARK(BM_Cli_Rk4_AuditOn_Every1000_NoEquationCheck)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cli_Rk4_AuditOn_Every1000_EquationCheckEveryStep(benchmark::State& state) {
  run_command_line(state, true, 1000, 1);
}
BENCHMARK(BM_Cli_Rk4_AuditOn_Every1000_EquationCheckEveryStep)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// The command line's ratios timed within each iteration (time_ratio), which the machine's speed
/// drifting between benchmarks does not move: audit on (history every 1000th step) / off, counter
/// on_over_off; and the unaudited run over each independent reference, counter
/// command_line_over_reference.
void BM_Cli_Rk4_AuditRatio(benchmark::State& state) {
  time_ratio(
      state, [] { benchmark::DoNotOptimize(run_command_line(true, 1000).steps); },
      [] { benchmark::DoNotOptimize(run_command_line(false, 0).steps); }, "on_over_off");
}
BENCHMARK(BM_Cli_Rk4_AuditRatio)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

template <class Reference>
void command_line_over_reference(benchmark::State& state, const Reference& reference) {
  time_ratio(
      state, [] { benchmark::DoNotOptimize(run_command_line(false, 0).steps); },
      [&reference] { run_reference_once(reference); },
      "command_line_over_reference");
}

void BM_Cli_Rk4_OverIndependentHandLoop(benchmark::State& state) {
  command_line_over_reference(state, independent_hand_rk4);
}
BENCHMARK(BM_Cli_Rk4_OverIndependentHandLoop)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cli_Rk4_OverIndependentOdeint(benchmark::State& state) {
  command_line_over_reference(state, independent_odeint_rk4);
}
BENCHMARK(BM_Cli_Rk4_OverIndependentOdeint)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// (c) Automatic differentiation vs accelerations derived by hand.

/// A generic state: both angles' sine and cosine and both velocities non-zero.
struct FixedState {
  Coordinates q{0.3, -0.7};
  Coordinates v{0.8, -1.3};
  double t = 0.37;
};

void BM_CraneAccelerations_Hand(benchmark::State& state) {
  const Crane model{};
  FixedState s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);  // the compiler may not assume the state constant
    Coordinates a = model.accelerations(s.q, s.v, s.t);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_CraneAccelerations_Hand)->Apply(add_min_statistic);

void BM_CraneAccelerations_Derived(benchmark::State& state) {
  const Crane model{};
  FixedState s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    Coordinates a = ea::derived_accelerations(model, s.q, s.v, s.t);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_CraneAccelerations_Derived)->Apply(add_min_statistic);

void BM_CraneEquationResidual(benchmark::State& state) {
  const Crane model{};
  FixedState s;
  const Coordinates a = model.accelerations(s.q, s.v, s.t);
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    ea::EquationResidual residual = ea::equation_residual(model, s.q, s.v, a, s.t);
    benchmark::DoNotOptimize(residual);
  }
}
BENCHMARK(BM_CraneEquationResidual)->Apply(add_min_statistic);

void BM_Rk4Crane_Hand(benchmark::State& state) {
  run_library_rk4(state, AccelerationSource::Hand, EnergyFlow::Carried);
}
BENCHMARK(BM_Rk4Crane_Hand)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Rk4Crane_Derived(benchmark::State& state) {
  run_library_rk4(state, AccelerationSource::Derived, EnergyFlow::Carried);
}
BENCHMARK(BM_Rk4Crane_Derived)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// (e) The derivatives taken at every evaluation: ∂T/∂t, ∂V/∂t and Ż of a rheonomic model, and the
// constraint terms of multiplier models, alone and inside whole rk4 runs.

using ea::testing::HoistedPendulum;
using ea::testing::HoistedPendulumKinematic;
using ea::testing::MovingSupportPendulum;

/// A generic state of the moving-support pendulum: every term of T and V non-zero.
struct PendulumState {
  MovingSupportPendulum::Coordinates<double> q{0.3}, v{-1.1};
  double t = 0.7;
};

// The evaluations timed one at a time are called out of line, so that callgrind counts their
// calls: the instructions of one evaluation are a function's inclusive count over its calls.
[[gnu::noinline]] ea::ExplicitTimeDerivatives time_derivatives_of(const MovingSupportPendulum& model,
                                                                  const PendulumState& s) {
  return ea::explicit_time_derivatives(model, s.q, s.v, s.t);
}
[[gnu::noinline]] double energy_flow_rate_of(const MovingSupportPendulum& model, const PendulumState& s) {
  return ea::energy_flow_rate(model, s.q, s.v, s.t);
}
template <class Model, class State>
[[gnu::noinline]] auto constraint_terms_of(const Model& model, const State& s) {
  return ea::constraint_terms(model, s.q, s.v, s.t);
}

void BM_MovingSupportPendulum_TimeDerivatives(benchmark::State& state) {
  const MovingSupportPendulum model;
  PendulumState s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    ea::ExplicitTimeDerivatives d = time_derivatives_of(model, s);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_MovingSupportPendulum_TimeDerivatives)->Apply(add_min_statistic);

void BM_MovingSupportPendulum_EnergyFlowRate(benchmark::State& state) {
  const MovingSupportPendulum model;
  PendulumState s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    double z_dot = energy_flow_rate_of(model, s);
    benchmark::DoNotOptimize(z_dot);
  }
}
BENCHMARK(BM_MovingSupportPendulum_EnergyFlowRate)->Apply(add_min_statistic);

/// rk4 over [0, 10] with h = 1e-3 and hand accelerations: Ż, with ∂T/∂t and ∂V/∂t, at every stage.
void BM_MovingSupportPendulum_Rk4(benchmark::State& state) {
  const ea::LagrangeSystem<MovingSupportPendulum> system{MovingSupportPendulum{}};
  const Vector y0 = system.initial_state(MovingSupportPendulum::Coordinates<double>(0.4),
                                         MovingSupportPendulum::Coordinates<double>(0.0));
  Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  for (auto _ : state) {
    y = y0;
    ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, 10.0, h);
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(ea::fixed_step_count(0.0, 10.0, h)));
}
BENCHMARK(BM_MovingSupportPendulum_Rk4)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// A generic state of crane-dae: the crane's (x1, phi) = (0.3, -0.7), (0.8, -1.3) in absolute
/// coordinates (on the constraints, though constraint_terms does not need it).
struct CraneDaeState {
  CraneDae::Coordinates<double> q, v;
  double t = 0.37;
  CraneDaeState() {
    const double l = CraneDae{}.l, phi = -0.7, phi_dot = -1.3, x1 = 0.3, x1_dot = 0.8;
    q = {x1, (l / 2) * std::cos(phi) - x1, (l / 2) * std::sin(phi), phi};
    v = {x1_dot, -(l / 2) * std::sin(phi) * phi_dot - x1_dot, (l / 2) * std::cos(phi) * phi_dot, phi_dot};
  }
};

void BM_ConstraintTerms_CraneDae(benchmark::State& state) {
  const CraneDae model;
  CraneDaeState s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    auto c = constraint_terms_of(model, s);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_ConstraintTerms_CraneDae)->Apply(add_min_statistic);

/// A state of the hoisted pendulum at 0.6 rad, swinging, with the rope moving (t = 0.37).
template <class Model>
struct HoistState {
  typename Model::template Coordinates<double> q, v;
  double t = 0.37;
  HoistState() { Model{}.start(0.6, 0.9, q, v); }
};

template <class Model>
void run_hoist_constraint_terms(benchmark::State& state) {
  const Model model;
  HoistState<Model> s;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s);
    auto c = constraint_terms_of(model, s);
    benchmark::DoNotOptimize(c);
  }
}

void BM_ConstraintTerms_HoistedPendulum(benchmark::State& state) { run_hoist_constraint_terms<HoistedPendulum>(state); }
BENCHMARK(BM_ConstraintTerms_HoistedPendulum)->Apply(add_min_statistic);

void BM_ConstraintTerms_HoistedPendulumKinematic(benchmark::State& state) {
  run_hoist_constraint_terms<HoistedPendulumKinematic>(state);
}
BENCHMARK(BM_ConstraintTerms_HoistedPendulumKinematic)->Apply(add_min_statistic);

/// A system's rk4 run over [0, 5] with h = 1e-3 from y0, Z carried, no observer.
template <class AnySystem>
void run_system_rk4(benchmark::State& state, const AnySystem& system, const Vector& y0) {
  Vector y = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  for (auto _ : state) {
    y = y0;
    ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, 5.0, h);
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(ea::fixed_step_count(0.0, 5.0, h)));
}

/// A multiplier system's rk4 run over [0, 5] with h = 1e-3, Z carried, no observer.
template <class Model>
void run_multiplier_rk4(benchmark::State& state, const Model& model, const typename Model::template Coordinates<double>& q0,
                        const typename Model::template Coordinates<double>& v0) {
  const ea::MultiplierSystem<Model> system{model};
  run_system_rk4(state, system, system.initial_state(q0, v0));
}

void BM_CraneDae_Rk4(benchmark::State& state) {
  const CraneDae model;
  const ea::InitialState<CraneDae::dofs> start = model.initial_state();
  run_multiplier_rk4(state, model, start.q, start.v);
}
BENCHMARK(BM_CraneDae_Rk4)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_HoistedPendulum_Rk4(benchmark::State& state) {
  const HoistedPendulum model;
  HoistedPendulum::Coordinates<double> q, v;
  model.start(0.6, 0.0, q, v);
  run_multiplier_rk4(state, model, q, v);
}
BENCHMARK(BM_HoistedPendulum_Rk4)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// (f) The formulations, per rk4 step: Hamilton's form of the crane against Lagrange's with derived
// accelerations (automatic differentiation in both), Maggi's form of crane-dae against its
// multiplier form.

void BM_Rk4Crane_Hamilton(benchmark::State& state) {
  const ea::HamiltonSystem<Crane> system{Crane{}};
  const ea::InitialState<Crane::dofs> start = Crane{}.initial_state();
  run_system_rk4(state, system, system.initial_state(start.q, start.v, t0));
}
BENCHMARK(BM_Rk4Crane_Hamilton)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_CraneDae_Maggi_Rk4(benchmark::State& state) {
  const CraneDae model;
  const ea::MaggiSystem<CraneDae> system(model, {0, 3});
  const ea::InitialState<CraneDae::dofs> start = model.initial_state();
  run_system_rk4(state, system, system.initial_state(start.q, start.v));
}
BENCHMARK(BM_CraneDae_Maggi_Rk4)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// Checks, before any timing: the compared computations must be the same computation.

double relative_difference(const Vector& reference, const Vector& other) {
  return (other - reference).norm() / reference.norm();
}

bool check(std::string_view what, double difference, double tolerance) {
  const bool ok = difference <= tolerance;  // false for NaN too
  std::fprintf(stderr, "check: %-50.*s relative difference %.3e (tolerance %.0e) %s\n",
               static_cast<int>(what.size()), what.data(), difference, tolerance,
               ok ? "ok" : "FAILED");
  return ok;
}

bool require(std::string_view what, bool ok) {
  std::fprintf(stderr, "check: %-50.*s %s\n", static_cast<int>(what.size()), what.data(),
               ok ? "ok" : "FAILED");
  return ok;
}

bool check_same_computations() {
  bool ok = true;

  // (b): library, hand loop and odeint end in the same final state.
  const System system = make_system(AccelerationSource::Hand, EnergyFlow::Carried);
  const Vector y0 = initial_state(system);
  Vector y_library = y0, y_hand = y0, y_odeint = y0;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  const ea::IntegrationResult result = library_rk4(stepper, system, y_library);
  ok &= require("library completes every step", !result.diverged() && result.steps == step_count());
  HandRk4Workspace workspace(y0.size());
  hand_rk4(workspace, system, y_hand);
  OdeintRk4 odeint_stepper;
  odeint_rk4(odeint_stepper, system, y_odeint);
  ok &= check("rk4 final state: hand loop vs library", relative_difference(y_library, y_hand), 1e-12);
  ok &= check("rk4 final state: odeint vs library", relative_difference(y_library, y_odeint), 1e-12);

  // (a): the audit only watches; q and v evolve as without Z.
  const System system_off = make_system(AccelerationSource::Hand, EnergyFlow::Off);
  Vector y_off = initial_state(system_off);
  ea::FixedStepper stepper_off(ea::methods::Rk4{});
  ea::integrate_const(stepper_off, system_off, y_off, t0, t1, h);
  Vector y_on = y0;
  ea::FixedStepper stepper_on(ea::methods::Rk4{});
  ea::Audit audit;
  ea::integrate_const(stepper_on, system, y_on, t0, t1, h, ea::watch(system, audit));
  ok &= check("q, v: audit on vs audit off", relative_difference(y_off, y_on.head(y_off.size())), 1e-12);
  ok &= require("audit stored every step", audit.history().rows() == step_count() + 1);
  Vector y_drift = y0;
  ea::FixedStepper stepper_drift(ea::methods::Rk4{});
  DriftOnly drift{system};
  ea::integrate_const(stepper_drift, system, y_drift, t0, t1, h, drift);
  ok &= check("sup |C - C0|: drift-only observer vs audit",
              std::abs(drift.max_abs_drift - audit.max_abs_drift()) / audit.max_abs_drift(), 1e-12);

  // (c): derived accelerations agree with the hand-derived ones.
  const Crane model{};
  const FixedState s;
  const Vector a_hand = model.accelerations(s.q, s.v, s.t);
  const Vector a_derived = ea::derived_accelerations(model, s.q, s.v, s.t);
  ok &= check("accelerations at the fixed state: derived vs hand", relative_difference(a_hand, a_derived), 1e-12);
  const System system_derived = make_system(AccelerationSource::Derived, EnergyFlow::Carried);
  Vector y_derived = y0;
  ea::FixedStepper stepper_derived(ea::methods::Rk4{});
  ea::integrate_const(stepper_derived, system_derived, y_derived, t0, t1, h);
  ok &= check("rk4 final state: derived vs hand", relative_difference(y_library, y_derived), 1e-9);

  // (f): the formulations integrate the same motion.
  const ea::HamiltonSystem<Crane> hamilton{Crane{}};
  const ea::InitialState<Crane::dofs> crane_start = Crane{}.initial_state();
  Vector y_hamilton = hamilton.initial_state(crane_start.q, crane_start.v, t0);
  ea::FixedStepper stepper_hamilton(ea::methods::Rk4{});
  ea::integrate_const(stepper_hamilton, hamilton, y_hamilton, t0, t1, h);
  ok &= check("rk4 final q: Hamilton vs Lagrange (derived)",
              relative_difference(y_derived.head<2>(), y_hamilton.head<2>()), 1e-8);
  const CraneDae dae;
  const ea::InitialState<CraneDae::dofs> dae_start = dae.initial_state();
  const ea::MultiplierSystem<CraneDae> multipliers{dae};
  const ea::MaggiSystem<CraneDae> maggi(dae, {0, 3});
  Vector y_multipliers = multipliers.initial_state(dae_start.q, dae_start.v);
  Vector y_maggi = maggi.initial_state(dae_start.q, dae_start.v);
  ea::FixedStepper stepper_multipliers(ea::methods::Rk4{}), stepper_maggi(ea::methods::Rk4{});
  ea::integrate_const(stepper_multipliers, multipliers, y_multipliers, 0.0, 5.0, h);
  ea::integrate_const(stepper_maggi, maggi, y_maggi, 0.0, 5.0, h);
  ok &= check("rk4 final q: Maggi vs multipliers (crane-dae)",
              relative_difference(y_multipliers.head<4>(), y_maggi.head<4>()), 1e-8);

  // (d): the command line's run is the library's: every step, the same δ_C.
  const ea::studies::RunOutcome off = run_command_line(false, 0), on = run_command_line(true, 1000);
  ok &= require("command line: both runs finish every step",
                off.finished() && on.finished() && off.steps == step_count() && on.steps == step_count());
  ok &= check("command line: delta_C vs the library's audit",
              std::abs(on.audit->relative_drift() - audit.relative_drift()) / audit.relative_drift(), 1e-12);
  HandRk4Workspace workspace_off(y_off.size());
  Vector y_hand_off = initial_state(system_off), y_odeint_off = y_hand_off;
  hand_rk4(workspace_off, system_off, y_hand_off);
  OdeintRk4 odeint_off;
  odeint_rk4(odeint_off, system_off, y_odeint_off);
  ok &= check("rk4 final q, v: hand loop vs library, no Z", relative_difference(y_off, y_hand_off), 1e-12);
  ok &= check("rk4 final q, v: odeint vs library, no Z", relative_difference(y_off, y_odeint_off), 1e-12);
  const auto as_vector = [](const IndependentState& y) { return Vector(Eigen::Map<const Vector>(y.data(), 4)); };
  ok &= check("rk4 final q, v: independent hand loop vs library",
              relative_difference(y_off, as_vector(independent_hand_rk4())), 1e-12);
  ok &= check("rk4 final q, v: independent odeint vs library",
              relative_difference(y_off, as_vector(independent_odeint_rk4())), 1e-12);

  // (e): the derivatives timed are the model's: ∂T/∂t, ∂V/∂t against the pendulum's hand
  // formulas, G and Ġ v + ġ of the hoisted pendulum against Φ = (x² + y² − l²) / 2 by hand.
  const MovingSupportPendulum pendulum;
  const PendulumState p;
  const ea::ExplicitTimeDerivatives d = ea::explicit_time_derivatives(pendulum, p.q, p.v, p.t);
  ok &= check("dT/dt of the moving-support pendulum vs hand",
              std::abs(d.T_t / pendulum.T_t(p.q[0], p.v[0], p.t) - 1), 1e-12);
  ok &= check("dV/dt of the moving-support pendulum vs hand", std::abs(d.V_t / pendulum.V_t(p.t) - 1), 1e-12);
  const HoistedPendulum hoist;
  const HoistState<HoistedPendulum> hs;
  const auto c = ea::constraint_terms(hoist, hs.q, hs.v, hs.t);
  const double l = hoist.length(hs.t), l_dot = hoist.length_rate(hs.t);
  const double l_ddot = -hoist.A * hoist.w * hoist.w * std::sin(hoist.w * hs.t);
  const Vector G_hand = hs.q;
  const double bias_hand = hs.v.squaredNorm() - l_dot * l_dot - l * l_ddot;
  ok &= check("G of the hoisted pendulum vs hand", relative_difference(G_hand, c.G.transpose()), 1e-12);
  ok &= check("Gdot v + gdot of the hoisted pendulum vs hand", std::abs(c.bias[0] / bias_hand - 1), 1e-12);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return energy_audit::benchmarks::run_checked_benchmarks(argc, argv, "energy_audit_benchmarks", check_same_computations);
}
