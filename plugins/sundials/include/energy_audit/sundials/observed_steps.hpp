#pragma once
/// \file
/// The loop the SUNDIALS adapters share: the solver is set up and stepped one accepted step at
/// a time up to t1, and the observer sees the initial state and every step, is told the
/// interval first and how the run ended last (run_observer.hpp).

#include <utility>

#include <energy_audit/run_end.hpp>
#include <energy_audit/run_observer.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/types.hpp>

namespace energy_audit::sun::detail {

/// start() sets the solver up (it may throw); take_step() advances it one accepted step,
/// writing the new state into y and its time into t (it throws on a failure). Ends the run
/// Finished at t1, Interrupted at the first step boundary after `stop` is requested, or Diverged
/// at the first state at which the observer saw the run leave the finite range (the audit: C not
/// finite), writing into result (a CvodesResult or IdasResult) how it ended, the time of the
/// last finite state and where it diverged. An exception ends the run as RunEnd::Error and
/// propagates.
template <class Result, class Observer, class Start, class TakeStep>
void observe_steps(Result& result, Observer& observer, const Vector& y, double t0, double t1, double& t,
                   const StopRequest* stop, Start&& start, TakeStep&& take_step) {
  notify_run_begin(observer, t0, t1);
  t = t0;
  result.end = RunEnd::Finished;
  result.t_reached = t0;
  try {
    start();
    observer(y, t0);
    double t_before = t0;  // the time of the state before the one at t
    while (true) {
      if (observer_saw_divergence(observer)) {
        result.end = RunEnd::Diverged;
        result.t_diverged = t;
        result.t_reached = t_before;
        break;
      }
      result.t_reached = t;
      if (!(t < t1)) break;
      if (stop_requested(stop)) {
        result.end = RunEnd::Interrupted;
        break;
      }
      t_before = t;
      take_step();
      observer(y, t);
    }
  } catch (...) {
    result.end = RunEnd::Error;
    notify_run_end(observer, RunEnd::Error, result.t_reached);
    throw;
  }
  notify_run_end(observer, result.end, result.t_reached);
}

/// observe_steps into result, and result.counters = count() (the solver's counts of the whole
/// run), also when an exception ends the run.
template <class Result, class Count, class... ObserveArguments>
void observe_steps_counted(Result& result, Count&& count, ObserveArguments&&... arguments) {
  try {
    observe_steps(result, std::forward<ObserveArguments>(arguments)...);
  } catch (...) {
    result.counters = count();
    throw;
  }
  result.counters = count();
}

}  // namespace energy_audit::sun::detail
