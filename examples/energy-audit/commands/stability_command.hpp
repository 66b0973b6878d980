#pragma once
/// \file
/// `energy-audit stability`: map the verdicts of a kinematic model over its gain k and the step.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `stability` to `app`.
Command add_stability_command(CLI::App& app);

}  // namespace energy_audit::cli
