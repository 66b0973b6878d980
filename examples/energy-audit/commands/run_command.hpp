#pragma once
/// \file
/// `energy-audit run`: integrate one model with one method and audit it.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `run` to `app`.
Command add_run_command(CLI::App& app);

}  // namespace energy_audit::cli
