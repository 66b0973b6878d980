#pragma once
/// \file
/// NAME=VALUE, a value given to a model's parameter or initial value, and NAME=V1,V2,..., the
/// values a sweep runs through, with their reading from text.

#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace energy_audit::studies {

/// NAME=VALUE. Not an aggregate: CLI11 would otherwise build it from an option's text as
/// Assignment{text} instead of reading it with operator>>.
struct Assignment {
  Assignment() = default;
  Assignment(std::string name_, double value_) : name(std::move(name_)), value(value_) {}
  std::string name;
  double value = 0;
};

/// NAME=V1,V2,...: the values a sweep runs through.
struct AssignmentList {
  AssignmentList() = default;
  std::string name;
  std::vector<double> values;
};

/// Whether all of `text` is a number (std::from_chars' syntax: no sign '+', no blanks); it is
/// then in `value`.
bool parse_number(const std::string& text, double& value);

/// Reads NAME=VALUE from all that is left in `in`; the fail bit when it is not that.
std::istream& operator>>(std::istream& in, Assignment& a);
/// Reads NAME=V1,V2,... from all that is left in `in`; the fail bit when it is not that.
std::istream& operator>>(std::istream& in, AssignmentList& a);

}  // namespace energy_audit::studies
