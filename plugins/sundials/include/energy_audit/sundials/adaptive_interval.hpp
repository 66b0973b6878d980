#pragma once
/// \file
/// Which intervals [t0, t_end] CVODES and IDAS can start on. Both adapters refuse the others
/// before creating a solver, and the command line makes them a usage error.

#include <string>

namespace energy_audit::sun {

/// An empty string when CVODES and IDAS can integrate from t0 to t1, otherwise why not: t0 or t1
/// not finite, t1 <= t0, or t1 - t0 shorter than both 1e-150 and 100 roundoff units of
/// max(|t0|, |t1|).
std::string adaptive_interval_problem(double t0, double t1);

}  // namespace energy_audit::sun
