#include <energy_audit/studies/assignment.hpp>

#include <charconv>
#include <iterator>
#include <sstream>

namespace energy_audit::studies {
namespace {

/// All of what is left in `in`, blanks included, as a validator sees an option's text (`in >>`
/// would stop at the first blank); the fail bit when nothing is left.
std::string read_all(std::istream& in) {
  std::string text(std::istreambuf_iterator<char>(in), {});
  if (text.empty()) in.setstate(std::ios::failbit);
  return text;
}

}  // namespace

bool parse_number(const std::string& text, double& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && stop == end && error == std::errc();
}

std::istream& operator>>(std::istream& in, Assignment& a) {
  const std::string text = read_all(in);
  const auto equals = text.find('=');
  if (equals == std::string::npos || !parse_number(text.substr(equals + 1), a.value)) {
    in.setstate(std::ios::failbit);
    return in;
  }
  a.name = text.substr(0, equals);
  return in;
}

std::istream& operator>>(std::istream& in, AssignmentList& a) {
  const std::string text = read_all(in);
  const auto equals = text.find('=');
  if (equals == std::string::npos) {
    in.setstate(std::ios::failbit);
    return in;
  }
  a.name = text.substr(0, equals);
  a.values.clear();
  std::istringstream values(text.substr(equals + 1));
  for (std::string item; std::getline(values, item, ',');) {
    double value = 0;
    if (!parse_number(item, value)) {
      in.setstate(std::ios::failbit);
      return in;
    }
    a.values.push_back(value);
  }
  return in;
}

}  // namespace energy_audit::studies
