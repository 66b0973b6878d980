#pragma once
/// \file
/// A first-order kinematic model (seed 001; docs/mathematics.md, constraint
/// stabilization): n coordinates q that must keep m holonomic constraints f(q, t) = 0, moved
/// along the constraints by free velocity parameters c(t). The library builds the rates
/// q̇ = N(q, t) c + f_q⁺ (K f − f_t) from f alone (kinematic_system.hpp). The model gives:
///
///     static constexpr int coordinates;   // n
///     static constexpr int constraints;   // m, 0 < m < n
///     template <class S> VectorN<S, m> position_constraints(const VectorN<S, n>& q, const S& t) const;  // f
///     VectorN<double, n - m> free_velocities(double t) const;                                      // c
///     Eigen::Matrix<double, m, m> gain() const;                                                    // K
///
/// f is a template over the scalar S, as a Lagrange model's energies are (dual.hpp lists what it
/// may use): the library takes f_q and f_t by automatic differentiation. Along the exact flow
/// ḟ = K f, so the constraints attract for K negative definite (K = k I with k < 0).

#include <concepts>

#include <Eigen/Core>

#include "energy_audit/types.hpp"

namespace energy_audit {

template <class M>
concept KinematicModel =
    requires {
      { M::coordinates } -> std::convertible_to<int>;
      { M::constraints } -> std::convertible_to<int>;
      requires M::constraints > 0 && M::constraints < M::coordinates;
    } &&
    requires(const M& model, const VectorN<double, M::coordinates>& q, double t) {
      { model.position_constraints(q, t) } -> std::convertible_to<VectorN<double, M::constraints>>;
      { model.free_velocities(t) } -> std::convertible_to<VectorN<double, M::coordinates - M::constraints>>;
      { model.gain() } -> std::convertible_to<Eigen::Matrix<double, M::constraints, M::constraints>>;
    };

}  // namespace energy_audit
