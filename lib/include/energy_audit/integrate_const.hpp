#pragma once
/// \file
/// The fixed-step driver: steps t_k = t0 + k h, the last one shortened to end at t1; the
/// observer sees the initial state and every accepted step.

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "energy_audit/all_finite.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/no_observer.hpp"
#include "energy_audit/run_observer.hpp"
#include "energy_audit/stop_request.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

struct IntegrationResult {
  std::size_t steps = 0;            ///< accepted steps
  std::size_t rhs_evaluations = 0;  ///< right-hand-side evaluations
  double t_reached = 0;             ///< time of the last finite state (within bound, if bounded)
  RunEnd end = RunEnd::Finished;    ///< Finished, Diverged or Interrupted (errors throw)
  double t_diverged = 0;            ///< with RunEnd::Diverged: where (the end of the failed step)

  bool finished() const { return end == RunEnd::Finished; }
  bool diverged() const { return end == RunEnd::Diverged; }
};

/// Most steps a fixed-step run may take: 2^53, where t0 + k h stops being exact in k.
inline constexpr double max_fixed_step_count = 9007199254740992.0;

/// Number of steps of length h (the last one possibly shorter) that cover [t0, t1]. A ratio
/// within rounding of an integer counts as that integer, so no sliver step appears. Throws
/// InvalidArgument for a bad interval or step, or more than max_fixed_step_count steps.
std::size_t fixed_step_count(double t0, double t1, double h);

/// Integrates y from t0 to t1; the observer sees the initial state and every accepted step,
/// in order, and is told the interval and how the run ended (run_observer.hpp). Stops after the
/// first step that leaves y non-finite, or outside a BoundedSystem's bound (RunEnd::Diverged;
/// that state is not observed and y keeps it), after the first state at which the observer saw
/// the run leave the finite range (RunEnd::Diverged at that state's time; the audit: C not
/// finite), or at the first step boundary after `stop` is requested (RunEnd::Interrupted).
/// `result` holds the counts as the run goes: when an exception from the system ends the run
/// (RunEnd::Error), it propagates and `result` keeps the steps accepted before it and the
/// evaluations of every step begun, the failed one included. A stepper's do_step may return
/// whether the new state is finite (bool); otherwise the driver checks y.
template <class Stepper, FirstOrderSystem System, class Observer>
  requires FixedStepStepper<Stepper, System> && StateObserver<std::remove_reference_t<Observer>>
void integrate_const(IntegrationResult& result, Stepper& stepper, const System& system, Vector& y, double t0,
                     double t1, double h, Observer&& observer, const StopRequest* stop = nullptr) {
  if (y.size() != system.size()) {
    throw InvalidArgument("state has " + std::to_string(y.size()) + " entries, the system " +
                          std::to_string(system.size()));
  }
  // With a first-stage observer, each state is observed at the start of the step that leaves
  // it (and the last one after the loop): the same states in the same order, one evaluation fewer.
  constexpr bool observe_first_stage = ObservesFirstStage<Stepper, System, std::remove_reference_t<Observer>>;
  const auto take_step = [&](double t, double dt) -> bool {
    if constexpr (observe_first_stage) {
      return stepper.do_step(system, y, t, dt, ObservedFirstStage<std::remove_reference_t<Observer>>{observer});
    } else if constexpr (std::is_same_v<decltype(stepper.do_step(system, y, t, dt)), bool>) {
      return stepper.do_step(system, y, t, dt);  // the stepper checked finiteness on the way
    } else {
      stepper.do_step(system, y, t, dt);
      return all_finite(y);
    }
  };
  const auto within_bound = [&](double t) -> bool {
    if constexpr (BoundedSystem<System>) {
      return system.within_divergence_bound(y, t);
    } else {
      static_cast<void>(t);
      return true;
    }
  };

  const std::size_t steps = fixed_step_count(t0, t1, h);
  result = IntegrationResult{};
  result.t_reached = t0;
  // The observer saw the state at t_observed leave the finite range: the run diverged there, and
  // the state before it, at t_before, was the last finite one.
  const auto observed_divergence = [&](double t_observed, double t_before) {
    if (!observer_saw_divergence(observer)) return false;
    result.end = RunEnd::Diverged;
    result.t_diverged = t_observed;
    result.t_reached = t_before;
    return true;
  };
  notify_run_begin(observer, t0, t1);
  try {
    double t_before = t0;  // the time of the state before the one at result.t_reached
    if constexpr (!observe_first_stage) observer(y, t0);
    if (!observed_divergence(t0, t0)) {
      for (std::size_t k = 0; k < steps; ++k) {
        if (stop_requested(stop)) {
          result.end = RunEnd::Interrupted;
          break;
        }
        const double t = t0 + static_cast<double>(k) * h;
        const double t_next = k + 1 == steps ? t1 : t0 + static_cast<double>(k + 1) * h;
        if constexpr (StepAwareSystem<System>) system.begin_step(t, t_next - t);
        result.rhs_evaluations += static_cast<std::size_t>(stepper.evaluations_per_step());  // of this step
        const bool finite = take_step(t, t_next - t);
        // A first-stage observer has just seen the state at t, where this step began.
        if (observe_first_stage && observed_divergence(t, t_before)) break;
        if (!finite || !within_bound(t_next)) {
          result.end = RunEnd::Diverged;
          result.t_diverged = t_next;
          break;
        }
        ++result.steps;
        t_before = t;
        result.t_reached = t_next;
        if constexpr (!observe_first_stage) {
          observer(y, t_next);
          if (observed_divergence(t_next, t)) break;
        }
      }
      // The first-stage observer has not seen the last state: a diverged step left y non-finite
      // (or out of bound), so then it has seen every other one.
      if constexpr (observe_first_stage) {
        if (result.end != RunEnd::Diverged) {
          observer(y, result.t_reached);
          observed_divergence(result.t_reached, t_before);
        }
      }
    }
  } catch (...) {
    result.end = RunEnd::Error;
    notify_run_end(observer, RunEnd::Error, result.t_reached);
    throw;
  }
  notify_run_end(observer, result.end, result.t_reached);
}

/// integrate_const(result, ...) returning the result; the counts of a run that an exception
/// ended are lost with it.
template <class Stepper, FirstOrderSystem System, class Observer>
  requires FixedStepStepper<Stepper, System> && StateObserver<std::remove_reference_t<Observer>>
IntegrationResult integrate_const(Stepper& stepper, const System& system, Vector& y, double t0,
                                  double t1, double h, Observer&& observer,
                                  const StopRequest* stop = nullptr) {
  IntegrationResult result;
  integrate_const(result, stepper, system, y, t0, t1, h, std::forward<Observer>(observer), stop);
  return result;
}

template <class Stepper, FirstOrderSystem System>
IntegrationResult integrate_const(Stepper& stepper, const System& system, Vector& y, double t0,
                                  double t1, double h) {
  return integrate_const(stepper, system, y, t0, t1, h, NoObserver{});
}

}  // namespace energy_audit
