#pragma once
/// \file
/// The ARKODE adapter: integrates a system y = [motion, Z] with ERKStep (an explicit Butcher table
/// chosen by name) or ARKStep fully implicit (a diagonally implicit table chosen by name, Newton
/// with a dense linear solver), adaptive or at a fixed step, and shows every accepted internal step to the
/// observer (ARKODE is stepped one step at a time up to the stop time t1).
///
/// System: an EnergyFlowSystem (system_concepts.hpp), y = [motion, Z] with Z last (no Z when
/// carries_energy_flow() is false). ARKODE has no quadratures: Z is always carried in the state,
/// where it takes part in the error control of adaptive steps.
///
/// Relaxation (ArkodeOptions::relax, SUNDIALS >= 6.6) gives ARKODE the system's energy H(y) as
/// the function ξ it relaxes the steps with: an EnergyGradientSystem (a scleronomic model's
/// Lagrange, Hamilton or multiplier form). It makes H change over each step by what the step's
/// stages estimate from the same right-hand side, so it conserves H for any right-hand side that
/// conserves it, right or wrong: the audit's equation check and Z from the independent powers are
/// what can still find a wrong one (docs/mathematics.md, relaxation).
///
/// SPRKStep (ArkodeStepper::Sprk, SUNDIALS 7, a fixed step) integrates a separable model's
/// Lagrange or Hamilton form (SeparableSystem, separable_model.hpp) as a composition of drifts and
/// kicks: SPRKStep's f1 is the kick [0, w', 0], at the time the last drift reached, and its f2 the
/// drift [q', 0, mean Ż], with q' = v from w alone and the mean of Ż over the straight path the
/// drift takes from that time on, by Gauss–Legendre quadrature of ⌈order/2⌉ nodes. Time and Z
/// thus move with the drift, whose flow is found exactly (to the quadrature's O(h^(order+1))),
/// so that C = H + Z is integrated to the method's order along its own trajectory
/// (docs/mathematics.md, symplectic methods).

#include <arkode/arkode.h>
#include <nvector/nvector_serial.h>

#include <energy_audit/all_finite.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/gauss_legendre.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/separable_model.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/system_concepts.hpp>
#include <energy_audit/types.hpp>
#include <cmath>
#include <memory>
#include <type_traits>
#include <utility>

#include "energy_audit/sundials/arkode_options.hpp"
#include "energy_audit/sundials/callback_data.hpp"
#include "energy_audit/sundials/handles.hpp"
#include "energy_audit/sundials/observed_steps.hpp"
#include "energy_audit/solver_counters.hpp"
#include "energy_audit/sundials/solver_error.hpp"
#include "energy_audit/sundials/solver_pieces.hpp"
#include "energy_audit/sundials/sundials_version.hpp"

/// Whether the SUNDIALS found has ARKODE's relaxation (from 6.6).
#define EA_ARKODE_HAS_RELAXATION \
  (SUNDIALS_VERSION_MAJOR > 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR >= 6))

