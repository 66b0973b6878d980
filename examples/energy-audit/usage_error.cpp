#include "usage_error.hpp"

namespace energy_audit::cli {

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace energy_audit::cli
