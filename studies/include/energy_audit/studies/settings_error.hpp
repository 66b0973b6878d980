#pragma once
/// \file
/// The error a study throws for settings it cannot run (an unknown model parameter, a step
/// longer than the interval, an option that has no effect): the message names the setting at
/// fault as the caller spells it (OptionNames, run_model.hpp), before anything runs. The command
/// line reports it as a usage error (exit status 2).

#include <stdexcept>
#include <string>
#include <vector>

namespace energy_audit::studies {

class SettingsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "a, b, c": names for a message.
std::string join(const std::vector<std::string>& names);

}  // namespace energy_audit::studies
