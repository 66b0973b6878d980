#pragma once
/// \file
/// What an integrator tells its observer besides the states: the interval a run is meant to
/// cover, and how it ended; and what it asks: whether the state just shown left the finite
/// range in a way only the observer sees (the audit: an energy, so C, not finite). All are
/// optional members of an observer; an observer that is only a callable (y, t) is told nothing
/// and never asked.
///
///     observer.begin_run(t0, t1);     // before the first state
///     observer(y, t);                 // the initial state and every accepted step
///     observer.left_finite_range();   // after each state: true ends the run as RunEnd::Diverged
///     observer.end_run(end, t);       // once, with the time of the last observed state

#include "energy_audit/run_end.hpp"
#include "energy_audit/system_concepts.hpp"

namespace energy_audit {

template <class Observer>
void notify_run_begin(Observer& observer, double t0, double t1) {
  if constexpr (RunBeginObserver<Observer>) observer.begin_run(t0, t1);
}

template <class Observer>
void notify_run_end(Observer& observer, RunEnd end, double t_reached) {
  if constexpr (RunEndObserver<Observer>) observer.end_run(end, t_reached);
}

template <class Observer>
bool observer_saw_divergence(const Observer& observer) {
  if constexpr (DivergenceObserver<Observer>) {
    return observer.left_finite_range();
  } else {
    return false;
  }
}

}  // namespace energy_audit
