/// \file
/// Benchmarks of the CVODES adapter (energy_audit::sun::integrate_cvodes). Every iteration
/// integrates the crane (examples/models/crane.hpp, default parameters and initial state) over
/// [0, 5] with the adapter's defaults: Newton iteration with the dense linear solver and a
/// difference-quotient Jacobian, rtol 1e-8, atol 1e-10, stop time 5, one internal step per CVode
/// call. Each benchmark runs for BDF (/bdf) and Adams (/adams). Ratios to read from one run:
///
///   BM_Cvodes_Adapter_AuditOff / BM_Cvodes_PlainC        adapter overhead,  target <= 1.05
///   BM_Cvodes_Adapter_NoZ / BM_Cvodes_PlainC_NoZ         the same without Z, target <= 1.05
///   BM_Cvodes_Adapter_AuditOn / BM_Cvodes_Adapter_AuditOff   audit overhead under CVODES (reported)
///
/// Diagnostics (no target): BM_Cvodes_PlainC / BM_Cvodes_PlainC_NoZ and BM_Cvodes_Adapter_AuditOff /
/// BM_Cvodes_Adapter_NoZ are the cost of carrying Ż in the state (one more equation in the error
/// control, the Newton system and the difference-quotient Jacobian, so the step counts differ);
/// BM_Cvodes_PlainC_Normal is the plain program making one CV_NORMAL call to t = 5 instead of
/// stepping with CV_ONE_STEP; BM_Cvodes_Adapter_AuditOn_StoreNone is AuditOn keeping no history
/// rows, so AuditOn - StoreNone is the cost of the stored history (which grows step by step: the
/// adapter cannot announce a step count) and StoreNone - AuditOff that of sampling and judging the
/// energies. Every benchmark also reports the minimum over repetitions
/// (--benchmark_repetitions=N) and SUNDIALS' counters of its last iteration (steps, rhs_evals,
/// jac_rhs_evals, ...); items/s are internal steps per second.
///
/// BM_Cvodes_PlainC* is a plain C-style CVODE program written in this file: a 5-entry (or
/// 4-entry, _NoZ) serial N_Vector y = [x1, phi, x1_dot, phi_dot, Z], a static right-hand side with
/// the crane's eq. 19 in the formulas of Crane::accelerations and Ż = k x1_dot^2, and the setup
/// and stepping the adapter does (stop time 5, CV_ONE_STEP until it is reached). Both sides create
/// and free every SUNDIALS object, the context included, inside each iteration. main() checks,
/// before any timing, that the plain program and the adapter take the same steps (equal SUNDIALS
/// counters) and end in the same state, and exits with a message if they do not.
///
/// Run, from the build directory:
///   bin/energy_audit_cvodes_benchmarks --benchmark_repetitions=10
///     --benchmark_report_aggregates_only=true --benchmark_enable_random_interleaving=true
/// The adapter's margin (a few per cent) is below the noise of a loaded machine: there, take more
/// repetitions (--benchmark_repetitions=60 --benchmark_min_time=0.1) and read the min rows.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sundials/sundials_context.hpp>

#include <crane.hpp>
#include <energy_audit/audit.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>

#include "benchmark_support.hpp"

