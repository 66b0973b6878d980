#pragma once
/// \file
/// Example 1 of seed 001 (A. W. Beshaw, "On Solving Differential Kinematic Equations for
/// Constrained Mechanical Systems"; docs/models.md, the ellipse): a point q = [x, y] moved along
/// the ellipse f(x, y) = (9x² + y² − 9)/2 = 0 at rate c by the kinematic equations q̇ = N c + f_q⁺
/// (k f) (kinematic_system.hpp), with N = [y, −9x]ᵀ the generalized cross product of f_q = [9x, y]:
///
///     x' = c y + 9x k f / (81x² + y²),    y' = −9c x + y k f / (81x² + y²).
///
/// Along exact solutions f' = k f; with k = 0 from (1, 0) the motion is x = cos 3ct,
/// y = −3 sin 3ct. The constraint attracts for k < 0.

#include <cmath>
#include <numbers>
#include <vector>

#include <energy_audit/types.hpp>

namespace energy_audit::examples {

struct Ellipse {
  static constexpr int coordinates = 2;
  static constexpr int constraints = 1;

  double c = 1.0;  ///< the free velocity parameter [1/s]
  double k = 0.0;  ///< the gain K = k [1/s]

  template <class S>
  VectorN<S, 1> position_constraints(const VectorN<S, 2>& q, const S&) const {
    return VectorN<S, 1>(0.5 * (9.0 * q[0] * q[0] + q[1] * q[1] - 9.0));
  }
  VectorN<double, 1> free_velocities(double) const { return VectorN<double, 1>(c); }
  Eigen::Matrix<double, 1, 1> gain() const { return Eigen::Matrix<double, 1, 1>(k); }

  /// `count` points on the constraint, (cos θ_j, 3 sin θ_j) with θ_j = (j + ½) 2π / count, where
  /// the transverse multiplier is averaged (the command line takes 4096 of them).
  static std::vector<Vector> constraint_points(int count) {
    std::vector<Vector> points;
    for (int j = 0; j < count; ++j) {
      const double theta = (j + 0.5) * 2.0 * std::numbers::pi / count;
      points.push_back(Eigen::Vector2d(std::cos(theta), 3.0 * std::sin(theta)));
    }
    return points;
  }
  /// The rate of the rotation along the ellipse, 3c: a step h turns it by w = 3 c h.
  double rotation_rate() const { return 3.0 * c; }
};

}  // namespace energy_audit::examples
