#pragma once
// The studies' one-line texts (explanations, notes): printf's formatting into a string, cut at
// 320 characters, which no line the studies write reaches.

#include <cstdio>
#include <string>

namespace energy_audit::studies::detail {

inline std::string printf_text(const char* pattern, auto... values) {
  char text[320];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

}  // namespace energy_audit::studies::detail
