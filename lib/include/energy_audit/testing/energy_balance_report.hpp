#pragma once
/// \file
/// What check_energy_balance() found, in a form a test framework can print: δ_C against its
/// threshold, when the drift was largest, the equation check, the verdict, and one line that
/// says what it means.

#include <cstddef>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>

#include "energy_audit/audit.hpp"

namespace energy_audit::testing {

struct EnergyBalanceReport {
  bool passed = false;               ///< the audit's verdict is Pass
  Verdict verdict = Verdict::Incomplete;
  double relative_drift = 0;         ///< δ_C
  double threshold = 0;              ///< δ_C must be ≤ this
  double time_of_max_drift = 0;      ///< where |C − C(t0)| was largest [s]
  double t_reached = 0;              ///< the last audited time [s]
  std::size_t steps = 0;             ///< audited states, the initial one included
  std::size_t equation_checks = 0;   ///< states at which Lagrange's equations were checked (0: derived, not checked)
  double equation_residual = 0;      ///< relative residual of Lagrange's equations (with equation_checks > 0)
  double equation_threshold = 0;     ///< the residual must be ≤ this
  std::string explanation;           ///< one line: the numbers and what they mean
};

namespace detail {
inline std::string formatted(const char* format, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, format, values...);
  return line;
}
}  // namespace detail

/// The report of a finished audit of a run with `method` and step `step`.
inline EnergyBalanceReport report_of(const Audit& audit, std::string_view method, double step) {
  const EquationCheck& equations = audit.equation_check();
  EnergyBalanceReport report{
      .passed = audit.passed(),
      .verdict = audit.verdict(),
      .relative_drift = audit.relative_drift(),
      .threshold = audit.threshold(),
      .time_of_max_drift = audit.time_of_max_drift(),
      .t_reached = audit.t_reached(),
      .steps = audit.accepted_steps(),
      .equation_checks = equations.checked_steps(),
      .equation_residual = equations.relative_residual(),
      .equation_threshold = equations.threshold(),
      .explanation = {},
  };
  const bool drift_holds = report.relative_drift <= report.threshold;
  const bool equations_hold = equations.passed();
  std::string& line = report.explanation;
  if (report.passed) {
    line = "energy balance holds: ";
  } else if (report.verdict == Verdict::Fail) {
    line = drift_holds ? "energy balance holds but the equations do not: " : "energy balance fails: ";
  } else {
    line = detail::formatted("run %s before its end, at t = %.6g: ", verdict_name(report.verdict), report.t_reached);
  }
  line += detail::formatted("delta_C = %.3g %s threshold %.3g, largest drift at t = %.6g (%.*s, h = %.3g, %zu states to t = %.6g); ",
                            report.relative_drift, drift_holds ? "<=" : ">", report.threshold,
                            report.time_of_max_drift, static_cast<int>(method.size()), method.data(), step,
                            report.steps, report.t_reached);
  if (report.equation_checks == 0) {
    line += "equations not checked (accelerations derived from T, V and the forces)";
  } else {
    line += detail::formatted("equation residual %.3g %s %.3g at %zu checked states", report.equation_residual,
                              equations_hold ? "<=" : ">", report.equation_threshold, report.equation_checks);
    if (!equations_hold) line += ": the accelerations do not follow from T, V and the forces";
  }
  return report;
}

/// Prints the explanation: `EXPECT_TRUE(report.passed) << report` in GoogleTest.
inline std::ostream& operator<<(std::ostream& out, const EnergyBalanceReport& report) {
  return out << report.explanation;
}

}  // namespace energy_audit::testing
