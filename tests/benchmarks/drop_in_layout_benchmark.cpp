/// \file
/// The drop-in audit's cost with a state layout (DropInLayout) and in Hamilton's form. Every
/// iteration integrates a chain of n = 5000 unit masses (10⁴ states) on CVODE's Adams method with
/// the fixed-point nonlinear solver, rtol 1e-8, atol 1e-10, t = 0 … 2, each mass tied to the
/// ground by a spring and to its neighbours by springs and dampers side by side, from a sine
/// displacement at rest. The same program keeps its state as blocks, y = [x, v], or body by body,
/// y = [x1, v1, x2, v2, ...] (/interleaved); the audit reads it
///
///   BM_DropIn_Unaudited         plain CVode calls (the program as it was)
///   BM_DropIn_Lagrange          T, V and the dampers' power over q and v (the default layout,
///                               or DropInLayout::strided(.., 0, 1, 2) when interleaved), T
///                               declared quadratic in v
///   BM_DropIn_Hamilton          the same in Hamilton's form: H(q, p) with p = v (unit masses),
///                               the dampers as generalized forces, q' from coordinate_rates
///   BM_DropIn_LagrangeQuadrature  BM_DropIn_Lagrange with Z as CVODES' quadrature
///   BM_DropIn_HamiltonQuadrature  BM_DropIn_Hamilton with Z as CVODES' quadrature
///
/// with Z by Gauss–Legendre on CVODE's interpolant unless named. Each audited benchmark runs the
/// unaudited program of its layout beside it in every iteration, in alternating order, and
/// reports audited / unaudited as the counter `audited_over_unaudited` (benchmark_support.hpp's
/// time_ratio); its reported time is the pair's. Interleaved / block of BM_DropIn_Unaudited is the
/// program's own cost of its layout. main() checks, before any timing, that every audited run
/// takes the steps of the unaudited one, ends in its state bit for bit and passes.
///
/// Run, from the build directory:
///   bin/energy_audit_drop_in_benchmarks --benchmark_repetitions=5
///     --benchmark_report_aggregates_only=true --benchmark_enable_random_interleaving=true

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>
#include <sundials/sundials_context.hpp>

#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/handles.hpp>

#include "benchmark_support.hpp"

