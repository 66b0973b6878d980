#include "energy_audit/sundials/callback_data.hpp"

#include <cstdio>

namespace energy_audit::sun::detail {

void note_sundials_error(CallbackData& data, const char* message) noexcept {
  try {
    data.last_message = message;
  } catch (...) {  // out of memory for a message: keep the flag, lose the text
  }
}

void note_sundials_warning(CallbackData& data, const char* message) noexcept {
  try {
    if (data.warnings_seen.insert(message).second) {
      std::fprintf(stderr, "energy-audit: SUNDIALS warning: %s\n", message);
    }
  } catch (...) {  // out of memory for a message: lose the text
  }
}

std::string failure_message(const CallbackData& data, bool too_much_work, long max_steps) {
  if (!too_much_work || !data.last_message.empty()) return data.last_message;
  return "max_steps = " + std::to_string(max_steps) + " steps taken before reaching the end";
}

}  // namespace energy_audit::sun::detail
