#pragma once
/// \file
/// CVODE(S) return flags as SolverError: the flag's name, and the check every CVODES call of the
/// CVODES adapter and the drop-in audit goes through.

#include <string>

#include "energy_audit/sundials/solver_error.hpp"

namespace energy_audit::sun {

/// The name of a CVODE(S) return flag ("CV_TOO_MUCH_WORK").
std::string cvode_flag_name(int flag);

/// Throws SolverError for a negative flag; `solver_message` is the last message SUNDIALS gave.
void check_cvode(int flag, const char* function, const std::string& solver_message = {}, double t = 0);

}  // namespace energy_audit::sun
