#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace energy_audit::studies
