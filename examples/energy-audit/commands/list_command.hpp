#pragma once
/// \file
/// `energy-audit list`: list the models and the methods.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `list` to `app`.
Command add_list_command(CLI::App& app);

}  // namespace energy_audit::cli
