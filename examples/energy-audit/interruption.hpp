#pragma once
/// \file
/// SIGINT and SIGTERM stop the run under way at its next step boundary: its history is
/// written and the program exits with 128 + the signal's number (130, 143).

#include <energy_audit/stop_request.hpp>

namespace energy_audit::cli {

/// Installs the handlers (again, harmlessly). The first signal requests the stop; a second one,
/// SIGINT or SIGTERM, removes the temporaries of the files being written
/// (remove_temporary_outputs) and ends the program at once by the signal's default action.
/// CommandOutputs::open() installs them before it creates any file.
void install_interruption_handlers();
/// What the handlers request; integrators read it once per step.
const StopRequest& interruption_request();
/// The first signal received, 0 if none.
int interruption_signal();

}  // namespace energy_audit::cli
