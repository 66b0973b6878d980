#pragma once
// "1.234e-09": δ_C as the command line's summary prints it, in the reprs of RunResult and
// TrajectoryAudit.
#include <cstdio>
#include <string>

namespace energy_audit::python {

inline std::string drift_text(double delta_C) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", delta_C);
  return text;
}

}  // namespace energy_audit::python
