#pragma once
/// \file
/// `energy-audit compare`: audit one model over several methods and steps.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `compare` to `app`.
Command add_compare_command(CLI::App& app);

}  // namespace energy_audit::cli
