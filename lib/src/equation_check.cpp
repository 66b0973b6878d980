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

namespace {
/// residual / scale with the check's edge cases: 0 for 0 / 0, +inf for a residual without a scale.
double relative(double residual, double scale) {
  if (residual == 0) return 0.0;
  if (scale == 0 || !std::isfinite(residual)) return std::numeric_limits<double>::infinity();
  return residual / scale;
}
}  // namespace

double EquationCheck::relative_residual() const {
  // Non-finite terms (a diverging state, or accelerations gone NaN) leave nothing to vouch for.
  if (!all_finite_) return std::numeric_limits<double>::infinity();
  return relative(max_residual_, max_scale_);
}

std::vector<CoordinateResidual> EquationCheck::coordinate_residuals() const {
  std::vector<CoordinateResidual> coordinates(max_coordinate_residual_.size());
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    // A non-finite scale leaves no equation vouched for, as in relative_residual().
    coordinates[i].relative_residual = scales_finite_
                                           ? relative(max_coordinate_residual_[i], max_scale_)
                                           : std::numeric_limits<double>::infinity();
    coordinates[i].first_above_threshold = first_above_threshold_[i];
    coordinates[i].time_of_largest = time_of_largest_[i];
  }
  return coordinates;
}

}  // namespace energy_audit
