#pragma once
/// \file
/// `energy-audit sweep`: audit one model over every combination of values, methods and steps.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `sweep` to `app`.
Command add_sweep_command(CLI::App& app);

}  // namespace energy_audit::cli
