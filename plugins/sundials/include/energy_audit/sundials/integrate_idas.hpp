#pragma once
/// \file
/// The IDAS adapter: integrates a multiplier system in residual form over
/// Y = [q, v, λ, (μ for GGL), (Z)], and shows every accepted internal step to the observer as
/// y = [q, v, Z] (IDAS is stepped one step at a time up to the stop time t1).
///
/// System: a ResidualSystem (system_concepts.hpp), such as MultiplierSystem.
///
/// Consistent initial values: for the index-1 form IDACalcIC computes λ(t0) and Y'(t0) from
/// q(t0), v(t0); for GGL, where IDACalcIC cannot (Φ and ψ involve no unknown of it), they come
/// from the index-1 saddle-point solve, after checking that Φ and ψ vanish at t0.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <idas/idas.h>

#include <energy_audit/error.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/system_concepts.hpp>
#include <energy_audit/types.hpp>

#include "energy_audit/sundials/adaptive_interval.hpp"
#include "energy_audit/sundials/callback_data.hpp"
#include "energy_audit/sundials/handles.hpp"
#include "energy_audit/sundials/idas_options.hpp"
#include "energy_audit/sundials/observed_steps.hpp"
#include "energy_audit/solver_counters.hpp"
#include "energy_audit/sundials/solver_error.hpp"
#include "energy_audit/sundials/solver_pieces.hpp"
#include "energy_audit/sundials/sundials_version.hpp"

namespace energy_audit::sun {

struct IdasResult {
  SolverCounters counters;  ///< rhs_evaluations count residual evaluations
  double t_reached = 0;           ///< time of the last finite state
  RunEnd end = RunEnd::Finished;  ///< Finished, Diverged or Interrupted (failures throw: Error)
  double t_diverged = 0;          ///< with RunEnd::Diverged: the time of the state that left the finite range
};

/// A SUNDIALS failure during integrate_idas, with the counters up to it.
using IdasFailure = SolverFailure;

/// The name of an IDA(S) return flag ("IDA_CONV_FAIL").
std::string idas_flag_name(int flag);

namespace detail {

/// The layout of Y and the residual, independent of the system's type.
struct DaeLayout {
  Index n = 0, m = 0;
  bool ggl = false;
  bool z_in_state = true;
  Index explicit_motion = -1;  ///< ≥ 0: an explicit system Y = [motion (this many), (Z)], no λ
  Index lambda() const { return 2 * n; }
  Index mu() const { return 2 * n + m; }
  Index z() const { return explicit_motion >= 0 ? explicit_motion : 2 * n + m * (ggl ? 2 : 1); }
  Index size() const { return z() + (z_in_state ? 1 : 0); }
};

/// Writes the residual F(t, Y, Y') from the terms at (q, v, t).
void dae_residual(const DaeLayout& layout, const DaeTerms& terms, const std::optional<Baumgarte>& baumgarte,
                  const ConstVectorRef& Y, const ConstVectorRef& Yp, Eigen::Ref<Vector> F);
/// Ż = DaeTerms::energy_flow_rate − vᵀGᵀλ.
double dae_energy_flow(const DaeLayout& layout, const DaeTerms& terms, const ConstVectorRef& Y);

struct IdasCallbackData : CallbackData {
  DaeLayout layout;
  std::optional<Baumgarte> baumgarte;
};

template <class System>
struct IdasProblem : IdasCallbackData {
  const System& system;
  explicit IdasProblem(const System& s) : system(s) {}
};

template <class System>
int idas_residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
  auto& p = problem_of<IdasProblem<System>>(user_data);
  return p.guard.run([&] {
    const Eigen::Map<Vector> Y = view(yy), F = view(rr);
    const DaeTerms terms = p.system.dae_terms(Y.head(p.layout.n), Y.segment(p.layout.n, p.layout.n), t);
    dae_residual(p.layout, terms, p.baumgarte, Y, view(yp), F);
    return all_finite(F) ? 0 : 1;  // recoverable: IDAS retries with a smaller step
  });
}

template <class System>
int idas_energy_flow(sunrealtype t, N_Vector yy, N_Vector, N_Vector z_dot, void* user_data) {
  auto& p = problem_of<IdasProblem<System>>(user_data);
  return p.guard.run([&] {
    const Eigen::Map<Vector> Y = view(yy);
    const DaeTerms terms = p.system.dae_terms(Y.head(p.layout.n), Y.segment(p.layout.n, p.layout.n), t);
    const double rate = dae_energy_flow(p.layout, terms, Y);
    NV_Ith_S(z_dot, 0) = rate;
    return std::isfinite(rate) ? 0 : 1;
  });
}

struct IdasSolver {
  sundials::Context context;
  SolverMessages messages;  // released after the solver, before its context
  NVector Y, Yp, id, z;
  SunMatrix jacobian;
  SunLinearSolver linear_solver;
  IdaMemory memory;  // declared last: freed first
};

/// Y(t0), Y'(t0) for the GGL form from the saddle-point solve; throws for inconsistent values.
void ggl_initial_values(const DaeLayout& layout, const DaeTerms& terms, const ConstVectorRef& y0, double t0,
                        Eigen::Ref<Vector> Y, Eigen::Ref<Vector> Yp);
/// energy_flow: the quadrature right-hand side for Z, or nullptr when Z is not a quadrature.
void configure(IdasSolver& solver, const DaeLayout& layout, const Vector& Y0, const Vector& Yp0, double t0,
               double t1, IDAResFn residual, IDAQuadRhsFn energy_flow, IdasCallbackData& data,
               const IdasOptions& options);
/// Starts the configured solver again at (Y0, Y0', t0), up to the stop time t1 (IDAReInit): its
/// options and linear solver stay, the quadrature starts again from 0, the counters from 0.
void reinitialize(IdasSolver& solver, const Vector& Y0, const Vector& Yp0, double t0, double t1,
                  IdasCallbackData& data);
SolverCounters read_idas_counters(void* memory, bool quadrature);
[[noreturn]] void fail_idas(IdasSolver& solver, int flag, const char* function, const IdasCallbackData& data,
                            const IdasOptions& options);
/// One internal IDAS step towards t1 (IDA_ONE_STEP), counted against options.max_steps; t is
/// where it ended. Rethrows a callback's exception; throws IdasFailure on a SUNDIALS failure.
void idas_one_step(IdasSolver& solver, IdasCallbackData& data, const IdasOptions& options, double t1, double& t,
                   long& steps);
/// Z at t from IDAS' quadrature (the state's last entry when Z is carried apart).
double idas_quadrature_z(IdasSolver& solver, const IdasCallbackData& data, const IdasOptions& options, double t);

}  // namespace detail

