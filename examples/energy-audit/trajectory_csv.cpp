#include "trajectory_csv.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "output_file.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(field);
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

}  // namespace

std::vector<std::string> trajectory_columns(const std::vector<std::string>& coordinate_names) {
  std::vector<std::string> columns{"t"};
  for (const char* suffix : {"", "_dot", "_ddot"}) {
    for (const std::string& name : coordinate_names) columns.push_back(name + suffix);
  }
  return columns;
}

TrajectorySamples read_trajectory_csv(const std::string& path, const std::vector<std::string>& coordinate_names) {
  std::ifstream in(path);
  if (!in) throw UsageError("FILE: cannot read " + quoted_path(path));
  const std::vector<std::string> expected = trajectory_columns(coordinate_names);
  std::string expected_header;
  for (const std::string& c : expected) expected_header += (expected_header.empty() ? "" : ",") + c;
  const auto fail = [&](std::size_t line, const std::string& what) -> UsageError {
    return UsageError("FILE: " + quoted_path(path) + ", line " + std::to_string(line) + ": " + what);
  };
  std::string line;
  if (!std::getline(in, line)) throw fail(1, "empty; the header must be " + expected_header);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (split(line) != expected) throw fail(1, "the header is '" + line + "'; it must be " + expected_header);
  const auto n = static_cast<Index>(coordinate_names.size());
  std::vector<std::vector<double>> rows;
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line);
    if (fields.size() != expected.size()) {
      throw fail(number, std::to_string(fields.size()) + " fields; the header has " + std::to_string(expected.size()));
    }
    std::vector<double> row(fields.size());
    for (std::size_t k = 0; k < fields.size(); ++k) {
      const std::string& f = fields[k];
      const auto [end, error] = std::from_chars(f.data(), f.data() + f.size(), row[k]);
      if (error != std::errc() || end != f.data() + f.size() || !std::isfinite(row[k])) {
        throw fail(number, expected[k] + " = '" + f + "' is not a finite number");
      }
    }
    if (!rows.empty() && !(row[0] > rows.back()[0])) {
      throw fail(number, "t = " + fields[0] + " does not increase");
    }
    rows.push_back(std::move(row));
  }
  if (rows.size() < 2) throw fail(1, std::to_string(rows.size()) + " samples; at least 2 are needed");
  const auto count = static_cast<Index>(rows.size());
  TrajectorySamples s{Vector(count), Matrix(n, count), Matrix(n, count), Matrix(n, count)};
  for (Index i = 0; i < count; ++i) {
    const std::vector<double>& row = rows[static_cast<std::size_t>(i)];
    s.t[i] = row[0];
    for (Index j = 0; j < n; ++j) {
      s.q(j, i) = row[static_cast<std::size_t>(1 + j)];
      s.v(j, i) = row[static_cast<std::size_t>(1 + n + j)];
      s.a(j, i) = row[static_cast<std::size_t>(1 + 2 * n + j)];
    }
  }
  return s;
}

}  // namespace energy_audit::cli
