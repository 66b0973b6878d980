#include "command.hpp"

#include "interruption.hpp"

namespace energy_audit::cli {

int exit_status(int status) {
  const int signal_number = interruption_signal();
  return signal_number != 0 ? 128 + signal_number : status;
}

}  // namespace energy_audit::cli
