#pragma once
/// \file
/// The loop the SUNDIALS adapters share: the solver is set up and stepped one accepted step at
/// a time up to t1, and the observer sees the initial state and every step, is told the
/// interval first and how the run ended last (run_observer.hpp).

#include <energy_audit/run_end.hpp>
#include <energy_audit/run_observer.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/types.hpp>

namespace energy_audit::sun::detail {

/// start() sets the solver up (it may throw); take_step() advances it one accepted step,
/// writing the new state into y and its time into t (it throws on a failure). Returns Finished
/// at t1, or Interrupted at the first step boundary after `stop` is requested; an exception
/// ends the run as RunEnd::Error and propagates.
template <class Observer, class Start, class TakeStep>
RunEnd observe_steps(Observer& observer, const Vector& y, double t0, double t1, double& t, const StopRequest* stop,
                     Start&& start, TakeStep&& take_step) {
  notify_run_begin(observer, t0, t1);
  t = t0;
  RunEnd end = RunEnd::Finished;
  try {
    start();
    observer(y, t0);
    while (t < t1) {
      if (stop_requested(stop)) {
        end = RunEnd::Interrupted;
        break;
      }
      take_step();
      observer(y, t);
    }
  } catch (...) {
    notify_run_end(observer, RunEnd::Error, t);
    throw;
  }
  notify_run_end(observer, end, t);
  return end;
}

}  // namespace energy_audit::sun::detail
