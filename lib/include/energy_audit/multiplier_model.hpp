#pragma once
/// \file
/// A Lagrange model with m constraints and multipliers (docs/mathematics.md). Besides T, V and f it
/// gives `static constexpr int constraints` (m) and one of:
///
///     template <class S> VectorN<S, m> position_constraints(const Coordinates<S>& q, const S& t) const;
///         // holonomic Φ(q, t) = 0; then G = Φ_q and g = Φ_t
///     template <class S> VectorN<S, m> velocity_constraints(const Coordinates<S>& q, const Coordinates<S>& v,
///                                                           const S& t) const;
///         // kinematic ψ = G(q, t) v + g(q, t) = 0, linear in v
///
/// The library takes G, g and the acceleration-level term Ġ v + ġ from them by automatic
/// differentiation. Multipliers λ have the sign of M a = r + Gᵀλ.

#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

template <class M>
concept HolonomicConstraints =
    requires { requires M::constraints > 0; } &&
    requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
      { model.position_constraints(q, t) } -> std::convertible_to<VectorN<double, M::constraints>>;
    };

template <class M>
concept KinematicConstraints =
    requires { requires M::constraints > 0; } &&
    requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
      { model.velocity_constraints(q, q, t) } -> std::convertible_to<VectorN<double, M::constraints>>;
    };

template <class M>
concept MultiplierModel = LagrangeModel<M> && (HolonomicConstraints<M> || KinematicConstraints<M>);

}  // namespace energy_audit
