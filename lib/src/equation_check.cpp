#include "energy_audit/equation_check.hpp"

#include <cmath>
#include <limits>

#include "energy_audit/error.hpp"

namespace energy_audit {

EquationCheck::EquationCheck(double threshold) : threshold_(threshold) {
  if (!(threshold_ >= 0) || !std::isfinite(threshold_)) {
    throw InvalidArgument("equation check threshold must be finite and >= 0");
  }
}

double EquationCheck::relative_residual() const {
  // Non-finite terms (a diverging state, or accelerations gone NaN) leave nothing to vouch for.
  if (!all_finite_) return std::numeric_limits<double>::infinity();
  if (max_residual_ == 0) return 0.0;
  if (max_scale_ == 0) return std::numeric_limits<double>::infinity();
  return max_residual_ / max_scale_;
}

}  // namespace energy_audit
