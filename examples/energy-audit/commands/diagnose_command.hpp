#pragma once
/// \file
/// `energy-audit diagnose`: run one method at a ladder of steps (or rtols) and say whether a
/// failing delta_C is a step error, a model error or round-off.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `diagnose` to `app`.
Command add_diagnose_command(CLI::App& app);

}  // namespace energy_audit::cli
