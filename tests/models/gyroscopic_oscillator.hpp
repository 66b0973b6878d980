#pragma once
// Test model: a mass on an isotropic spring in the plane, q = [x, y], T = m/2 (vx² + vy²),
// V = k/2 (x² + y²), no other forces. Its hand-derived accelerations may carry a wrong gyroscopic
// term b (v_y, −v_x) / m. That force is perpendicular to v and does no work, so the wrong
// equations conserve T + V exactly and pass the energy audit, while their solution rotates away
// from the true one at b / (2 m) rad/s. The closed form is that of the correct equations (b = 0).

#include <cmath>

#include <energy_audit/types.hpp>

namespace energy_audit::testing {

struct GyroscopicOscillator {
  static constexpr int dofs = 2;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = VectorN<S, 2>;

  double mass = 1.0;        // [kg]
  double stiffness = 4.0;   // [N/m]: omega = 2 rad/s
  double wrong_gyroscopic_coefficient = 0.0;  // b [N s/m]: 0 gives the correct equations

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * mass * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return 0.5 * stiffness * (q[0] * q[0] + q[1] * q[1]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }

  /// m a = −k q, plus the wrong b (v_y, −v_x) when b ≠ 0.
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v, double) const {
    const double b = wrong_gyroscopic_coefficient;
    return {(-stiffness * q[0] + b * v[1]) / mass, (-stiffness * q[1] - b * v[0]) / mass};
  }

  double omega() const { return std::sqrt(stiffness / mass); }
  /// The solution of the correct equations from q0, v0 at t = 0: q0 cos ωt + (v0 / ω) sin ωt.
  Coordinates<double> exact_position(const Coordinates<double>& q0, const Coordinates<double>& v0, double t) const {
    return q0 * std::cos(omega() * t) + v0 * (std::sin(omega() * t) / omega());
  }
};

}  // namespace energy_audit::testing
