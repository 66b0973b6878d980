#pragma once
/// \file
/// `energy-audit reproduce`: run the rows of a source paper's table beside its values.

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `reproduce` to `app`.
Command add_reproduce_command(CLI::App& app);

}  // namespace energy_audit::cli
