#pragma once
/// \file
/// Command-line usage errors (exit status 2): the message names the argument at fault.

#include <stdexcept>
#include <string>
#include <vector>

namespace energy_audit::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "a, b, c": names for a message.
std::string join(const std::vector<std::string>& names);

}  // namespace energy_audit::cli
