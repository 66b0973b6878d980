#pragma once
/// \file
/// The integration of one concrete system, compiled for its type: the command line runs each
/// model through the same templates a C++ program would call, with no virtual call per
/// right-hand side.

#include <exception>
#include <type_traits>
#include <utility>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/extra_outputs.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#include <energy_audit/sundials/integrate_idas_explicit.hpp>

#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {
namespace detail {

/// The audit's observer, and beside it the model's extra outputs at every state it sees: the
/// same states, so the record's last values are those of the audit's last row.
template <class System, class Observer>
class ExtraOutputObserver {
 public:
  ExtraOutputObserver(const System& system, Observer observer, ExtraOutputRecord& record)
      : system_(system), observer_(std::move(observer)), record_(record) {}
  void begin_run(double t0, double t1) { notify_run_begin(observer_, t0, t1); }
  void end_run(RunEnd end, double t_reached) { notify_run_end(observer_, end, t_reached); }
  bool left_finite_range() const { return observer_saw_divergence(observer_); }
  void operator()(const ConstVectorRef& y, double t) {
    observer_(y, t);
    observe_extra_outputs(y, t);
  }
  /// The audit observes y in the first stage of the step that leaves it; so do the extra outputs,
  /// also when the rates at y fail (the audit then still records y).
  void evaluate_and_observe(const Vector& y, Vector& dydt, double t) {
    try {
      observer_.evaluate_and_observe(y, dydt, t);
    } catch (...) {
      observe_extra_outputs(y, t);
      throw;
    }
    observe_extra_outputs(y, t);
  }

 private:
  void observe_extra_outputs(const ConstVectorRef& y, double t) {
    const Index n = system_.dofs();
    record_.observe(extra_outputs_at(system_, y.head(n), y.segment(n, system_.second_half_size()), t));
  }

  const System& system_;
  Observer observer_;
  ExtraOutputRecord& record_;
};

/// watch(system, audit), with the extra outputs tracked into outcome.extra_outputs when the model
/// has them (only then is the observer's type, and the integrators compiled for it, another one).
template <class System>
auto audit_observer(RunOutcome& outcome, const System& system) {
  using Model = std::remove_cvref_t<decltype(system.model())>;
  if constexpr (HasExtraOutputs<Model>) {
    return ExtraOutputObserver<System, AuditObserver<System>>(system, watch(system, *outcome.audit),
                                                              *outcome.extra_outputs);
  } else {
    return watch(system, *outcome.audit);
  }
}

/// How a run ended and what it counted, from an integrator's result: also that of a run an
/// exception ended (the counts up to the failure; run_system records the error).
template <class Result>
void record_result(RunOutcome& outcome, const Result& result) {
  if constexpr (requires { result.counters; }) {
    const sun::SolverCounters& counters = result.counters;
    outcome.solver_counters = counters;
    outcome.steps = static_cast<std::size_t>(counters.steps);
    outcome.rhs_evaluations = static_cast<std::size_t>(counters.rhs_evaluations + counters.jacobian_rhs_evaluations);
  } else {
    outcome.steps = result.steps;
    outcome.rhs_evaluations = result.rhs_evaluations;
  }
  outcome.end = result.end;
  outcome.t_reached = result.t_reached;
  outcome.t_diverged = result.t_diverged;
}

/// Runs integrate(result, observer), an integrator that counts into `result` as it goes, watched
/// by the audit when there is one, and records its counts and how it ended, also when it fails.
template <class Result, class System, class Integrate>
void run_integrator(RunOutcome& outcome, const System& system, Integrate&& integrate) {
  Result result;
  try {
    outcome.audit ? integrate(result, audit_observer(outcome, system)) : integrate(result, NoObserver{});
  } catch (...) {
    record_result(outcome, result);
    throw;
  }
  record_result(outcome, result);
}

template <class System>
void run_fixed_step(RunOutcome& outcome, const System& system, Vector& y, const RunSettings& settings) {
  FixedStepper stepper(settings.method.fixed_step);
  const Interval& i = outcome.interval;
  run_integrator<IntegrationResult>(outcome, system, [&](IntegrationResult& result, auto&& observer) {
    integrate_const(result, stepper, system, y, i.t0, i.t_end, settings.step, observer, settings.stop);
  });
}

/// The times at which the model's right-hand side jumps, from its optional `breakpoints()`: the
/// adaptive solvers restart there.
template <class System>
std::vector<double> breakpoints_of(const System& system) {
  if constexpr (requires { system.model().breakpoints(); }) {
    const auto times = system.model().breakpoints();
    return {times.begin(), times.end()};
  } else {
    return {};
  }
}

template <class System>
void run_cvodes(RunOutcome& outcome, const System& system, Vector& y, const RunSettings& settings) {
  sun::CvodesOptions options = settings.cvodes;
  options.breakpoints = breakpoints_of(system);
  options.method = settings.method.multistep;
  if (!outcome.audit) options.z_mode = sun::ZMode::State;  // nothing to carry: y = [q, v]
  outcome.cvodes = options;
  const Interval& i = outcome.interval;
  run_integrator<sun::CvodesResult>(outcome, system, [&](sun::CvodesResult& result, auto&& observer) {
    sun::integrate_cvodes(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
  });
}

template <class System>
void run_idas(RunOutcome& outcome, const System& system, Vector& y, const RunSettings& settings) {
  sun::IdasOptions options;
  options.rtol = settings.cvodes.rtol;
  options.atol = settings.cvodes.atol;
  options.max_steps = settings.cvodes.max_steps;
  options.initial_step = settings.cvodes.initial_step;
  options.max_step = settings.cvodes.max_step;
  options.z_mode = outcome.audit ? settings.cvodes.z_mode : sun::ZMode::State;
  options.quadrature_error_control = settings.cvodes.quadrature_error_control;
  options.form = settings.stabilization == Stabilization::Ggl ? sun::DaeForm::Ggl : sun::DaeForm::Index1;
  if (settings.stabilization == Stabilization::Baumgarte) options.baumgarte = settings.baumgarte;
  options.breakpoints = breakpoints_of(system);
  outcome.cvodes.z_mode = options.z_mode;
  const Interval& i = outcome.interval;
  run_integrator<sun::IdasResult>(outcome, system, [&](sun::IdasResult& result, auto&& observer) {
    sun::integrate_idas(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
  });
}

}  // namespace detail

/// Integrates `system` from y over outcome.interval with the method of `settings`, watched by
/// outcome.audit when there is one. A failure ends the run as RunEnd::Error with its message;
/// it does not throw.
template <class System>
void run_system(RunOutcome& outcome, const System& system, Vector y, const RunSettings& settings) {
  try {
    switch (settings.method.kind) {
      case MethodKind::FixedStep: detail::run_fixed_step(outcome, system, y, settings); break;
      case MethodKind::Cvodes: detail::run_cvodes(outcome, system, y, settings); break;
      case MethodKind::Idas: detail::run_idas(outcome, system, y, settings); break;
    }
  } catch (const std::exception& e) {  // the model's own exceptions end the run the same way
    outcome.end = RunEnd::Error;
    outcome.error = e.what();
  }
}

}  // namespace energy_audit::studies
