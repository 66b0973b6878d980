#pragma once
/// \file
/// What an integrator tells its observer besides the states: the interval a run is meant to
/// cover, and how it ended. Both are optional members of an observer; an observer that is
/// only a callable (y, t) is told nothing.
///
///     observer.begin_run(t0, t1);     // before the first state
///     observer(y, t);                 // the initial state and every accepted step
///     observer.end_run(end, t);       // once, with the time of the last observed state

#include "energy_audit/run_end.hpp"

namespace energy_audit {

template <class Observer>
void notify_run_begin(Observer& observer, double t0, double t1) {
  if constexpr (requires { observer.begin_run(t0, t1); }) observer.begin_run(t0, t1);
}

template <class Observer>
void notify_run_end(Observer& observer, RunEnd end, double t_reached) {
  if constexpr (requires { observer.end_run(end, t_reached); }) observer.end_run(end, t_reached);
}

}  // namespace energy_audit
