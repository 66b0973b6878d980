#pragma once
/// \file
/// How an integration ended, as an integrator tells its observer.

namespace energy_audit {

enum class RunEnd {
  Finished,     ///< reached the end of the interval
  Diverged,     ///< a step left the state non-finite (or beyond a model's divergence_bound), or its
                ///< energies, so C, non-finite (the observer says so); the state before it was the
                ///< last finite one
  Error,        ///< the solver or the model failed (an exception, a SUNDIALS error)
  Interrupted,  ///< stopped at a step boundary on request (StopRequest)
};

/// "finished", "diverged", "error" or "interrupted": the records' "end", and the verdict of a run
/// that did not finish.
constexpr const char* run_end_name(RunEnd end) {
  switch (end) {
    case RunEnd::Diverged: return "diverged";
    case RunEnd::Error: return "error";
    case RunEnd::Interrupted: return "interrupted";
    case RunEnd::Finished: break;
  }
  return "finished";
}

}  // namespace energy_audit