/// Integrates y = [q, v, Z] of a multiplier system (y = [q, v] when it does not carry Z) from
/// t0 to t1; y holds the state at t1 afterwards. The observer sees (y, t) at t0 and after
/// every accepted internal step, and is told the interval and how the run ended
/// (run_observer.hpp). At options.breakpoints IDAS stops and starts again from the state reached
/// (one run for the observer). Stops at the first step boundary after `stop` is requested
/// (RunEnd::Interrupted), and after the first state at which the observer saw the run leave the
/// finite range (RunEnd::Diverged; the audit: C not finite). Throws IdasFailure on a SUNDIALS
/// failure, InvalidArgument for GGL on kinematic constraints, inconsistent initial values or an
/// interval that adaptive_interval_problem refuses, and rethrows the system's exceptions after
/// IDAS has returned; `result` then keeps the counts up to the failure.
template <ResidualSystem System, class Observer>
  requires StateObserver<std::remove_reference_t<Observer>>
void integrate_idas(IdasResult& result, const System& system, Vector& y, double t0, double t1, Observer&& observer,
                    const IdasOptions& options = {}, const StopRequest* stop = nullptr) {
  result = IdasResult{};
  if (y.size() != system.size()) throw InvalidArgument("state size does not match the system");
  if (options.form == DaeForm::Ggl && !system.holonomic()) {
    throw InvalidArgument("the GGL form needs holonomic constraints Phi(q, t)");
  }
  if (options.form == DaeForm::Ggl && options.baumgarte) {
    throw InvalidArgument("Baumgarte stabilization applies to the index-1 form, not to GGL");
  }
  detail::IdasProblem<System> problem(system);
  detail::DaeLayout& layout = problem.layout;
  layout.n = system.dofs();
  layout.m = system.constraint_count();
  layout.ggl = options.form == DaeForm::Ggl;
  const bool carries_z = system.carries_energy_flow();
  const bool z_as_quadrature = carries_z && options.z_mode == ZMode::Quadrature;
  layout.z_in_state = carries_z && options.z_mode == ZMode::State;
  problem.baumgarte = options.baumgarte;
  const Index n = layout.n;

  // One run of IDAS per piece between breakpoints, restarted with IDAReInit.
  SolverPieces pieces(t0, t1, options.breakpoints);
  detail::IdasSolver solver;
  double z_at_piece_start = 0;  // Z where the current piece began (the quadrature starts at 0)
  long steps = 0;
  double t = t0;
  // Sets IDAS up at (y, t_start) for the current piece: q, v and Z from y, the derivatives and λ
  // consistent with them (GGL: the saddle-point solve; index 1: IDACalcIC).
  const auto start_piece = [&](double t_start) {
    Vector Y = Vector::Zero(layout.size()), Yp = Vector::Zero(layout.size());
    Y.head(2 * n) = y.head(2 * n);
    Yp.head(n) = y.segment(n, n);
    if (layout.z_in_state) Y[layout.z()] = y[2 * n];
    if (layout.ggl) {
      detail::ggl_initial_values(layout, system.dae_terms(y.head(n), y.segment(n, n), t_start), y, t_start, Y, Yp);
    }
    const double t_end = pieces.end();
    if (solver.memory) {
      detail::reinitialize(solver, Y, Yp, t_start, t_end, problem);
    } else {
      detail::configure(solver, layout, Y, Yp, t_start, t_end, detail::idas_residual<System>,
                        z_as_quadrature ? detail::idas_energy_flow<System> : nullptr, problem, options);
    }
    if (layout.ggl) return;
    // IDACalcIC reads tout1 only for the direction and scale of t: its Newton iteration takes a
    // step of up to 1e-3 (tout1 - t_start), so tout1 must not grow with the run (t1 = 2e4 or 1e7
    // makes that step far too long to converge). tout1 is where the first step ends:
    // t_start + initial_step when given, else t_start + 1 (one second, the time scale of the
    // mechanical models audited here); the piece's end when that is sooner or when t_start is
    // too large for such a step to move t.
    double tout1 = std::min(t_end, t_start + (options.initial_step > 0 ? options.initial_step : 1.0));
    if (!adaptive_interval_problem(t_start, tout1).empty()) tout1 = t_end;
    const int flag = IDACalcIC(solver.memory.get(), IDA_YA_YDP_INIT, tout1);
    problem.guard.rethrow_if_failed();
    if (flag < 0) detail::fail_idas(solver, flag, "IDACalcIC", problem, options);
  };
  const auto start = [&] { start_piece(t0); };
  const auto take_piece_step = [&] {
    if (pieces.finished_piece_at(t)) {  // a breakpoint: start again from the state reached
      pieces.begin_next_piece(detail::read_idas_counters(solver.memory.get(), solver.z != nullptr));
      if (z_as_quadrature) z_at_piece_start = y[2 * n];
      start_piece(t);
    }
    detail::idas_one_step(solver, problem, options, pieces.end(), t, steps);
    const Eigen::Map<Vector> Y_now = detail::view(solver.Y.get());
    y.head(2 * n) = Y_now.head(2 * n);
    if (layout.z_in_state) {
      y[2 * n] = Y_now[layout.z()];
    } else if (z_as_quadrature) {
      y[2 * n] = z_at_piece_start + detail::idas_quadrature_z(solver, problem, options, t);
    }
  };
  const auto take_step = [&] { pieces.counting_every_piece(take_piece_step); };
  const auto count = [&] {
    return pieces.counters(solver.memory ? detail::read_idas_counters(solver.memory.get(), solver.z != nullptr)
                                         : SolverCounters{});
  };
  detail::observe_steps_counted(result, count, observer, y, t0, t1, t, stop, start, take_step);
}

/// integrate_idas(result, ...) returning the result.
template <ResidualSystem System, class Observer>
  requires StateObserver<std::remove_reference_t<Observer>>
IdasResult integrate_idas(const System& system, Vector& y, double t0, double t1, Observer&& observer,
                          const IdasOptions& options = {}, const StopRequest* stop = nullptr) {
  IdasResult result;
  integrate_idas(result, system, y, t0, t1, std::forward<Observer>(observer), options, stop);
  return result;
}

}  // namespace energy_audit::sun
