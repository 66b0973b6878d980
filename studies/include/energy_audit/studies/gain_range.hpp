#pragma once
/// \file
/// The gains k of a stability map (stability_map.hpp) as FIRST:STEP:LAST: FIRST, FIRST + STEP,
/// ... up to LAST, as `energy-audit stability --k` and Python's `stability(k=...)` take them.

#include <string>
#include <vector>

namespace energy_audit::studies {

struct GainRange {
  double first = 0, step = 1, last = 0;
  /// FIRST, FIRST + STEP, ... up to LAST (within 1e-9 STEP).
  std::vector<double> values() const;
};

/// Reads "a:s:b"; throws SettingsError naming `option` for anything else (s must be > 0, b ≥ a,
/// at most a million gains).
GainRange parse_gain_range(const std::string& text, const std::string& option);

}  // namespace energy_audit::studies
