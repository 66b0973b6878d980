#pragma once
/// \file
/// The equation check: sup ‖M a − r‖∞ / sup scale over the states it is given, the relative
/// residual of Lagrange's equations along a run (equation_residual.hpp), judged like δ_C.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "energy_audit/equation_residual.hpp"

namespace energy_audit {

/// Pass threshold of the relative residual: relative_residual() ≤ 1e-8 passes.
///
/// Accelerations that solve the equations of the model's T, V and f leave round-off, of the
/// order of double's epsilon. A wrong term leaves its share of the equation's size: a flipped
/// sign or a missing term weighs a visible fraction of the equation, orders of magnitude more.
/// 1e-8 lies far from both: it leaves room for hand derivations that lose digits to cancellation
/// or to an ill-conditioned mass matrix, and it still flags a wrong term of 1e-8 of the
/// equation's size, far less than what moves a trajectory visibly.
///
/// tests/lib/equation_residual_test.cpp prints the example models' residuals (--log_level=message).
inline constexpr double default_equation_residual_threshold = 1e-8;

/// The equation of one coordinate along a run (docs/mathematics.md, the equation check).
struct CoordinateResidual {
  /// sup_t |(M a − r)_i| / sup_t scale, the scale that of the whole check: the largest over the
  /// coordinates is EquationCheck::relative_residual(). Same edge cases as that.
  double relative_residual = 0;
  /// The first checked time at which |(M a − r)_i| > threshold × (sup scale up to that state);
  /// NaN when at none. Every coordinate whose relative_residual is above the threshold has one.
  double first_above_threshold = std::numeric_limits<double>::quiet_NaN();
  /// The first checked time at which |(M a − r)_i| reached its sup; NaN while it is 0.
  double time_of_largest = std::numeric_limits<double>::quiet_NaN();
};

/// Collects the residuals of the checked states; never evaluates the model itself.
class EquationCheck {
 public:
  /// Throws InvalidArgument for a threshold that is negative or not finite.
  explicit EquationCheck(double threshold = default_equation_residual_threshold);

  /// One checked state at time t; the per-coordinate figures need residual.coordinates (and t
  /// for their times: NaN leaves the times NaN).
  void add(const EquationResidual& residual, double t = std::numeric_limits<double>::quiet_NaN());

  /// sup residual / sup scale over the checked states; 0 when both are 0 (no state checked, or
  /// equations with nothing in them), +inf when only the scale is 0, and +inf when a residual or
  /// a scale was not finite.
  double relative_residual() const;
  double max_residual() const { return max_residual_; }  ///< sup ‖M a − r‖∞
  double scale() const { return max_scale_; }            ///< sup of EquationResidual::scale
  std::size_t checked_steps() const { return checked_steps_; }
  double threshold() const { return threshold_; }
  /// relative_residual() ≤ threshold().
  bool passed() const { return relative_residual() <= threshold_; }
  /// Each coordinate's equation, in the model's order; empty when the residuals came without
  /// their coordinates.
  std::vector<CoordinateResidual> coordinate_residuals() const;

 private:
  double threshold_;
  double max_residual_ = 0, max_scale_ = 0;
  bool all_finite_ = true;  ///< std::max would drop a NaN, which must fail the check
  bool scales_finite_ = true;
  std::size_t checked_steps_ = 0;
  /// Per coordinate: sup |(M a − r)_i|, its time and the first time above the threshold; sized
  /// at the first state that brings coordinates, so that later states allocate nothing here.
  std::vector<double> max_coordinate_residual_, time_of_largest_, first_above_threshold_;
};

inline void EquationCheck::add(const EquationResidual& residual, double t) {
  all_finite_ = all_finite_ && std::isfinite(residual.residual) && std::isfinite(residual.scale);
  scales_finite_ = scales_finite_ && std::isfinite(residual.scale);
  max_residual_ = std::max(max_residual_, residual.residual);
  max_scale_ = std::max(max_scale_, residual.scale);
  ++checked_steps_;
  const auto n = static_cast<std::size_t>(residual.coordinates.size());
  if (n == 0) return;
  if (max_coordinate_residual_.size() != n) {
    constexpr double not_yet = std::numeric_limits<double>::quiet_NaN();
    max_coordinate_residual_.assign(n, 0.0);
    time_of_largest_.assign(n, not_yet);
    first_above_threshold_.assign(n, not_yet);
  }
  const double allowed = threshold_ * max_scale_;  // a NaN residual is above it (!(NaN <= x))
  for (std::size_t i = 0; i < n; ++i) {
    const double e = residual.coordinates[static_cast<Eigen::Index>(i)];
    if (!(e <= max_coordinate_residual_[i])) {
      max_coordinate_residual_[i] = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
      time_of_largest_[i] = t;
    }
    if (std::isnan(first_above_threshold_[i]) && !(e <= allowed)) first_above_threshold_[i] = t;
  }
}

}  // namespace energy_audit