namespace {

using energy_audit::benchmarks::add_min_statistic;

namespace ea = energy_audit;
namespace sun = energy_audit::sun;

using Crane = ea::examples::Crane;
using System = ea::LagrangeSystem<Crane>;
using ea::AccelerationSource;
using ea::EnergyFlow;
using ea::Vector;

constexpr double t0 = Crane::interval.t0;
constexpr double t1 = Crane::interval.t_end;
constexpr double rtol = 1e-8;   // the adapter's defaults (CvodesOptions)
constexpr double atol = 1e-10;
constexpr long max_steps = 100000;

// ---------------------------------------------------------------------------------------------
// The plain C-style CVODE program. Its constants are the crane's defaults (checked at compile
// time against Crane{}); its right-hand side is eq. 19 written out, in the operation order of
// Crane::accelerations, so that both sides evaluate the same doubles.

constexpr sunrealtype M1 = 10.0;      // trolley mass [kg]
constexpr sunrealtype M2 = 1.0;       // rod mass [kg]
constexpr sunrealtype LROD = 1.0;     // rod length [m]
constexpr sunrealtype GRAV = 9.81;    // gravity [m/s^2]
constexpr sunrealtype KDAMP = 50.0;   // damper [N s/m]
constexpr sunrealtype SPRING = 3000.0;  // spring [N/m]
constexpr sunrealtype X10 = 0.5;      // initial trolley position [m]
constexpr sunrealtype PHI0 = -std::numbers::pi / 6;  // initial rod angle [rad]

constexpr Crane default_crane{};
static_assert(default_crane.m1 == M1 && default_crane.m2 == M2 && default_crane.l == LROD &&
              default_crane.g == GRAV && default_crane.k == KDAMP && default_crane.s == SPRING &&
              default_crane.x1_0 == X10 && default_crane.phi_0 == PHI0 &&
              default_crane.x1_dot_0 == 0.0 && default_crane.phi_dot_0 == 0.0,
              "the plain C program's constants must be the crane's defaults");

/// ydot[0..3] = [x1_dot, phi_dot, x1_ddot, phi_ddot] of eq. 19 at y[0..3].
inline void crane_motion(const sunrealtype* y, sunrealtype* ydot) {
  const sunrealtype x1 = y[0], phi = y[1], x1d = y[2], phid = y[3];
  const sunrealtype c = std::cos(phi), s = std::sin(phi);
  const sunrealtype delta = 4 * M1 + M2 + 3 * M2 * c * c;
  ydot[0] = x1d;
  ydot[1] = phid;
  ydot[2] = (-1.0 * 2 * M2 * LROD * c * phid * phid - 4 * KDAMP * x1d - 4 * SPRING * x1 +
             1.5 * M2 * GRAV * std::sin(2 * phi)) /
            delta;
  ydot[3] = (3 * M2 * LROD * c * s * phid * phid + 6 * s * (SPRING * x1 + KDAMP * x1d) -
             6 * GRAV * (M1 + M2) * c) /
            (LROD * delta);
}

/// y = [x1, phi, x1_dot, phi_dot, Z]: eq. 19 and Ż = k x1_dot^2, the power the damper takes.
int crane_rhs_z(sunrealtype /*t*/, N_Vector y, N_Vector ydot, void* /*user_data*/) {
  const sunrealtype* yd = N_VGetArrayPointer(y);
  sunrealtype* dyd = N_VGetArrayPointer(ydot);
  crane_motion(yd, dyd);
  dyd[4] = KDAMP * yd[2] * yd[2];
  return 0;
}

/// y = [x1, phi, x1_dot, phi_dot]: eq. 19 alone.
int crane_rhs(sunrealtype /*t*/, N_Vector y, N_Vector ydot, void* /*user_data*/) {
  crane_motion(N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return 0;
}

/// What a run of the plain program leaves: its end state and SUNDIALS' counters.
struct PlainCRun {
  int status = 0;  ///< 0, or the failing SUNDIALS flag (-999 for a NULL from a constructor)
  double t = 0;
  std::array<double, 5> y{};
  energy_audit::SolverCounters counters;
};

/// The plain program: lmm CV_BDF or CV_ADAMS, neq 5 (Z carried) or 4, task CV_ONE_STEP (stepped
/// up to the stop time, as the adapter does) or CV_NORMAL (one call to t1). Creates and frees
/// everything, the SUNDIALS context included.
void plain_c_crane(int lmm, int neq, int task, PlainCRun& run) {
  sundials::Context sunctx;  // as in SUNDIALS' C++ examples: one code for SUNDIALS 6 and 7
  N_Vector y = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  void* cvode_mem = nullptr;
  sunrealtype t = t0;
  int retval = 0;

  run.status = 0;
  y = N_VNew_Serial(neq, sunctx);
  if (y == nullptr) { run.status = -999; goto cleanup; }
  NV_Ith_S(y, 0) = X10;
  NV_Ith_S(y, 1) = PHI0;
  NV_Ith_S(y, 2) = 0.0;
  NV_Ith_S(y, 3) = 0.0;
  if (neq == 5) NV_Ith_S(y, 4) = 0.0;

  cvode_mem = CVodeCreate(lmm, sunctx);
  if (cvode_mem == nullptr) { run.status = -999; goto cleanup; }
  if ((retval = CVodeInit(cvode_mem, neq == 5 ? crane_rhs_z : crane_rhs, t0, y)) < 0) goto fail;
  if ((retval = CVodeSStolerances(cvode_mem, rtol, atol)) < 0) goto fail;
  if ((retval = CVodeSetStopTime(cvode_mem, t1)) < 0) goto fail;
  if ((retval = CVodeSetMaxNumSteps(cvode_mem, max_steps)) < 0) goto fail;

  A = SUNDenseMatrix(neq, neq, sunctx);
  if (A == nullptr) { run.status = -999; goto cleanup; }
  LS = SUNLinSol_Dense(y, A, sunctx);
  if (LS == nullptr) { run.status = -999; goto cleanup; }
  if ((retval = CVodeSetLinearSolver(cvode_mem, LS, A)) < 0) goto fail;

  if (task == CV_ONE_STEP) {
    while (t < t1) {
      if ((retval = CVode(cvode_mem, t1, y, &t, CV_ONE_STEP)) < 0) goto fail;
    }
  } else {
    if ((retval = CVode(cvode_mem, t1, y, &t, CV_NORMAL)) < 0) goto fail;
  }

  run.t = t;
  for (int i = 0; i < neq; ++i) run.y[static_cast<std::size_t>(i)] = NV_Ith_S(y, i);
  CVodeGetNumSteps(cvode_mem, &run.counters.steps);
  CVodeGetNumRhsEvals(cvode_mem, &run.counters.rhs_evaluations);
  CVodeGetNumNonlinSolvIters(cvode_mem, &run.counters.nonlinear_iterations);
  CVodeGetNumNonlinSolvConvFails(cvode_mem, &run.counters.nonlinear_convergence_failures);
  CVodeGetNumErrTestFails(cvode_mem, &run.counters.error_test_failures);
  CVodeGetNumJacEvals(cvode_mem, &run.counters.jacobian_evaluations);
  CVodeGetNumLinRhsEvals(cvode_mem, &run.counters.jacobian_rhs_evaluations);
  goto cleanup;

fail:
  run.status = retval;
cleanup:
  CVodeFree(&cvode_mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
}

// ---------------------------------------------------------------------------------------------
// The adapter's side.

System make_system(EnergyFlow flow) { return System(Crane{}, AccelerationSource::Hand, flow); }

Vector initial_state(const System& system) {
  const ea::InitialState<Crane::dofs> init = system.model().initial_state();
  return system.initial_state(init.q, init.v);
}

sun::CvodesOptions adapter_options(int lmm) {
  sun::CvodesOptions options;  // Newton + dense, rtol 1e-8, atol 1e-10, Z in the state
  options.method = lmm == CV_BDF ? sun::Multistep::Bdf : sun::Multistep::Adams;
  options.max_steps = max_steps;
  return options;
}

// ---------------------------------------------------------------------------------------------
// Reporting.

/// SUNDIALS' counters of the last iteration as benchmark counters; steps as items.
void report(benchmark::State& state, const energy_audit::SolverCounters& c) {
  state.counters["steps"] = static_cast<double>(c.steps);
  state.counters["rhs_evals"] = static_cast<double>(c.rhs_evaluations);
  state.counters["jac_rhs_evals"] = static_cast<double>(c.jacobian_rhs_evaluations);
  state.counters["jac_evals"] = static_cast<double>(c.jacobian_evaluations);
  state.counters["nonlin_iters"] = static_cast<double>(c.nonlinear_iterations);
  state.counters["err_test_fails"] = static_cast<double>(c.error_test_failures);
  state.SetItemsProcessed(state.iterations() * static_cast<benchmark::IterationCount>(c.steps));
}

// ---------------------------------------------------------------------------------------------
// The plain C program.

void run_plain_c(benchmark::State& state, int lmm, int neq, int task) {
  PlainCRun run;
  for (auto _ : state) {
    plain_c_crane(lmm, neq, task, run);
    benchmark::DoNotOptimize(run);
    benchmark::ClobberMemory();
  }
  if (run.status != 0) state.SkipWithError("the plain C CVODE program failed");
  report(state, run.counters);
}

void BM_Cvodes_PlainC(benchmark::State& state, int lmm) { run_plain_c(state, lmm, 5, CV_ONE_STEP); }
BENCHMARK_CAPTURE(BM_Cvodes_PlainC, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_PlainC, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cvodes_PlainC_Normal(benchmark::State& state, int lmm) { run_plain_c(state, lmm, 5, CV_NORMAL); }
BENCHMARK_CAPTURE(BM_Cvodes_PlainC_Normal, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_PlainC_Normal, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cvodes_PlainC_NoZ(benchmark::State& state, int lmm) { run_plain_c(state, lmm, 4, CV_ONE_STEP); }
BENCHMARK_CAPTURE(BM_Cvodes_PlainC_NoZ, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_PlainC_NoZ, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// The adapter: audit off (Z carried, no observer), without Z, and audit on.

void run_adapter(benchmark::State& state, int lmm, EnergyFlow flow) {
  const System system = make_system(flow);
  const Vector y0 = initial_state(system);
  const sun::CvodesOptions options = adapter_options(lmm);
  Vector y = y0;
  sun::CvodesResult result;
  for (auto _ : state) {
    y = y0;
    result = sun::integrate_cvodes(system, y, t0, t1, ea::NoObserver{}, options);
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  report(state, result.counters);
}

void BM_Cvodes_Adapter_AuditOff(benchmark::State& state, int lmm) { run_adapter(state, lmm, EnergyFlow::Carried); }
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOff, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOff, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void BM_Cvodes_Adapter_NoZ(benchmark::State& state, int lmm) { run_adapter(state, lmm, EnergyFlow::Off); }
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_NoZ, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_NoZ, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

void run_audited(benchmark::State& state, int lmm, const ea::AuditOptions& audit_options) {
  const System system = make_system(EnergyFlow::Carried);
  const Vector y0 = initial_state(system);
  const sun::CvodesOptions options = adapter_options(lmm);
  Vector y = y0;
  sun::CvodesResult result;
  for (auto _ : state) {
    y = y0;
    ea::Audit audit(audit_options);
    result = sun::integrate_cvodes(system, y, t0, t1, ea::watch(system, audit), options);
    double drift = audit.relative_drift();
    benchmark::DoNotOptimize(result);
    benchmark::DoNotOptimize(drift);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  report(state, result.counters);
}

void BM_Cvodes_Adapter_AuditOn(benchmark::State& state, int lmm) { run_audited(state, lmm, ea::AuditOptions{}); }
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOn, bdf, CV_BDF)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOn, adams, CV_ADAMS)->Unit(benchmark::kMicrosecond)->Apply(add_min_statistic);

/// Diagnostic: the audit judging every step but storing no history row.
void BM_Cvodes_Adapter_AuditOn_StoreNone(benchmark::State& state, int lmm) {
  ea::AuditOptions audit_options;
  audit_options.store_every = 0;
  run_audited(state, lmm, audit_options);
}
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOn_StoreNone, bdf, CV_BDF)
    ->Unit(benchmark::kMicrosecond)
    ->Apply(add_min_statistic);
BENCHMARK_CAPTURE(BM_Cvodes_Adapter_AuditOn_StoreNone, adams, CV_ADAMS)
    ->Unit(benchmark::kMicrosecond)
    ->Apply(add_min_statistic);

// ---------------------------------------------------------------------------------------------
// Checks, before any timing: the compared computations must be the same computation.

bool require(std::string_view what, bool ok) {
  std::fprintf(stderr, "check: %-66.*s %s\n", static_cast<int>(what.size()), what.data(), ok ? "ok" : "FAILED");
  return ok;
}

bool check(std::string_view what, double difference, double tolerance) {
  const bool ok = difference <= tolerance;  // false for NaN too
  std::fprintf(stderr, "check: %-66.*s relative difference %.3e (tolerance %.0e) %s\n",
               static_cast<int>(what.size()), what.data(), difference, tolerance, ok ? "ok" : "FAILED");
  return ok;
}

void print_counters(const char* who, const energy_audit::SolverCounters& c) {
  std::fprintf(stderr,
               "  %-34s steps %5ld  rhs %5ld  jac_rhs %4ld  jac %3ld  nonlin_iters %5ld  "
               "nonlin_fails %3ld  err_test_fails %3ld\n",
               who, c.steps, c.rhs_evaluations, c.jacobian_rhs_evaluations, c.jacobian_evaluations,
               c.nonlinear_iterations, c.nonlinear_convergence_failures, c.error_test_failures);
}

bool same_counters(const energy_audit::SolverCounters& a, const energy_audit::SolverCounters& b) {
  return a.steps == b.steps && a.rhs_evaluations == b.rhs_evaluations &&
         a.jacobian_rhs_evaluations == b.jacobian_rhs_evaluations &&
         a.jacobian_evaluations == b.jacobian_evaluations && a.nonlinear_iterations == b.nonlinear_iterations &&
         a.nonlinear_convergence_failures == b.nonlinear_convergence_failures &&
         a.error_test_failures == b.error_test_failures;
}

double relative_difference(const Vector& reference, const PlainCRun& run) {
  const Vector other = Eigen::Map<const Vector>(run.y.data(), reference.size());
  return (other - reference).norm() / reference.norm();
}

bool check_method(int lmm, const char* name) {
  bool ok = true;
  std::fprintf(stderr, "%s:\n", name);
  for (const EnergyFlow flow : {EnergyFlow::Carried, EnergyFlow::Off}) {
    const bool carried = flow == EnergyFlow::Carried;
    const int neq = carried ? 5 : 4;
    PlainCRun plain;
    plain_c_crane(lmm, neq, CV_ONE_STEP, plain);
    ok &= require(carried ? "plain C (5 entries) reaches t = 5" : "plain C (4 entries) reaches t = 5",
                  plain.status == 0 && plain.t == t1);

    const System system = make_system(flow);
    Vector y = initial_state(system);
    const sun::CvodesResult result = sun::integrate_cvodes(system, y, t0, t1, ea::NoObserver{}, adapter_options(lmm));
    print_counters(carried ? "plain C, CV_ONE_STEP:" : "plain C NoZ, CV_ONE_STEP:", plain.counters);
    print_counters(carried ? "adapter, audit off:" : "adapter NoZ:", result.counters);
    ok &= require(carried ? "adapter reaches t = 5" : "adapter NoZ reaches t = 5", result.t_reached == t1);
    ok &= require(carried ? "same SUNDIALS counters: adapter vs plain C (steps, rhs, jac, ...)"
                          : "same SUNDIALS counters: adapter NoZ vs plain C NoZ",
                  same_counters(plain.counters, result.counters));
    // Same right-hand side doubles and the same calls: the same state to the last bit.
    ok &= check(carried ? "final state: adapter vs plain C" : "final state: adapter NoZ vs plain C NoZ",
                relative_difference(y, plain), 0.0);

    if (carried) {
      PlainCRun normal;
      plain_c_crane(lmm, neq, CV_NORMAL, normal);
      print_counters("plain C, one CV_NORMAL call:", normal.counters);
      ok &= require("plain C, CV_NORMAL reaches t = 5", normal.status == 0 && normal.t == t1);
      ok &= check("final state: plain C CV_NORMAL vs CV_ONE_STEP", relative_difference(y, normal), 1e-12);

      Vector y_on = initial_state(system);
      ea::Audit audit;
      const sun::CvodesResult on =
          sun::integrate_cvodes(system, y_on, t0, t1, ea::watch(system, audit), adapter_options(lmm));
      print_counters("adapter, audit on:", on.counters);
      ok &= require("same SUNDIALS counters: audit on vs audit off", same_counters(on.counters, result.counters));
      ok &= require("final state: audit on == audit off", y_on == y);
      ok &= require("audit saw every accepted step and passed",
                    audit.accepted_steps() == static_cast<std::size_t>(on.counters.steps) + 1 && audit.passed());
      std::fprintf(stderr, "  delta_C = %.3e\n", audit.relative_drift());
    }
  }
  return ok;
}

bool check_same_computations() {
  bool ok = check_method(CV_BDF, "BDF");
  ok &= check_method(CV_ADAMS, "Adams");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return energy_audit::benchmarks::run_checked_benchmarks(argc, argv, "energy_audit_cvodes_benchmarks", check_same_computations);
}
