#pragma once
/// \file
/// `energy-audit audit-trajectory`: audit samples (t, q, v, a) computed elsewhere.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `audit-trajectory` to `app`.
Command add_audit_trajectory_command(CLI::App& app);

}  // namespace energy_audit::cli
