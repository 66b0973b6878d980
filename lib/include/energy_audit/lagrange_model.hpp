#pragma once
/// \file
/// What a Lagrange model (docs/mathematics.md) provides, checked as C++20 concepts.
///
/// A model is a small struct with `static constexpr int dofs` and three templates over the
/// scalar type S (double, or the library's automatic-differentiation number Dual, whose
/// functions dual.hpp lists):
///
///     template <class S> S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const;  // T [J]
///     template <class S> S potential_energy(const Coordinates<S>& q, const S& t) const;                         // V [J]
///     template <class S> Coordinates<S> forces(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const;  // f
///
/// with Coordinates<S> = VectorN<S, dofs>. Optional:
///   - `accelerations(q, v, t)` over double: accelerations derived by hand, which the audit checks;
///   - `static constexpr bool scleronomic = true`: T and V do not depend on t explicitly and T is
///     homogeneous quadratic in v (T1 = T0 = 0). It only saves work; LagrangeSystem verifies it.
///   - `static constexpr double divergence_bound`: a fixed-step run ends as diverged after the
///     first step that leaves an entry of q or v beyond it in magnitude (as after one that leaves
///     the state non-finite), for models whose reference declares such motion unstable.

#include <concepts>

#include "energy_audit/types.hpp"

namespace energy_audit {

template <class M>
concept LagrangeModel =
    requires { requires M::dofs > 0; } &&
    requires(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
             double t) {
      { model.kinetic_energy(q, v, t) } -> std::convertible_to<double>;
      { model.potential_energy(q, t) } -> std::convertible_to<double>;
      { model.forces(q, v, t) } -> std::convertible_to<VectorN<double, M::dofs>>;
    };

/// A model that also carries accelerations a(q, v, t) derived by hand (docs/mathematics.md).
template <class M>
concept HasHandAccelerations =
    LagrangeModel<M> &&
    requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
      { model.accelerations(q, q, t) } -> std::convertible_to<VectorN<double, M::dofs>>;
    };

/// A model that declares `static constexpr double divergence_bound`: |q_i| or |v_i| beyond it is
/// a numerically unstable run.
template <class M>
concept HasDivergenceBound = requires {
  { M::divergence_bound } -> std::convertible_to<double>;
};

/// True when the model declares `static constexpr bool scleronomic = true`.
template <class M>
inline constexpr bool is_scleronomic = requires { requires M::scleronomic; };

}  // namespace energy_audit