namespace energy_audit::sun {

/// Whether ArkodeOptions::relax is available with the SUNDIALS found.
inline constexpr bool arkode_has_relaxation = EA_ARKODE_HAS_RELAXATION;

/// Why relaxation cannot be had (the SUNDIALS found and the 6.6 it needs); empty where it can.
const char* arkode_relaxation_problem();

struct ArkodeResult {
  SolverCounters counters;
  double t_reached = 0;           ///< time of the last finite state
  RunEnd end = RunEnd::Finished;  ///< Finished, Diverged or Interrupted (failures throw: Error)
  double t_diverged = 0;          ///< with RunEnd::Diverged: the time of the state that left the finite range
};

/// A SUNDIALS failure during integrate_arkode, with the counters up to it.
using ArkodeFailure = SolverFailure;

namespace detail {

template <class System>
struct ArkodeProblem : CallbackData {
  const System& system;
  bool implicit;
  Vector gradient;  ///< where the relaxation's energy callback puts the gradient it does not need
  /// SPRKStep: the time the last drift reached (the kicks' time), the Gauss–Legendre rule of the
  /// drifts' mean Ż, a state on a drift's path, and the evaluations of Ż the drifts made
  /// (counted as quadrature right-hand sides).
  double drift_time = 0;
  QuadratureRule energy_flow_rule{};
  Vector drift_state{};
  long energy_flow_evaluations = 0;
  ArkodeProblem(const System& s, bool implicit_stepper) : system(s), implicit(implicit_stepper) {}
};

/// The right-hand side, for ERKStep's f and ARKStep's implicit part alike. Rates that are not
/// finite are a recoverable failure for the implicit stepper (Newton retries with a smaller
/// step); the explicit stepper takes them, so that its step leaves the finite range and the
/// observer sees the run diverge, as with the fixed-step methods.
template <class System>
int arkode_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  auto& problem = problem_of<ArkodeProblem<System>>(user_data);
  return problem.guard.run([&] {
    const Eigen::Map<Vector> rates = view(ydot);
    problem.system(view(y), rates, t);
    return problem.implicit && !all_finite(rates) ? 1 : 0;
  });
}

/// SPRKStep's f1 for a separable system: the kick [0, w'(q, t), 0] at the time the last drift
/// reached (SPRKStep's own t is that of the momenta, not of q).
template <SeparableSystem System>
int arkode_kick(sunrealtype, N_Vector y_vector, N_Vector ydot, void* user_data) {
  auto& problem = problem_of<ArkodeProblem<System>>(user_data);
  return problem.guard.run([&] {
    const System& system = problem.system;
    const Eigen::Map<Vector> y = view(y_vector);
    Eigen::Map<Vector> rates = view(ydot);
    const int n = system.dofs(), half = system.second_half_size();
    rates.setZero();  // the drift carries Z: the kick computes no Ż
    rates_of_w_alone(system, y.head(n), y.segment(n, half), problem.drift_time, rates.segment(n, half));
    return 0;
  });
}

/// SPRKStep's f2 for a separable system: the drift [q'(w), 0, mean Ż] from the time the last
/// drift reached to t, the mean of Ż along the straight path q + s q' by the problem's
/// Gauss–Legendre rule.
template <SeparableSystem System>
int arkode_drift(sunrealtype t, N_Vector y_vector, N_Vector ydot, void* user_data) {
  auto& problem = problem_of<ArkodeProblem<System>>(user_data);
  return problem.guard.run([&] {
    const System& system = problem.system;
    const Eigen::Map<Vector> y = view(y_vector);
    Eigen::Map<Vector> rates = view(ydot);
    const int n = system.dofs(), half = system.second_half_size();
    const double start = problem.drift_time, length = t - start;
    rates.setZero();
    system.rates_of_q(y.head(n), y.segment(n, half), start, rates.head(n));
    if (system.carries_energy_flow()) {
      Vector& on_path = problem.drift_state;
      on_path = y;
      double mean = 0;
      for (std::size_t k = 0; k < problem.energy_flow_rule.nodes.size(); ++k) {
        const double s = problem.energy_flow_rule.nodes[k] * length;
        on_path.head(n) = y.head(n) + s * rates.head(n);
        mean += problem.energy_flow_rule.weights[k] * system.energy_flow_rate(on_path, start + s);
      }
      problem.energy_flow_evaluations += static_cast<long>(problem.energy_flow_rule.nodes.size());
      rates[n + half] = mean;
    }
    problem.drift_time = t;
    return 0;
  });
}

#if EA_ARKODE_HAS_RELAXATION
/// ξ = H(y) for ARKODE's relaxation; a value that is not finite is a recoverable failure (ARKODE
/// retries the step smaller).
template <class System>
int arkode_relaxation_energy(N_Vector y, sunrealtype* energy, void* user_data) {
  auto& problem = problem_of<ArkodeProblem<System>>(user_data);
  return problem.guard.run([&] {
    problem.gradient.resize(NV_LENGTH_S(y));
    *energy = problem.system.energy_and_gradient(view(y), problem.gradient);
    return std::isfinite(*energy) ? 0 : 1;
  });
}

/// ∇ξ = ∂H/∂y for ARKODE's relaxation.
template <class System>
int arkode_relaxation_gradient(N_Vector y, N_Vector gradient, void* user_data) {
  auto& problem = problem_of<ArkodeProblem<System>>(user_data);
  return problem.guard.run([&] {
    const Eigen::Map<Vector> into = view(gradient);
    problem.system.energy_and_gradient(view(y), into);
    return all_finite(into) ? 0 : 1;
  });
}
#endif

/// ARKODE's relaxation functions for a system, null when the run does not relax (on SUNDIALS
/// below 6.6 there are none).
struct RelaxationFunctions {
#if EA_ARKODE_HAS_RELAXATION
  ARKRelaxFn energy = nullptr;
  ARKRelaxJacFn gradient = nullptr;
#endif
  /// |H(y0)|: the relaxation's residual H(y_n + γ d) − H(y_n) − γ e is solved to round-off of it.
  /// ARKODE's default tolerance on that residual is absolute (10 ε), below the round-off of an
  /// energy of more than a few joules: its solve then fails on the short first steps.
  double energy_scale = 0;
};

/// The relaxation functions of `System` at y0 when options.relax; throws InvalidArgument when
/// SUNDIALS is older than 6.6 or the system has no energy gradient.
template <class System>
RelaxationFunctions relaxation_functions([[maybe_unused]] const System& system,
                                         [[maybe_unused]] const ConstVectorRef& y0, const ArkodeOptions& options) {
  if (!options.relax) return {};
  if constexpr (!arkode_has_relaxation) {
    throw InvalidArgument(arkode_relaxation_problem());
  } else if constexpr (!EnergyGradientSystem<System>) {
    throw InvalidArgument(
        "relaxation needs H(y) without t: a scleronomic model's lagrange, hamilton or multipliers form");
  } else {
#if EA_ARKODE_HAS_RELAXATION
    Vector gradient(y0.size());
    const double energy = system.energy_and_gradient(y0, gradient);
    return {arkode_relaxation_energy<System>, arkode_relaxation_gradient<System>, std::abs(energy)};
#endif
  }
}

/// Frees an ERKStep or an ARKStep integrator (on SUNDIALS 6 each stepper has its own *Free).
struct ArkodeMemoryDeleter {
  ArkodeStepper stepper = ArkodeStepper::Erk;
  void operator()(void* memory) const;
};
using ArkodeMemory = std::unique_ptr<void, ArkodeMemoryDeleter>;

struct ArkodeSolver {
  sundials::Context context;
  SolverMessages messages;  // released after the solver, before its context
  NVector y;
  SunMatrix jacobian;
  SunLinearSolver linear_solver;
  ArkodeMemory memory;  // declared last: freed first
};

/// The right-hand side ARKODE takes: `f` for ERKStep and ARKStep, the kick (f1) and the drift
/// (f2) for SPRKStep.
struct ArkodeRhs {
  ARKRhsFn f = nullptr;
  ARKRhsFn kick = nullptr;
  ARKRhsFn drift = nullptr;
};

/// The right-hand side of `System` for options.stepper; throws InvalidArgument for SPRKStep and
/// a system that is not a separable model's Lagrange or Hamilton form (or one whose declaration
/// its T or f contradict: check_separable).
template <class System>
ArkodeRhs arkode_rhs_of(const System& system, const ArkodeOptions& options) {
  if (options.stepper != ArkodeStepper::Sprk) return {arkode_rhs<System>, nullptr, nullptr};
  if (!arkode_has_sprk) throw InvalidArgument(arkode_sprk_problem());
  if constexpr (SeparableSystem<System>) {
    check_separable(system.model());
    return {nullptr, arkode_kick<System>, arkode_drift<System>};
  } else {
    (void)system;
    throw InvalidArgument(
        "SPRKStep needs a separable model (T of the velocities alone with a constant mass matrix, forces "
        "free of the velocities, declared separable) in Lagrange's or Hamilton's form");
  }
}

/// Creates and configures ERKStep, ARKStep or SPRKStep (options.stepper) for `data`'s problem at
/// (y0, t0), up to the stop time t1, relaxed with `relaxation` when options.relax. Throws
/// InvalidArgument for options it refuses (an unknown table, a table without an embedded method
/// for adaptive steps, with relaxation a table of order 1 or with a negative weight, tolerances or
/// a step not > 0, SPRKStep without a fixed step, below SUNDIALS 7 or relaxed).
void configure(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, const ArkodeRhs& rhs,
               CallbackData& data, const ArkodeOptions& options, const RelaxationFunctions& relaxation = {});
/// Starts the configured solver again at (y0, t0), up to the stop time t1 (ERKStepReInit,
/// ARKStepReInit, SPRKStepReInit): its options and linear solver stay, the counters start from 0.
void reinitialize(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, const ArkodeRhs& rhs,
                  CallbackData& data, const ArkodeOptions& options);
/// One accepted internal step towards the stop time tout (ARK_ONE_STEP); the new state is in
/// solver.y, its time in t. Returns ARKODE's flag; throws SolverError if the step cannot be set.
int take_one_step(ArkodeSolver& solver, double tout, double& t, const CallbackData& data,
                  const ArkodeOptions& options);
/// The name of the evolve function take_one_step calls ("ERKStepEvolve", "ARKodeEvolve", ...).
const char* evolve_name(const ArkodeOptions& options);
SolverCounters read_counters(void* arkode_memory, const ArkodeOptions& options);
/// Throws ArkodeFailure for `flag`, with SUNDIALS' last message and the counters.
[[noreturn]] void fail(ArkodeSolver& solver, int flag, const char* function, const CallbackData& data,
                       const ArkodeOptions& options);
/// ARKODE's flag for a run that used up options.max_steps.
int too_much_work_flag();

}  // namespace detail

