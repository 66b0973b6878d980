#pragma once
/// \file
/// What every method family's run of a mechanical system shares (method_family.hpp): the audit's
/// observer with the model's extra outputs beside it, the counts and end taken from the
/// integrator's result (also when it fails), and the model's breakpoints.

#include <type_traits>
#include <utility>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/extra_outputs.hpp>
#include <energy_audit/no_observer.hpp>

#include <energy_audit/studies/integrator_counts.hpp>
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

}  // namespace detail

/// watch(system, audit), with the extra outputs tracked into outcome.extra_outputs when the model
/// has them (only then is the observer's type, and the integrators compiled for it, another one).
template <class System>
auto audit_observer(RunOutcome& outcome, const System& system) {
  using Model = std::remove_cvref_t<decltype(system.model())>;
  if constexpr (HasExtraOutputs<Model>) {
    return detail::ExtraOutputObserver<System, AuditObserver<System>>(system, watch(system, *outcome.audit),
                                                              *outcome.extra_outputs);
  } else {
    return watch(system, *outcome.audit);
  }
}

/// How a run ended and what it counted, from an integrator's result: also that of a run an
/// exception ended (the counts up to the failure; run_system records the error). An adaptive
/// solver's result carries its counters (solver_counters.hpp).
template <class Result>
void record_result(RunOutcome& outcome, const Result& result) {
  if constexpr (requires { result.counters; }) outcome.solver_counters = result.counters;
  const IntegratorCounts counts = counts_of(result);
  outcome.steps = counts.steps;
  outcome.rhs_evaluations = counts.rhs_evaluations;
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

}  // namespace energy_audit::studies
