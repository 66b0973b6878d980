#pragma once
/// \file
/// A first-order system y' = F(t, y) on IDAS, as the residual Y' − F(t, Y) = 0 over the same
/// y (all of it differential): Lagrange's, Hamilton's and Maggi's forms run on IDAS this way,
/// with Z in the state or as an IDAS quadrature, like the multiplier systems' residual form
/// (integrate_idas.hpp).

#include <algorithm>

#include "energy_audit/sundials/integrate_idas.hpp"

namespace energy_audit::sun {
namespace detail {

template <class System>
int explicit_residual(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
  auto& p = problem_of<IdasProblem<System>>(user_data);
  return p.guard.run([&] {
    const Eigen::Map<Vector> Y = view(yy), Yp = view(yp);
    Eigen::Map<Vector> F = view(rr);
    if (p.layout.z_in_state) {
      p.system(Y, F, t);
    } else {
      p.system.motion_rates(Y, F, t);  // Y holds the motion alone: Z is a quadrature
    }
    F = Yp - F;
    return all_finite(F) ? 0 : 1;  // recoverable: IDAS retries with a smaller step
  });
}

template <class System>
int explicit_energy_flow(sunrealtype t, N_Vector yy, N_Vector, N_Vector z_dot, void* user_data) {
  auto& p = problem_of<IdasProblem<System>>(user_data);
  return p.guard.run([&] {
    const double rate = p.system.energy_flow_rate(view(yy), t);
    NV_Ith_S(z_dot, 0) = rate;
    return std::isfinite(rate) ? 0 : 1;
  });
}

}  // namespace detail

/// Integrates a first-order system y = [motion, Z] from t0 to t1 with IDAS; y holds the state at
/// t1 afterwards. The observer sees (y, t) at t0 and after every accepted internal step, and is
/// told the interval and how the run ended; `stop` ends it at a step boundary. Y'(t0) = F(t0, y0),
/// so no consistent-initial-value computation is needed. Throws IdasFailure on a SUNDIALS
/// failure and rethrows the system's exceptions after IDAS has returned. At options.breakpoints
/// IDAS stops and starts again from the state reached (one run for the observer). Ends as
/// diverged, and keeps the counts of a failed run in `result`, as the residual form does.
template <EnergyFlowSystem System, class Observer>
  requires(!ResidualSystem<System>) && StateObserver<std::remove_reference_t<Observer>>
void integrate_idas(IdasResult& result, const System& system, Vector& y, double t0, double t1, Observer&& observer,
                    const IdasOptions& options = {}, const StopRequest* stop = nullptr) {
  result = IdasResult{};
  if (y.size() != system.size()) throw InvalidArgument("state size does not match the system");
  if (options.form == DaeForm::Ggl || options.baumgarte) {
    throw InvalidArgument("GGL and Baumgarte stabilization apply to a multiplier system's residual form");
  }
  detail::IdasProblem<System> problem(system);
  detail::DaeLayout& layout = problem.layout;
  const bool carries_z = system.carries_energy_flow();
  const bool z_as_quadrature = carries_z && options.z_mode == ZMode::Quadrature;
  layout.z_in_state = carries_z && !z_as_quadrature;
  layout.explicit_motion = y.size() - (carries_z ? 1 : 0);
  const Index motion = layout.explicit_motion;

  // One run of IDAS per piece between breakpoints, restarted with IDAReInit; Y'(t) = F(t, y) at
  // each piece's start.
  SolverPieces pieces(t0, t1, options.breakpoints);
  detail::IdasSolver solver;
  double z_at_piece_start = 0;  // Z where the current piece began (the quadrature starts at 0)
  long steps = 0;
  double t = t0;
  const auto start_piece = [&](double t_start) {
    const Vector Y = y.head(layout.size());
    Vector Yp(layout.size());
    if (layout.z_in_state) {
      system(y, Yp, t_start);
    } else {
      system.motion_rates(y, Yp, t_start);
    }
    if (solver.memory) {
      detail::reinitialize(solver, Y, Yp, t_start, pieces.end(), problem);
    } else {
      detail::configure(solver, layout, Y, Yp, t_start, pieces.end(), detail::explicit_residual<System>,
                        z_as_quadrature ? detail::explicit_energy_flow<System> : nullptr, problem, options);
    }
  };
  const auto start = [&] { start_piece(t0); };
  const auto take_piece_step = [&] {
    if (pieces.finished_piece_at(t)) {  // a breakpoint: start again from the state reached
      pieces.begin_next_piece(detail::read_idas_counters(solver.memory.get(), solver.z != nullptr));
      if (z_as_quadrature) z_at_piece_start = y[motion];
      start_piece(t);
    }
    detail::idas_one_step(solver, problem, options, pieces.end(), t, steps);
    y.head(layout.size()) = detail::view(solver.Y.get());
    if (z_as_quadrature) y[motion] = z_at_piece_start + detail::idas_quadrature_z(solver, problem, options, t);
  };
  const auto take_step = [&] { pieces.counting_every_piece(take_piece_step); };
  const auto count = [&] {
    return pieces.counters(solver.memory ? detail::read_idas_counters(solver.memory.get(), solver.z != nullptr)
                                         : SolverCounters{});
  };
  detail::observe_steps_counted(result, count, observer, y, t0, t1, t, stop, start, take_step);
}

/// integrate_idas(result, ...) returning the result.
template <EnergyFlowSystem System, class Observer>
  requires(!ResidualSystem<System>) && StateObserver<std::remove_reference_t<Observer>>
IdasResult integrate_idas(const System& system, Vector& y, double t0, double t1, Observer&& observer,
                          const IdasOptions& options = {}, const StopRequest* stop = nullptr) {
  IdasResult result;
  integrate_idas(result, system, y, t0, t1, std::forward<Observer>(observer), options, stop);
  return result;
}

}  // namespace energy_audit::sun