/// Integrates y from t0 to t1 with ARKODE; y holds the state at t1 afterwards. Any first-order
/// system is integrated as it is (Z, when it carries one, in the state). The observer sees (y, t)
/// at t0 and after every accepted internal step, and is told the interval and how the run ended
/// (run_observer.hpp). At options.breakpoints ARKODE stops and starts again from the state
/// reached (one run for the observer). Stops at the first step boundary after `stop` is requested
/// (RunEnd::Interrupted), and after the first state at which the observer saw the run leave the
/// finite range (RunEnd::Diverged; the audit: C not finite). Throws ArkodeFailure on a SUNDIALS
/// failure, InvalidArgument for options or an interval it refuses, and rethrows an exception from
/// the system after ARKODE has returned (both failures end as RunEnd::Error); `result` then keeps
/// the counts up to the failure. With options.relax the system must be an EnergyGradientSystem
/// and SUNDIALS at least 6.6 (InvalidArgument otherwise, before ARKODE starts). SPRKStep
/// (ArkodeStepper::Sprk) needs a SeparableSystem, a fixed step and SUNDIALS 7.
template <FirstOrderSystem System, class Observer>
requires StateObserver<std::remove_reference_t<Observer>>
void integrate_arkode(ArkodeResult& result, const System& system, Vector& y, double t0, double t1,
                      Observer&& observer, const ArkodeOptions& options = {},
                      const StopRequest* stop = nullptr) {
  result = ArkodeResult{};
  if (y.size() != system.size()) throw InvalidArgument("state size does not match the system");
  detail::ArkodeProblem<System> problem(system, options.stepper == ArkodeStepper::Dirk);
  const detail::RelaxationFunctions relaxation = detail::relaxation_functions(system, y, options);
  const detail::ArkodeRhs rhs = detail::arkode_rhs_of(system, options);
  if (options.stepper == ArkodeStepper::Sprk) {  // ⌈order/2⌉ nodes: the drifts' Z to the method's order
    const ArkodeTable* table = chosen_table(TableKind::Symplectic, options.table, false);
    problem.energy_flow_rule = gauss_legendre(table ? (table->order + 1) / 2 : 1);  // unknown: configure refuses it
  }
  // One run of ARKODE per piece between breakpoints, restarted with *ReInit.
  SolverPieces pieces(t0, t1, options.breakpoints);
  detail::ArkodeSolver solver;
  long steps = 0;
  double t = t0;
  const auto start = [&] {
    detail::configure(solver, y, t0, pieces.end(), rhs, problem, options, relaxation);
  };
  const auto take_piece_step = [&] {
    if (pieces.finished_piece_at(t)) {  // a breakpoint: start again from the state reached
      pieces.begin_next_piece(detail::read_counters(solver.memory.get(), options));
      detail::reinitialize(solver, y, t, pieces.end(), rhs, problem, options);
    }
    problem.drift_time = t;  // SPRKStep: the step's first kick is at the time of its state
    if (steps >= options.max_steps) {
      detail::fail(solver, detail::too_much_work_flag(), detail::evolve_name(options), problem, options);
    }
    const int flag = detail::take_one_step(solver, pieces.end(), t, problem, options);
    problem.guard.rethrow_if_failed();
    if (flag < 0) detail::fail(solver, flag, detail::evolve_name(options), problem, options);
    ++steps;
    y = detail::view(solver.y.get());
  };
  const auto take_step = [&] { pieces.counting_every_piece(take_piece_step); };
  const auto count = [&] {
    SolverCounters counters = pieces.counters(solver.memory ? detail::read_counters(solver.memory.get(), options)
                                                            : SolverCounters{});
    counters.quadrature_rhs_evaluations += problem.energy_flow_evaluations;  // SPRKStep's drifts
    return counters;
  };
  detail::observe_steps_counted(result, count, observer, y, t0, t1, t, stop, start, take_step);
}

/// integrate_arkode(result, ...) returning the result.
template <FirstOrderSystem System, class Observer>
requires StateObserver<std::remove_reference_t<Observer>> ArkodeResult
integrate_arkode(const System& system, Vector& y, double t0, double t1, Observer&& observer,
                 const ArkodeOptions& options = {}, const StopRequest* stop = nullptr) {
  ArkodeResult result;
  integrate_arkode(result, system, y, t0, t1, std::forward<Observer>(observer), options, stop);
  return result;
}

}  // namespace energy_audit::sun
