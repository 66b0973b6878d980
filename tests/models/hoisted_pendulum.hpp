#pragma once
// Test model: a point mass on a rope whose length is driven, l(t) = L0 + A sin(w t) (a hoist).
// q = [x, y], y up. The rheonomic constraint does work on the mass, which Z must carry through
// -v^T G^T lambda. Written twice: with the position constraint Phi = (x^2 + y^2 - l^2) / 2, and
// with its velocity form psi = x x' + y y' - l l' given directly (a kinematic constraint).

#include <cmath>

#include <energy_audit/types.hpp>

namespace energy_audit::testing {

struct HoistedPendulumEnergies {
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  template <class S>
  using Coordinates = VectorN<S, 2>;

  double m = 2.0, g = 9.81, L0 = 1.0, A = 0.2, w = 3.0;

  template <class S>
  S length(const S& t) const {
    using std::sin;
    return L0 + A * sin(w * t);
  }
  template <class S>
  S length_rate(const S& t) const {
    using std::cos;
    return A * w * cos(w * t);
  }
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return m * g * q[1];
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }

  /// A consistent start at angle theta0 from the downward vertical, swinging at rate theta_dot0.
  void start(double theta0, double theta_dot0, Coordinates<double>& q, Coordinates<double>& v) const {
    const double l = length(0.0), l_dot = length_rate(0.0);
    const double s = std::sin(theta0), c = std::cos(theta0);
    q = {l * s, -l * c};
    v = {l_dot * s + l * c * theta_dot0, -l_dot * c + l * s * theta_dot0};
  }
};

struct HoistedPendulum : HoistedPendulumEnergies {
  template <class S>
  VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S& t) const {
    const S l = length(t);
    return VectorN<S, 1>(0.5 * (q[0] * q[0] + q[1] * q[1] - l * l));
  }
};

struct HoistedPendulumKinematic : HoistedPendulumEnergies {
  template <class S>
  VectorN<S, 1> velocity_constraints(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    return VectorN<S, 1>(q[0] * v[0] + q[1] * v[1] - length(t) * length_rate(t));
  }
};

}  // namespace energy_audit::testing
