#pragma once
// What two `energy-audit compare --csv` tables of the same runs share: everything but the wall
// times, which no two runs repeat.

#include <sstream>
#include <string>

/// The compare CSV without its wall_seconds column (the ninth).
inline std::string compare_csv_without_wall_times(const std::string& csv) {
  std::istringstream in(csv);
  std::string kept;
  for (std::string line; std::getline(in, line);) {
    std::size_t start = 0;
    for (int field = 0; field < 8; ++field) start = line.find(',', start) + 1;
    const std::size_t end = line.find(',', start);
    kept += line.substr(0, start) + line.substr(end + 1) + "\n";
  }
  return kept;
}
