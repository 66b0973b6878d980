#pragma once
/// \file
/// A separable model: one whose motion splits into a drift that moves q at fixed velocities and a
/// kick that changes the velocities at fixed q, each of which can be integrated exactly. What
/// symplectic partitioned Runge–Kutta methods (ARKODE's SPRKStep) need (docs/mathematics.md,
/// symplectic methods).
///
/// A model declares it with `static constexpr bool separable = true` when
///   - T depends on the velocities alone, T = ½ vᵀ M v with a constant mass matrix M (no q, no t),
///     so that v = M⁻¹ p depends on the momenta alone, and
///   - the forces f depend on (q, t) alone, not on v (a driving force, not a damper);
/// V(q, t) may depend on t. Then Hamilton's q̇ = M⁻¹ p depends on p alone and ṗ = −∂V/∂q + f on
/// (q, t) alone (H = T(p) + V(q, t)), and in Lagrange's form q̇ = v and v̇ = M⁻¹ (−∂V/∂q + f).
/// check_separable verifies the declaration against the model's own T and f.

#include <cmath>
#include <string>
#include <type_traits>

#include "energy_audit/error.hpp"
#include "energy_audit/hamilton_system.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_system.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// True when the model declares `static constexpr bool separable = true`.
template <class M>
inline constexpr bool is_separable = requires {
  requires M::separable;
};

namespace detail {
template <class S>
inline constexpr bool is_separable_form = false;
template <class M>
inline constexpr bool is_separable_form<LagrangeSystem<M>> = is_separable<M>;
template <class M>
inline constexpr bool is_separable_form<HamiltonSystem<M>> = is_separable<M>;
}  // namespace detail

/// A form of a separable model whose rates split into q' from w alone and w' from (q, t) alone:
/// Lagrange's (w = v) or Hamilton's (w = p) form of a model that declares itself separable (the
/// multiplier forms are not: their constraint forces depend on the velocities).
template <class S>
concept SeparableSystem = PartitionedSystem<S> && detail::is_separable_form<S>;

/// Checks a `separable` declaration at generic states: T the same at two q and two t, T(2v) =
/// 4 T(v) (quadratic in v), and f the same at two v. Throws InvalidArgument naming the part that
/// contradicts it.
template <LagrangeModel M>
void check_separable(const M& model) {
  if constexpr (is_separable<M>) {
    constexpr int n = M::dofs;
    using Coordinates = VectorN<double, n>;
    const Coordinates q1 = Coordinates::LinSpaced(0.1, 0.1 * n),
                      q2 = Coordinates::LinSpaced(-0.7, 0.4 - 0.2 * n);
    const Coordinates v1 = Coordinates::LinSpaced(0.7, 0.7 + 0.3 * n), v2 = Coordinates::LinSpaced(-1.3, 0.5);
    const double t1 = 0.37, t2 = 1.91;
    const double T = model.kinetic_energy(q1, v1, t1);
    const auto require_equal = [&](double a, double b, double scale, const char* what) {
      if (!(std::abs(a - b) <= 1e-12 * (scale + 1.0))) {
        throw InvalidArgument(std::string("model declares separable but ") + what);
      }
    };
    require_equal(model.kinetic_energy(q2, v1, t1), T, std::abs(T), "T depends on q");
    require_equal(model.kinetic_energy(q1, v1, t2), T, std::abs(T), "T depends on t");
    require_equal(model.kinetic_energy(q1, Coordinates(2.0 * v1), t1), 4.0 * T, std::abs(T),
                  "T is not quadratic in v");
    const Coordinates f1 = model.forces(q1, v1, t1), f2 = model.forces(q1, v2, t1);
    for (int i = 0; i < n; ++i) {
      require_equal(f1[i], f2[i], std::abs(f1[i]), "its forces f depend on v");
    }
  }
}

}  // namespace energy_audit
