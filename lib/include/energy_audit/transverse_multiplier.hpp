#pragma once
/// \file
/// The transverse multiplier of one fixed step on a kinematic system with one constraint
/// (docs/models.md, the ellipse): how much a small constraint error grows per step on average along
/// the constraint. At points p_j with f(p_j) = 0, with n_j = ∇f/|∇f| and Φ one step of length h,
///
///     m_j = d/ds f(Φ(p_j + s n_j)) at s = 0, divided by |∇f(p_j)|,   rho = exp(mean_j log|m_j|),
///
/// the derivative by a central difference with s = 1e-6 (its error, O(s²) from the third
/// derivative and O(ε/s) from round-off, is about 1e-10 of m_j on the ellipse). rho < 1: a small
/// constraint error shrinks per step on average; rho > 1: the constraint repels.

#include <cmath>
#include <vector>

#include "energy_audit/kinematic_system.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

template <class Stepper, KinematicModel M>
  requires(M::constraints == 1)
double transverse_multiplier(Stepper& stepper, const KinematicSystem<M>& system, double h, double t,
                             const std::vector<Vector>& points) {
  constexpr double s = 1e-6;
  const auto f_after_step = [&](const Vector& start) {
    Vector q = start;
    stepper.do_step(system, q, t, h);
    return system.constraint_values(q, t + h)[0];
  };
  double log_sum = 0;
  for (const Vector& p : points) {
    const Vector gradient = system.constraint_terms(p, t).f_q.row(0).transpose();
    const double length = gradient.norm();
    const Vector normal = gradient / length;
    const double derivative = (f_after_step(p + s * normal) - f_after_step(p - s * normal)) / (2 * s);
    log_sum += std::log(std::abs(derivative / length));
  }
  return std::exp(log_sum / static_cast<double>(points.size()));
}

}  // namespace energy_audit
