#pragma once
/// \file
/// The ARKODE adapter: integrates a system y = [motion, Z] with ERKStep (an explicit Butcher table
/// chosen by name) or ARKStep fully implicit (a diagonally implicit table, Newton with a dense
/// linear solver), adaptive or at a fixed step, and shows every accepted internal step to the
/// observer (ARKODE is stepped one step at a time up to the stop time t1).
///
/// System: an EnergyFlowSystem (system_concepts.hpp), y = [motion, Z] with Z last (no Z when
/// carries_energy_flow() is false). ARKODE has no quadratures: Z is always carried in the state,
/// where it takes part in the error control of adaptive steps.

#include <arkode/arkode.h>
#include <nvector/nvector_serial.h>

#include <energy_audit/all_finite.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/system_concepts.hpp>
#include <energy_audit/types.hpp>
#include <memory>
#include <type_traits>
#include <utility>

#include "energy_audit/sundials/arkode_options.hpp"
#include "energy_audit/sundials/callback_data.hpp"
#include "energy_audit/sundials/handles.hpp"
#include "energy_audit/sundials/observed_steps.hpp"
#include "energy_audit/sundials/solver_counters.hpp"
#include "energy_audit/sundials/solver_error.hpp"
#include "energy_audit/sundials/solver_pieces.hpp"
#include "energy_audit/sundials/sundials_version.hpp"

namespace energy_audit::sun {

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

/// Creates and configures ERKStep or ARKStep (options.stepper) for `data`'s problem at (y0, t0),
/// up to the stop time t1. Throws InvalidArgument for options it refuses (an unknown table, a
/// table without an embedded method for adaptive steps, tolerances or a step not > 0).
void configure(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, ARKRhsFn rhs,
               CallbackData& data, const ArkodeOptions& options);
/// Starts the configured solver again at (y0, t0), up to the stop time t1 (ERKStepReInit,
/// ARKStepReInit): its options and linear solver stay, the counters start from 0.
void reinitialize(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, ARKRhsFn rhs,
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
/// the counts up to the failure.
template <FirstOrderSystem System, class Observer>
requires StateObserver<std::remove_reference_t<Observer>>
void integrate_arkode(ArkodeResult& result, const System& system, Vector& y, double t0, double t1,
                      Observer&& observer, const ArkodeOptions& options = {},
                      const StopRequest* stop = nullptr) {
  result = ArkodeResult{};
  if (y.size() != system.size()) throw InvalidArgument("state size does not match the system");
  detail::ArkodeProblem<System> problem(system, options.stepper == ArkodeStepper::Dirk);
  // One run of ARKODE per piece between breakpoints, restarted with *ReInit.
  SolverPieces pieces(t0, t1, options.breakpoints);
  detail::ArkodeSolver solver;
  long steps = 0;
  double t = t0;
  const auto start = [&] {
    detail::configure(solver, y, t0, pieces.end(), detail::arkode_rhs<System>, problem, options);
  };
  const auto take_piece_step = [&] {
    if (pieces.finished_piece_at(t)) {  // a breakpoint: start again from the state reached
      pieces.begin_next_piece(detail::read_counters(solver.memory.get(), options));
      detail::reinitialize(solver, y, t, pieces.end(), detail::arkode_rhs<System>, problem, options);
    }
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
    return pieces.counters(solver.memory ? detail::read_counters(solver.memory.get(), options)
                                         : SolverCounters{});
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
