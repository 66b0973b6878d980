#include "energy_audit/sundials/callback_data.hpp"

#include <cstdio>

#include <cvodes/cvodes.h>
#include <idas/idas.h>

namespace energy_audit::sun::detail {

static_assert(CV_WARNING == IDA_WARNING, "one handler serves CVODES and IDAS");

void handle_sundials_message(int error_code, const char*, const char*, char* message, void* data) noexcept {
  auto& callback_data = *static_cast<CallbackData*>(data);
  try {
    if (error_code != CV_WARNING) {
      callback_data.last_message = message;
    } else if (callback_data.warnings_seen.insert(message).second) {
      std::fprintf(stderr, "energy-audit: SUNDIALS warning: %s\n", message);
    }
  } catch (...) {  // out of memory for a message: keep the flag, lose the text
  }
}

std::string failure_message(const CallbackData& data, bool too_much_work, long max_steps) {
  if (!too_much_work || !data.last_message.empty()) return data.last_message;
  return "max_steps = " + std::to_string(max_steps) + " steps taken before reaching the end";
}

}  // namespace energy_audit::sun::detail
