#include "energy_audit/sundials/cvode_check.hpp"

#include <cstdlib>
#include <memory>

#include <cvodes/cvodes.h>

namespace energy_audit::sun {

std::string cvode_flag_name(int flag) {
  // SUNDIALS allocates the name with malloc; the caller frees it.
  const std::unique_ptr<char, decltype(&std::free)> name(CVodeGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

void check_cvode(int flag, const char* function, const std::string& solver_message, double t) {
  if (flag < 0) throw SolverError(function, flag, cvode_flag_name(flag), solver_message, t);
}

}  // namespace energy_audit::sun
