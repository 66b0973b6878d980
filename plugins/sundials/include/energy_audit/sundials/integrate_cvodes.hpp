#pragma once
/// \file
/// The CVODES adapter: integrates a system y = [q, v, Z] with CVODES (BDF or Adams), Z either in
/// the state or as a quadrature, and shows every accepted internal step to the observer (CVODE
/// is stepped one step at a time up to the stop time t1).
///
/// System: an EnergyFlowSystem (system_concepts.hpp), y = [motion, Z] with Z last (no Z when
/// carries_energy_flow() is false).

#include <string>
#include <utility>
#include <vector>

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <energy_audit/error.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/system_concepts.hpp>
#include <energy_audit/types.hpp>

#include "energy_audit/sundials/callback_data.hpp"
#include "energy_audit/sundials/cvode_check.hpp"
#include "energy_audit/sundials/cvodes_options.hpp"
#include "energy_audit/sundials/handles.hpp"
#include "energy_audit/sundials/observed_steps.hpp"
#include "energy_audit/solver_counters.hpp"
#include "energy_audit/sundials/solver_error.hpp"
#include "energy_audit/sundials/solver_pieces.hpp"
#include "energy_audit/sundials/sundials_version.hpp"

namespace energy_audit::sun {

struct CvodesResult {
  SolverCounters counters;
  double t_reached = 0;           ///< time of the last finite state
  RunEnd end = RunEnd::Finished;  ///< Finished, Diverged or Interrupted (failures throw: Error)
  double t_diverged = 0;          ///< with RunEnd::Diverged: the time of the state that left the finite range
};

/// A SUNDIALS failure during integrate_cvodes, with the counters up to it.
using CvodesFailure = SolverFailure;

namespace detail {

template <class System>
struct CvodesProblem : CallbackData {
  const System& system;
  ZMode z_mode;
  explicit CvodesProblem(const System& s, ZMode mode) : system(s), z_mode(mode) {}
};

template <class System>
int cvodes_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  auto& problem = problem_of<CvodesProblem<System>>(user_data);
  return problem.guard.run([&] {
    const Eigen::Map<Vector> rates = view(ydot);
    if constexpr (EnergyFlowSystem<System>) {
      if (problem.z_mode == ZMode::Quadrature) {
        problem.system.motion_rates(view(y), rates, t);
        return all_finite(rates) ? 0 : 1;
      }
    }
    problem.system(view(y), rates, t);
    return all_finite(rates) ? 0 : 1;  // recoverable: CVODE retries with a smaller step
  });
}

template <class System>
int cvodes_energy_flow(sunrealtype t, N_Vector y, N_Vector z_dot, void* user_data) {
  auto& problem = problem_of<CvodesProblem<System>>(user_data);
  return problem.guard.run([&] {
    const double rate = problem.system.energy_flow_rate(view(y), t);
    NV_Ith_S(z_dot, 0) = rate;
    return std::isfinite(rate) ? 0 : 1;
  });
}

SolverCounters read_counters(void* cvode_memory, const CvodesOptions& options, bool quadrature);

/// Creates and configures CVODES for `problem` (everything but the right-hand side types).
struct CvodesSolver {
  sundials::Context context;
  SolverMessages messages;  // released after the solver, before its context
  NVector y;
  NVector z;
  SunMatrix jacobian;
  SunLinearSolver linear_solver;
  SunNonlinearSolver nonlinear_solver;
  CvodeMemory memory;  // declared last: freed first
};
/// energy_flow: the quadrature right-hand side for Z, or nullptr when Z is not a quadrature.
void configure(CvodesSolver& solver, const ConstVectorRef& y0, double t0, double t1, CVRhsFn rhs,
               CVQuadRhsFn energy_flow, CallbackData& data, const CvodesOptions& options);
/// Starts the configured solver again at (y0, t0), up to the stop time t1 (CVodeReInit): its
/// options and linear solver stay, the quadrature starts again from 0, the counters from 0.
void reinitialize(CvodesSolver& solver, const ConstVectorRef& y0, double t0, double t1, CallbackData& data);
[[noreturn]] void fail(CvodesSolver& solver, int flag, const char* function, const CallbackData& data,
                       const CvodesOptions& options);

}  // namespace detail

