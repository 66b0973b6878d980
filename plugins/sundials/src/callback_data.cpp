#include "energy_audit/sundials/callback_data.hpp"

namespace energy_audit::sun::detail {

void keep_error_message(int, const char*, const char*, char* message, void* data) noexcept {
  try {
    static_cast<CallbackData*>(data)->last_message = message;
  } catch (...) {  // out of memory for a message: keep the flag, lose the text
  }
}

std::string failure_message(const CallbackData& data, bool too_much_work, long max_steps) {
  if (!too_much_work || !data.last_message.empty()) return data.last_message;
  return "max_steps = " + std::to_string(max_steps) + " steps taken before reaching the end";
}

}  // namespace energy_audit::sun::detail
