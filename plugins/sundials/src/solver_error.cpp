#include "energy_audit/sundials/solver_error.hpp"

#include <cstdlib>
#include <memory>
#include <sstream>

#include <cvodes/cvodes.h>

namespace energy_audit::sun {
namespace {

std::string describe(const std::string& function, const std::string& flag_name, const std::string& solver_message,
                     double t) {
  std::ostringstream text;
  text << function << " failed with " << flag_name << " at t = " << t;
  if (!solver_message.empty()) text << ": " << solver_message;
  return text.str();
}

}  // namespace

SolverError::SolverError(std::string function, int flag, std::string flag_name, std::string solver_message, double t)
    : energy_audit::Error(describe(function, flag_name, solver_message, t)),
      function_(std::move(function)),
      flag_(flag),
      flag_name_(std::move(flag_name)),
      t_(t) {}

std::string cvode_flag_name(int flag) {
  // SUNDIALS allocates the name with malloc; the caller frees it.
  const std::unique_ptr<char, decltype(&std::free)> name(CVodeGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

void check_cvode(int flag, const char* function, const std::string& solver_message, double t) {
  if (flag < 0) throw SolverError(function, flag, cvode_flag_name(flag), solver_message, t);
}

}  // namespace energy_audit::sun
