#pragma once
/// \file
/// Command-line usage errors (exit status 2) and the parsers that raise them, each naming the
/// argument it rejects.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace energy_audit::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// NAME=VALUE as given to --set and --init.
struct Assignment {
  std::string name;
  double value = 0;
};

/// A finite number; `option` names the argument in the error ("--step").
double parse_number(std::string_view option, const std::string& text);
/// A positive integer.
std::size_t parse_count(std::string_view option, const std::string& text);
/// NAME=VALUE with a non-empty name and a finite number.
Assignment parse_assignment(std::string_view option, const std::string& text);
/// Fails with UsageError naming `option` unless `path` can be opened for writing (it is
/// created, empty, if it did not exist): checked before a run, not after it.
void check_writable(std::string_view option, const std::string& path);

/// "a, b, c": names for a message.
std::string join(const std::vector<std::string>& names);

/// Comma-separated items, none empty.
std::vector<std::string> split_list(std::string_view option, const std::string& text);

}  // namespace energy_audit::cli
