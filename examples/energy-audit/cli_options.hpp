#pragma once
/// \file
/// CLI11 validators with messages that name what was wrong ("--step: -1 must be > 0"), the
/// NAME=VALUE type of --set and --init, and the FIRST:STEP:LAST range of --k. CLI11 prefixes each
/// message with the option's name.

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include <energy_audit/studies/assignment.hpp>
#include <energy_audit/studies/gain_range.hpp>

namespace energy_audit::cli {

/// A finite number ("abc", "inf" and "nan" are refused).
CLI::Validator finite_number();
/// A finite number > 0.
CLI::Validator positive_number();
/// A finite number >= 0.
CLI::Validator non_negative_number();
/// A whole number in [1, max] (no sign, no fraction, no exponent, no leading zero; too large is
/// refused, not clamped).
CLI::Validator positive_count(unsigned long long max);
/// NAME=VALUE with a non-empty NAME and a finite VALUE.
CLI::Validator assignment();
/// NAME=V1,V2,... with a non-empty NAME and finite values (sweep's --set and --init).
CLI::Validator assignment_list();
/// One of `names`; the message lists them.
CLI::Validator one_of(std::vector<std::string> names);

/// NAME=VALUE as given to --set and --init, NAME=V1,V2,... as given to sweep's: CLI11 reads
/// them with the studies' operator>> (checked beforehand by assignment() and assignment_list()).
using studies::Assignment;
using studies::AssignmentList;

/// FIRST:STEP:LAST, as --k takes it (gain_range.hpp).
using studies::GainRange;
/// Reads "a:s:b"; throws UsageError naming --k for anything else (s must be > 0, b ≥ a).
GainRange parse_gain_range(const std::string& text);

/// A choice among named values for an enum option: `choice` is the validator that maps a name
/// to the value CLI11 then stores (message: "'memory' is none of state, quadrature").
template <class Enum>
CLI::Validator choice(std::vector<std::pair<std::string, Enum>> names) {
  std::string list;
  for (const auto& [name, value] : names) list += (list.empty() ? "" : ", ") + name;
  CLI::Validator validator(
      [names, list](std::string& text) -> std::string {
        for (const auto& [name, value] : names) {
          if (name == text) {
            text = std::to_string(static_cast<int>(value));
            return {};
          }
        }
        return "'" + text + "' is none of " + list;
      },
      "{" + list + "}");
  return validator;
}

}  // namespace energy_audit::cli
