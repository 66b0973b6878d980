#pragma once
/// \file
/// `energy-audit advise`: find each method's largest step that meets a target delta_C.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `advise` to `app`.
Command add_advise_command(CLI::App& app);

}  // namespace energy_audit::cli
