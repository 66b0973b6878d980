#pragma once
/// \file
/// A SUNDIALS failure as an exception: the function, the flag's name, SUNDIALS' own message
/// and the time reached.

#include <string>
#include <utility>

#include <energy_audit/error.hpp>

#include "energy_audit/solver_counters.hpp"

namespace energy_audit::sun {

class SolverError : public energy_audit::Error {
 public:
  SolverError(std::string function, int flag, std::string flag_name, std::string solver_message, double t);

  const std::string& function() const { return function_; }
  int flag() const { return flag_; }
  const std::string& flag_name() const { return flag_name_; }  ///< "CV_TOO_MUCH_WORK"
  double t() const { return t_; }

 private:
  std::string function_;
  int flag_;
  std::string flag_name_;
  double t_;
};

/// A SUNDIALS failure during a run, with the counters up to it.
class SolverFailure : public SolverError {
 public:
  SolverFailure(SolverError error, SolverCounters counters) : SolverError(std::move(error)), counters_(counters) {}
  const SolverCounters& counters() const { return counters_; }

 private:
  SolverCounters counters_;
};

}  // namespace energy_audit::sun