namespace {

using energy_audit::benchmarks::add_min_statistic;
using energy_audit::benchmarks::time_ratio;
namespace sun = energy_audit::sun;

constexpr int masses = 5000;
constexpr double ground = 4.0, spring = 100.0, damper = 0.5;  // unit masses
constexpr double t_end = 2.0;

enum class Layout { block, interleaved };
enum class Audit { none, lagrange, hamilton, lagrange_quadrature, hamilton_quadrature };

/// Where x_i and v_i are in y.
struct Indices {
  Layout layout;
  long x(int i) const { return layout == Layout::block ? i : 2L * i; }
  long v(int i) const { return layout == Layout::block ? masses + i : 2L * i + 1; }
};

int chain_rhs(sunrealtype, N_Vector y_vector, N_Vector ydot_vector, void* user_data) {
  const Indices at = *static_cast<const Indices*>(user_data);
  const double* y = N_VGetArrayPointer(y_vector);
  double* ydot = N_VGetArrayPointer(ydot_vector);
  for (int i = 0; i < masses; ++i) {
    const double x = y[at.x(i)], v = y[at.v(i)];
    double force = -ground * x;
    if (i > 0) force += -spring * (x - y[at.x(i - 1)]) - damper * (v - y[at.v(i - 1)]);
    if (i + 1 < masses) force += -spring * (x - y[at.x(i + 1)]) - damper * (v - y[at.v(i + 1)]);
    ydot[at.x(i)] = v;
    ydot[at.v(i)] = force;
  }
  return 0;
}

// The chain's energies over q and v (or p = v) as the audit reads them, whatever the layout.
double kinetic(const double* v) {
  double sum = 0;
  for (int i = 0; i < masses; ++i) sum += 0.5 * v[i] * v[i];
  return sum;
}
double potential(const double* q) {
  double sum = 0;
  for (int i = 0; i < masses; ++i) sum += 0.5 * ground * q[i] * q[i];
  for (int i = 1; i < masses; ++i) sum += 0.5 * spring * (q[i] - q[i - 1]) * (q[i] - q[i - 1]);
  return sum;
}
double dampers_power(const double* v) {
  double sum = 0;
  for (int i = 1; i < masses; ++i) sum -= damper * (v[i] - v[i - 1]) * (v[i] - v[i - 1]);
  return sum;
}

sun::CvodeAudit make_audit(Audit audit, Layout layout) {
  sun::CvodeAudit made = [&] {
    if (audit == Audit::hamilton || audit == Audit::hamilton_quadrature) {
      sun::DropInHamiltonian h;
      h.hamiltonian = [](const double* q, const double* p, double) { return kinetic(p) + potential(q); };
      h.generalized_forces = [](const double*, const double* p, double, double* forces) {
        for (int i = 0; i < masses; ++i) {
          forces[i] = 0;
          if (i > 0) forces[i] -= damper * (p[i] - p[i - 1]);
          if (i + 1 < masses) forces[i] -= damper * (p[i] - p[i + 1]);
        }
      };
      h.coordinate_rates = [](const double*, const double* p, double, double* q_rate) {
        for (int i = 0; i < masses; ++i) q_rate[i] = p[i];
      };
      return sun::CvodeAudit::hamiltonian(masses, std::move(h));
    }
    sun::DropInEnergies energies{[](const double*, const double* v, double) { return kinetic(v); },
                                 [](const double* q, double) { return potential(q); },
                                 [](const double*, const double* v, double) { return dampers_power(v); }};
    energies.kinetic_energy_is_quadratic = true;
    return sun::CvodeAudit(masses, std::move(energies));
  }();
  if (audit == Audit::lagrange_quadrature || audit == Audit::hamilton_quadrature) made.integrate_flow_as_quadrature();
  if (layout == Layout::interleaved) made.use_layout(sun::DropInLayout::strided(2L * masses, masses, 0, 1, 2));
  return made;
}

struct Run {
  long steps = 0;
  double delta_c = 0;
  bool passed = true;
  std::vector<double> y;
};

/// One run of the program, audited or not.
Run run(Audit audit_kind, Layout layout) {
  sundials::Context context;
  Indices indices{layout};
  sun::NVector y(N_VNew_Serial(2L * masses, context));
  double* data = N_VGetArrayPointer(y.get());
  for (int i = 0; i < masses; ++i) {
    data[indices.x(i)] = 0.01 * std::sin(std::numbers::pi * (i + 1) / (masses + 1));
    data[indices.v(i)] = 0.0;
  }
  sun::CvodeMemory memory(CVodeCreate(CV_ADAMS, context));
  CVodeInit(memory.get(), chain_rhs, 0.0, y.get());
  CVodeSetUserData(memory.get(), &indices);
  CVodeSStolerances(memory.get(), 1e-8, 1e-10);
  CVodeSetMaxNumSteps(memory.get(), 1000000);
  sun::SunNonlinearSolver solver(SUNNonlinSol_FixedPoint(y.get(), 0, context));
  CVodeSetNonlinearSolver(memory.get(), solver.get());
  Run result;
  sunrealtype t = 0;
  if (audit_kind == Audit::none) {
    CVode(memory.get(), t_end, y.get(), &t, CV_NORMAL);
  } else {
    sun::CvodeAudit audit = make_audit(audit_kind, layout);
    audit.CVode(memory.get(), t_end, y.get(), &t, CV_NORMAL);
    result.delta_c = audit.relative_drift();
    result.passed = audit.passed();
  }
  CVodeGetNumSteps(memory.get(), &result.steps);
  result.y.assign(data, data + 2L * masses);
  return result;
}

/// The audited program and the unaudited one of the same layout, alternately in every iteration.
void BM_DropIn(benchmark::State& state, Audit audit, Layout layout) {
  Run last;
  time_ratio(
      state, [&] { last = run(audit, layout); }, [&] { benchmark::DoNotOptimize(run(Audit::none, layout).y.data()); },
      "audited_over_unaudited");
  state.counters["steps"] = static_cast<double>(last.steps);
}

// Not inlined into the benchmark's lambda, so that callgrind can collect it by name.
__attribute__((noinline)) void BM_DropIn_Unaudited(benchmark::State& state, Layout layout) {
  Run last;
  for (auto _ : state) {
    last = run(Audit::none, layout);
    benchmark::DoNotOptimize(last.y.data());
  }
  state.counters["steps"] = static_cast<double>(last.steps);
}
void BM_DropIn_Lagrange(benchmark::State& state, Layout layout) { BM_DropIn(state, Audit::lagrange, layout); }
void BM_DropIn_Hamilton(benchmark::State& state, Layout layout) { BM_DropIn(state, Audit::hamilton, layout); }
void BM_DropIn_LagrangeQuadrature(benchmark::State& state, Layout layout) {
  BM_DropIn(state, Audit::lagrange_quadrature, layout);
}
void BM_DropIn_HamiltonQuadrature(benchmark::State& state, Layout layout) {
  BM_DropIn(state, Audit::hamilton_quadrature, layout);
}

#define EA_LAYOUT_BENCHMARKS(name)                                                                   \
  BENCHMARK_CAPTURE(name, block, Layout::block)->Unit(benchmark::kMillisecond)->Apply(add_min_statistic); \
  BENCHMARK_CAPTURE(name, interleaved, Layout::interleaved)->Unit(benchmark::kMillisecond)->Apply(add_min_statistic)

EA_LAYOUT_BENCHMARKS(BM_DropIn_Unaudited);
EA_LAYOUT_BENCHMARKS(BM_DropIn_Lagrange);
EA_LAYOUT_BENCHMARKS(BM_DropIn_Hamilton);
EA_LAYOUT_BENCHMARKS(BM_DropIn_LagrangeQuadrature);
EA_LAYOUT_BENCHMARKS(BM_DropIn_HamiltonQuadrature);

/// Every audited run takes the unaudited run's steps, ends in its state bit for bit and passes.
bool same_computations() {
  for (const Layout layout : {Layout::block, Layout::interleaved}) {
    const Run plain = run(Audit::none, layout);
    for (const Audit audit :
         {Audit::lagrange, Audit::hamilton, Audit::lagrange_quadrature, Audit::hamilton_quadrature}) {
      const Run audited = run(audit, layout);
      if (audited.steps != plain.steps || audited.y != plain.y || !audited.passed) {
        std::fprintf(stderr, "energy_audit_drop_in_benchmarks: audit %d on layout %d: %ld steps against %ld, %s, %s\n",
                     static_cast<int>(audit), static_cast<int>(layout), audited.steps, plain.steps,
                     audited.y == plain.y ? "the same state" : "another state", audited.passed ? "pass" : "no pass");
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  return energy_audit::benchmarks::run_checked_benchmarks(argc, argv, "energy_audit_drop_in_benchmarks",
                                                          same_computations);
}
