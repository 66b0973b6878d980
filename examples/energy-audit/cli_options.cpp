#include "cli_options.hpp"

#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>

#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// The number in `text`, or an error message.
std::string read_number(const std::string& text, double& value) {
  if (!studies::parse_number(text, value)) return "'" + text + "' is not a number";
  if (!std::isfinite(value)) return "'" + text + "' is not finite";
  return {};
}

// The validators have no description: the help shows the option's type and default only.
CLI::Validator number_validator(bool (*accepts)(double), const char* requirement) {
  return CLI::Validator(
      [accepts, requirement](std::string& text) -> std::string {
        double value = 0;
        if (std::string error = read_number(text, value); !error.empty()) return error;
        if (!accepts(value)) return text + " must be " + requirement;
        return {};
      },
      "");
}

}  // namespace

CLI::Validator finite_number() {
  return number_validator([](double) { return true; }, "finite");
}

CLI::Validator positive_number() {
  return number_validator([](double x) { return x > 0; }, "> 0");
}

CLI::Validator non_negative_number() {
  return number_validator([](double x) { return x >= 0; }, ">= 0");
}

CLI::Validator positive_count(unsigned long long max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        unsigned long long value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || stop != end || (error != std::errc() && error != std::errc::result_out_of_range)) {
          return "'" + text + "' is not a positive integer";
        }
        if (error == std::errc::result_out_of_range || value > max) {
          return text + " is too large (at most " + std::to_string(max) + ")";
        }
        if (value == 0) return "'" + text + "' is not a positive integer";
        // CLI11 then converts the text itself, and reads a leading 0 as octal ("010" as 8).
        if (text[0] == '0') return "'" + text + "' is not a positive integer without leading zeros";
        return {};
      },
      "");
}

CLI::Validator assignment() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto equals = text.find('=');
        if (equals == std::string::npos || equals == 0) return "'" + text + "' is not NAME=VALUE";
        double value = 0;
        if (std::string error = read_number(text.substr(equals + 1), value); !error.empty()) {
          return "'" + text + "': " + error;
        }
        return {};
      },
      "");
}

CLI::Validator assignment_list() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto equals = text.find('=');
        if (equals == std::string::npos || equals == 0) return "'" + text + "' is not NAME=V1,V2,...";
        std::istringstream values(text.substr(equals + 1));
        std::size_t count = 0;
        for (std::string item; std::getline(values, item, ',');) {
          double value = 0;
          if (std::string error = read_number(item, value); !error.empty()) return "'" + text + "': " + error;
          ++count;
        }
        if (count == 0) return "'" + text + "' has no value";
        return {};
      },
      "");
}

CLI::Validator one_of(std::vector<std::string> names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return CLI::Validator(
      [names = std::move(names), list](std::string& text) -> std::string {
        for (const std::string& name : names) {
          if (name == text) return {};
        }
        return "unknown '" + text + "' (known: " + list + ")";
      },
      "");
}

GainRange parse_gain_range(const std::string& text) { return studies::parse_gain_range(text, "--k"); }

}  // namespace energy_audit::cli
