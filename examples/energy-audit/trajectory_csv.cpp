#include "trajectory_csv.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
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

namespace {

/// The samples read from `in`; messages name the file as `name` ("'a.csv'", "standard input").
TrajectorySamples read_samples(std::istream& in, const std::string& name,
                               const std::vector<std::string>& coordinate_names) {
  const auto cannot_read = [&](int error) {
    return UsageError("FILE: cannot read " + name + ": " + std::strerror(error));
  };
  const std::vector<std::string> expected = trajectory_columns(coordinate_names);
  std::string expected_header;
  for (const std::string& c : expected) expected_header += (expected_header.empty() ? "" : ",") + c;
  const auto fail = [&](std::size_t line, const std::string& what) -> UsageError {
    return UsageError("FILE: " + name + ", line " + std::to_string(line) + ": " + what);
  };
  const std::string needed = "the header must name " + expected_header + " (other columns are skipped)";
  std::string line;
  if (!std::getline(in, line)) {
    if (in.bad()) throw cannot_read(errno);
    throw fail(1, "empty; " + needed);
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  // Where each needed column is: a run's history (`run --csv`) has more of them, in its own order.
  const std::vector<std::string> header = split(line);
  std::vector<std::size_t> position;
  for (const std::string& column : expected) {
    const auto found = std::find(header.begin(), header.end(), column);
    if (found == header.end()) throw fail(1, "the header '" + line + "' has no column " + column + "; " + needed);
    if (std::find(found + 1, header.end(), column) != header.end()) {
      throw fail(1, "the header '" + line + "' has two columns " + column);
    }
    position.push_back(static_cast<std::size_t>(found - header.begin()));
  }
  const auto n = static_cast<Index>(coordinate_names.size());
  std::vector<std::vector<double>> rows;
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line);
    if (fields.size() != header.size()) {
      throw fail(number, std::to_string(fields.size()) + " fields; the header has " + std::to_string(header.size()));
    }
    std::vector<double> row(expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      const std::string& f = fields[position[k]];
      const auto [end, error] = std::from_chars(f.data(), f.data() + f.size(), row[k]);
      if (error != std::errc() || end != f.data() + f.size() || !std::isfinite(row[k])) {
        throw fail(number, expected[k] + " = '" + f + "' is not a finite number");
      }
    }
    if (!rows.empty() && !(row[0] > rows.back()[0])) {
      throw fail(number, "t = " + fields[position[0]] + " does not increase");
    }
    rows.push_back(std::move(row));
  }
  if (in.bad()) throw cannot_read(errno);
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

}  // namespace

TrajectorySamples read_trajectory_csv(const std::string& path, const std::vector<std::string>& coordinate_names) {
  if (path == "-") return read_samples(std::cin, "standard input", coordinate_names);
  // ifstream opens a directory and reads nothing from it, and says nothing of why an open failed.
  const auto cannot_read = [&](int error) {
    return UsageError("FILE: cannot read " + quoted_path(path) + ": " + std::strerror(error));
  };
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) throw cannot_read(errno);
  if (S_ISDIR(status.st_mode)) throw cannot_read(EISDIR);
  std::ifstream in(path);
  if (!in) throw cannot_read(errno);
  return read_samples(in, quoted_path(path), coordinate_names);
}

}  // namespace energy_audit::cli
