#include "number_text.hpp"

#include <array>
#include <charconv>
#include <cstdio>

namespace energy_audit::cli {
namespace {

/// Room for any double: the shortest form takes at most 24 characters ("-2.2250738585072014e-308"),
/// a printf conversion of the tables' precisions far less than 64.
using NumberBuffer = std::array<char, 64>;

}  // namespace

void append_shortest_text(std::string& text, double value) {
  NumberBuffer buffer;
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  text.append(buffer.data(), result.ptr);
}

std::string shortest_text(double value) {
  std::string text;
  append_shortest_text(text, value);
  return text;
}

std::string printf_text(const char* spec, double value) {
  NumberBuffer buffer;
  std::snprintf(buffer.data(), buffer.size(), spec, value);
  return buffer.data();
}

std::string printf_text(const char* spec, int precision, double value) {
  NumberBuffer buffer;
  std::snprintf(buffer.data(), buffer.size(), spec, precision, value);
  return buffer.data();
}

}  // namespace energy_audit::cli