/// Integrates y from t0 to t1; y holds the state at t1 afterwards. An EnergyFlowSystem may carry
/// Z as a quadrature (options.z_mode); any other first-order system (a kinematic system, say) is
/// integrated as it is. The observer sees (y, t) at
/// t0 and after every accepted internal step, Z included in both modes, and is told the
/// interval and how the run ended (run_observer.hpp). At options.breakpoints CVODES stops and
/// starts again from the state reached (one run for the observer). Stops at the first step boundary after
/// `stop` is requested (RunEnd::Interrupted), and after the first state at which the observer saw
/// the run leave the finite range (RunEnd::Diverged; the audit: C not finite). Throws
/// CvodesFailure on a SUNDIALS failure, InvalidArgument for an interval that
/// adaptive_interval_problem refuses, and rethrows an exception from the system after CVODES has
/// returned (both failures end as RunEnd::Error); `result` then keeps the counts up to the failure.
template <FirstOrderSystem System, class Observer>
  requires StateObserver<std::remove_reference_t<Observer>>
void integrate_cvodes(CvodesResult& result, const System& system, Vector& y, double t0, double t1,
                      Observer&& observer, const CvodesOptions& options = {}, const StopRequest* stop = nullptr) {
  result = CvodesResult{};
  if (y.size() != system.size()) throw InvalidArgument("state size does not match the system");
  bool quadrature = false;
  if constexpr (EnergyFlowSystem<System>) quadrature = system.carries_energy_flow() && options.z_mode == ZMode::Quadrature;
  detail::CvodesProblem<System> problem(system, quadrature ? ZMode::Quadrature : ZMode::State);
  // One run of CVODES per piece between breakpoints, restarted with CVodeReInit.
  SolverPieces pieces(t0, t1, options.breakpoints);
  detail::CvodesSolver solver;
  const Index motion_size = y.size() - 1;
  double z_at_piece_start = 0;  // Z where the current piece began (the quadrature starts at 0)
  long steps = 0;
  double t = t0;
  const auto motion = [&] { return quadrature ? ConstVectorRef(y.head(motion_size)) : ConstVectorRef(y); };
  const auto start = [&] {
    CVQuadRhsFn energy_flow = nullptr;
    if constexpr (EnergyFlowSystem<System>) energy_flow = quadrature ? detail::cvodes_energy_flow<System> : nullptr;
    detail::configure(solver, motion(), t0, pieces.end(), detail::cvodes_rhs<System>, energy_flow, problem, options);
  };
  const auto take_piece_step = [&] {
    if (pieces.finished_piece_at(t)) {  // a breakpoint: start again from the state reached
      pieces.begin_next_piece(detail::read_counters(solver.memory.get(), options, solver.z != nullptr));
      if (quadrature) z_at_piece_start = y[motion_size];
      detail::reinitialize(solver, motion(), t, pieces.end(), problem);
    }
    if (steps >= options.max_steps) detail::fail(solver, CV_TOO_MUCH_WORK, "CVode", problem, options);
    const int flag = CVode(solver.memory.get(), pieces.end(), solver.y.get(), &t, CV_ONE_STEP);
    problem.guard.rethrow_if_failed();
    if (flag < 0) detail::fail(solver, flag, "CVode", problem, options);
    ++steps;
    if (quadrature) {
      y.head(motion_size) = detail::view(solver.y.get());
      double t_quadrature = t;
      const int quad_flag = CVodeGetQuad(solver.memory.get(), &t_quadrature, solver.z.get());
      if (quad_flag < 0) detail::fail(solver, quad_flag, "CVodeGetQuad", problem, options);
      y[motion_size] = z_at_piece_start + NV_Ith_S(solver.z.get(), 0);
    } else {
      y = detail::view(solver.y.get());
    }
  };
  const auto take_step = [&] { pieces.counting_every_piece(take_piece_step); };
  const auto count = [&] {
    return pieces.counters(solver.memory ? detail::read_counters(solver.memory.get(), options, solver.z != nullptr)
                                         : SolverCounters{});
  };
  detail::observe_steps_counted(result, count, observer, y, t0, t1, t, stop, start, take_step);
}

/// integrate_cvodes(result, ...) returning the result.
template <FirstOrderSystem System, class Observer>
  requires StateObserver<std::remove_reference_t<Observer>>
CvodesResult integrate_cvodes(const System& system, Vector& y, double t0, double t1, Observer&& observer,
                              const CvodesOptions& options = {}, const StopRequest* stop = nullptr) {
  CvodesResult result;
  integrate_cvodes(result, system, y, t0, t1, std::forward<Observer>(observer), options, stop);
  return result;
}

}  // namespace energy_audit::sun
