#pragma once
// Test model: harmonic oscillator m q'' = -c q' - s q, with the closed-form solution from
// q(0) = q0, v(0) = 0.

#include <cmath>

#include <energy_audit/types.hpp>

namespace energy_audit::testing {

struct Oscillator {
  static constexpr int dofs = 1;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = VectorN<S, 1>;

  double mass = 2.0;
  double stiffness = 18.0;  // omega = 3 rad/s
  double damping = 0.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * mass * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return 0.5 * stiffness * q[0] * q[0];
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return Coordinates<S>(-damping * v[0]);
  }
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double) const {
    return Coordinates<double>((-damping * v[0] - stiffness * q[0]) / mass);
  }

  /// Undamped closed form q(t) = q0 cos(omega t).
  double exact_position(double q0, double t) const { return q0 * std::cos(std::sqrt(stiffness / mass) * t); }
  double exact_velocity(double q0, double t) const {
    const double omega = std::sqrt(stiffness / mass);
    return -q0 * omega * std::sin(omega * t);
  }
};

}  // namespace energy_audit::testing
