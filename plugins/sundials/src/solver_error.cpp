#include "energy_audit/sundials/solver_error.hpp"

#include <sstream>

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

}  // namespace energy_audit::sun
