#pragma once
/// \file
/// The equation check: sup ‖M a − r‖∞ / sup scale over the states it is given, the relative
/// residual of Lagrange's equations along a run (equation_residual.hpp), judged like δ_C.

#include <algorithm>
#include <cmath>
#include <cstddef>

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

/// Collects the residuals of the checked states; never evaluates the model itself.
class EquationCheck {
 public:
  /// Throws InvalidArgument for a threshold that is negative or not finite.
  explicit EquationCheck(double threshold = default_equation_residual_threshold);

  /// One checked state.
  void add(const EquationResidual& residual);

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

 private:
  double threshold_;
  double max_residual_ = 0, max_scale_ = 0;
  bool all_finite_ = true;  ///< std::max would drop a NaN, which must fail the check
  std::size_t checked_steps_ = 0;
};

inline void EquationCheck::add(const EquationResidual& residual) {
  all_finite_ = all_finite_ && std::isfinite(residual.residual) && std::isfinite(residual.scale);
  max_residual_ = std::max(max_residual_, residual.residual);
  max_scale_ = std::max(max_scale_, residual.scale);
  ++checked_steps_;
}

}  // namespace energy_audit
