#include "interruption.hpp"

#include <csignal>

#include "output_file.hpp"

namespace energy_audit::cli {
namespace {

StopRequest stop_request;
volatile std::sig_atomic_t received_signal = 0;

extern "C" void request_stop(int signal_number) {
  if (received_signal == 0) {
    received_signal = signal_number;
    stop_request.request();
    return;
  }
  // A second signal ends the program at once, as the signal's default action does; the files
  // being written go first, so that not even a hidden temporary stays.
  remove_temporary_outputs();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

}  // namespace

void install_interruption_handlers() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  // SIGINT and SIGTERM wait while the other's handler runs: a second signal ends the program,
  // whichever of the two it is.
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

const StopRequest& interruption_request() { return stop_request; }

int interruption_signal() { return received_signal; }

}  // namespace energy_audit::cli
