#pragma once
// Test model: a point mass in the plane, q = [x, y], held on the line y = 0 by the rheonomic
// constraint Phi = (0.5 - t) y, which vanishes identically from t = 0.5 on. Its Jacobian
// G = [0, 0.5 - t] is singular at t = 0.5 and stays singular after it, so no integrator can step
// past; the multiplier holding the mass against gravity, m g / (0.5 - t), grows without bound.

#include <energy_audit/types.hpp>

namespace energy_audit::testing {

struct SingularConstraint {
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  template <class S>
  using Coordinates = VectorN<S, 2>;

  double m = 1.0, g = 9.81;

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
  template <class S>
  VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S& t) const {
    return VectorN<S, 1>(t < 0.5 ? S((0.5 - t) * q[1]) : S(0.0 * q[1]));
  }
};

/// Two copies of the same constraint y = 0: G has rank 1 of 2 everywhere.
struct DuplicatedConstraint : SingularConstraint {
  static constexpr int constraints = 2;
  template <class S>
  VectorN<S, 2> position_constraints(const Coordinates<S>& q, const S&) const {
    return VectorN<S, 2>(q[1], 2.0 * q[1]);
  }
};

}  // namespace energy_audit::testing
