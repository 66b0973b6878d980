#include "energy_audit/sundials/callback_data.hpp"

namespace energy_audit::sun::detail {

void keep_error_message(int, const char*, const char*, char* message, void* data) noexcept {
  try {
    static_cast<CallbackData*>(data)->last_message = message;
  } catch (...) {  // out of memory for a message: keep the flag, lose the text
  }
}

}  // namespace energy_audit::sun::detail
