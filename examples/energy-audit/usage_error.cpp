#include "usage_error.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>

namespace energy_audit::cli {

double parse_number(std::string_view option, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    throw UsageError(std::string(option) + ": '" + text + "' is not a number");
  }
  if (!std::isfinite(value)) throw UsageError(std::string(option) + ": '" + text + "' is not finite");
  return value;
}

std::size_t parse_count(std::string_view option, const std::string& text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == 0) {
    throw UsageError(std::string(option) + ": '" + text + "' is not a positive integer");
  }
  return value;
}

Assignment parse_assignment(std::string_view option, const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw UsageError(std::string(option) + ": '" + text + "' is not NAME=VALUE");
  }
  const std::string name = text.substr(0, equals);
  return {name, parse_number(std::string(option) + " " + name, text.substr(equals + 1))};
}

void check_writable(std::string_view option, const std::string& path) {
  if (path.empty()) return;
  const std::ofstream file(path, std::ios::app);
  if (!file) throw UsageError(std::string(option) + ": cannot write '" + path + "'");
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::vector<std::string> split_list(std::string_view option, const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw UsageError(std::string(option) + ": empty item in '" + text + "'");
    items.push_back(item);
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

}  // namespace energy_audit::cli
