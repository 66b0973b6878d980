#pragma once
/// \file
/// How an integration ended, as an integrator tells its observer.

namespace energy_audit {

enum class RunEnd {
  Finished,     ///< reached the end of the interval
  Diverged,     ///< a step left the state non-finite (or beyond a model's divergence_bound); the state
                ///< before it was the last observed
  Error,        ///< the solver or the model failed (an exception, a SUNDIALS error)
  Interrupted,  ///< stopped at a step boundary on request (StopRequest)
};

}  // namespace energy_audit
