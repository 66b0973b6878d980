#pragma once
/// \file
/// Command-line usage errors (exit status 2): the message names the argument at fault. They are
/// the studies' settings errors (settings_error.hpp), which the studies throw for what the
/// command line passes on from its options.

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::cli {

using UsageError = studies::SettingsError;
using studies::join;

}  // namespace energy_audit::cli
