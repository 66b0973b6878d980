#include "energy_audit/integrate_const.hpp"

#include <cmath>

namespace energy_audit {

std::size_t fixed_step_count(double t0, double t1, double h) {
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t1 > t0)) {
    throw InvalidArgument("interval must be finite with t_end > t0");
  }
  if (!std::isfinite(h) || !(h > 0)) throw InvalidArgument("step must be finite and > 0");
  const double ratio = (t1 - t0) / h;
  const double nearest = std::round(ratio);
  const double count = std::abs(ratio - nearest) <= 1e-9 * std::max(1.0, ratio) ? nearest : std::ceil(ratio);
  // Beyond 2^53 steps, t0 + k h no longer advances reliably (and size_t may not hold the count).
  if (!(count <= max_fixed_step_count)) {
    throw InvalidArgument("step " + to_text(h) + " gives " + to_text(count) + " steps over [" + to_text(t0) + ", " +
                          to_text(t1) + "], more than " + to_text(max_fixed_step_count));
  }
  return static_cast<std::size_t>(std::max(1.0, count));
}

}  // namespace energy_audit
