#include "energy_audit/sundials/adaptive_interval.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace energy_audit::sun {
namespace {

// SUNDIALS tests the direction of integration by the sign of a product of two time differences:
// (t1 - t0)^2 in CVODE, (t1 - t0) h0 in IDAS with its first step h0 (at most 1e-3 (t1 - t0)).
// Below t1 - t0 = 1e-160 or so the product underflows to 0, which both read as "tstop is behind
// t0"; from 1e-150 on, CVODE's is a normal number and IDAS's is not 0 for any h0 above 1e-170.
constexpr double shortest_length = 1e-150;

// In roundoff units of max(|t0|, |t1|): CVODE's smallest first step (the lower bound in cvHin).
// SUNDIALS itself refuses intervals below 2 (CVODE) or 4 (IDAS) units; shorter than 100 units,
// no step can move t by a meaningful amount.
constexpr double shortest_roundoffs = 100;

// The shortest text that reads back as the same double, so that t0 and t1 a few roundoff units
// apart print differently ("1.0000000000000022").
std::string exact_text(double value) {
  char buffer[32];
  char* const end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return {buffer, end};
}

}  // namespace

std::string adaptive_interval_problem(double t0, double t1) {
  const std::string interval = "the interval [" + exact_text(t0) + ", " + exact_text(t1) + "]";
  if (!std::isfinite(t0) || !std::isfinite(t1)) return interval + " must be finite";
  if (!(t1 > t0)) return interval + " must have t_end > t0";
  const double roundoff = std::numeric_limits<double>::epsilon() * std::max(std::abs(t0), std::abs(t1));
  const double shortest = std::max(shortest_length, shortest_roundoffs * roundoff);
  if (t1 - t0 >= shortest) return {};
  const std::string why =
      shortest == shortest_length
          ? "below it, SUNDIALS' products of time differences underflow"
          : exact_text(shortest_roundoffs) + " roundoff units of t, CVODE's smallest first step";
  return interval + " is too short for CVODES and IDAS to start: t_end - t0 must be at least " +
         exact_text(shortest) + " (" + why + ")";
}

}  // namespace energy_audit::sun
