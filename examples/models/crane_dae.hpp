#pragma once
/// \file
/// The trolley crane of seed 002 in its absolute coordinates (docs/models.md, crane-dae):
/// q = [x1, x2, y2, phi] with the rod centre (x2, y2) tied to the trolley by two holonomic,
/// scleronomic constraints (eq. 13). The multipliers are reported in the seed's sign:
/// [F_Ax, F_Ay] = −λ, with λ the multipliers of M a = r + Gᵀλ.

#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include <energy_audit/model_description.hpp>

#include "crane.hpp"

namespace energy_audit::examples {

struct CraneDae : CraneParameters {
  static constexpr int dofs = 4;
  static constexpr int constraints = 2;
  static constexpr bool scleronomic = true;
  static constexpr double reported_multiplier_sign = -1.0;
  template <class S>
  using Coordinates = VectorN<S, dofs>;

  static constexpr std::array<std::string_view, dofs> coordinate_names() { return {"x1", "x2", "y2", "phi"}; }
  static constexpr std::array<std::string_view, constraints> multiplier_names() { return {"F_Ax", "F_Ay"}; }
  /// Maggi's form by default: the trolley's and the rod's velocities, as in crane.
  static constexpr std::array<std::string_view, dofs - constraints> independent_velocities() { return {"x1", "phi"}; }

  /// crane's four initial values (CraneParameters::initial_values); the rod centre follows from
  /// the constraints.
  InitialState<dofs> initial_state() const {
    const double c = std::cos(phi_0), sn = std::sin(phi_0);
    return {{x1_0, (l / 2) * c - x1_0, (l / 2) * sn, phi_0},
            {x1_dot_0, -(l / 2) * sn * phi_dot_0 - x1_dot_0, (l / 2) * c * phi_dot_0, phi_dot_0}};
  }

  template <class S>
  S kinetic_energy(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    const double J = m2 * l * l / 12;
    return 0.5 * (m1 * v[0] * v[0] + m2 * v[1] * v[1] + m2 * v[2] * v[2] + J * v[3] * v[3]);
  }

  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& /*t*/) const {
    return 0.5 * s * q[0] * q[0] + m2 * g * q[2];
  }

  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    return {-k * v[0], S(0.0), S(0.0), S(0.0)};
  }

  /// f by name, for the work ledger: the damper on the trolley, as in crane.
  static constexpr std::array<std::string_view, 1> force_names() { return {"damper"}; }
  std::array<Coordinates<double>, 1> named_forces(const Coordinates<double>& q, const Coordinates<double>& v,
                                                  double t) const {
    return {forces(q, v, t)};
  }

  /// Φ(q) = [x1 + x2 − (l/2) cos phi; y2 − (l/2) sin phi] (seed 002 eq. 13).
  template <class S>
  VectorN<S, constraints> position_constraints(const Coordinates<S>& q, const S& /*t*/) const {
    using std::cos, std::sin;
    return {q[0] + q[1] - (l / 2) * cos(q[3]), q[2] - (l / 2) * sin(q[3])};
  }
};

}  // namespace energy_audit::examples
