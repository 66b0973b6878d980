#pragma once
/// \file
/// The names the command line and Python give the values of an enum option (--stabilize,
/// --phase): one table per option, from which the names printed and the choices both front ends
/// accept are taken.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace energy_audit::studies {

/// A value of an enum option and its name.
template <class Enum>
struct NamedValue {
  const char* name;
  Enum value;
};

/// The name of `value` in `table` (a range of NamedValue<Enum>); nullptr when it has none.
template <class Table, class Enum>
constexpr const char* name_in(const Table& table, Enum value) {
  for (const NamedValue<Enum>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return nullptr;
}

/// The value named `name` in `table`; absent when no value has that name.
template <class Enum, class Table>
std::optional<Enum> value_named(const Table& table, std::string_view name) {
  for (const NamedValue<Enum>& entry : table) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

/// The (name, value) pairs of `table` in its order: the choices a front end offers.
template <class Enum, class Table>
std::vector<std::pair<std::string, Enum>> choices_of(const Table& table) {
  std::vector<std::pair<std::string, Enum>> choices;
  for (const NamedValue<Enum>& entry : table) choices.emplace_back(entry.name, entry.value);
  return choices;
}

/// The names of `table` in its order, joined by `separator` ("none|baumgarte|ggl").
template <class Table>
std::string names_joined(const Table& table, std::string_view separator) {
  std::string text;
  for (const auto& entry : table) {
    if (!text.empty()) text += separator;
    text += entry.name;
  }
  return text;
}

}  // namespace energy_audit::studies
