#include "interruption.hpp"

#include <csignal>

namespace energy_audit::cli {
namespace {

StopRequest stop_request;
volatile std::sig_atomic_t received_signal = 0;

extern "C" void request_stop(int signal_number) {
  if (received_signal == 0) received_signal = signal_number;
  stop_request.request();
}

}  // namespace

void install_interruption_handlers() {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second signal takes the default action
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

const StopRequest& interruption_request() { return stop_request; }

int interruption_signal() { return received_signal; }

}  // namespace energy_audit::cli
