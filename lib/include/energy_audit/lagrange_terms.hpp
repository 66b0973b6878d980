#pragma once
/// \file
/// The terms of Lagrange's equations of the second kind (docs/mathematics.md), by nested forward-mode
/// automatic differentiation of the model's T and V:
///
///     M(q, t) a = r ,   M = ∂²T/∂v² ,   r = f + ∂L/∂q − (∂²T/∂v∂q) v − ∂²T/∂v∂t ,  L = T − V.
///
/// lagrange_terms() gives M and r, what the accelerations need; lagrange_term_parts() gives M and
/// the three parts of r separately, from the same single evaluation, to measure how large each
/// term of the equations is (equation_residual.hpp).

#include <concepts>

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/flatten.hpp"
#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// The most coordinates whose M and r the library takes by nested forward mode. Their vectors
/// of Dual<Dual<double, n>, n + 1>, (n + 2)(n + 1) n doubles each, must stay within Eigen's
/// limit for objects on the stack (EIGEN_STACK_ALLOCATION_LIMIT, 128 KiB): 24 coordinates take
/// 122 KiB. A larger model needs hand-derived accelerations, which are then not checked
/// against its equations.
inline constexpr int max_dofs_for_lagrange_terms = 24;

/// A model small enough for lagrange_terms(): derived accelerations, the equation check.
template <class M>
concept FitsLagrangeTerms = LagrangeModel<M> && M::dofs <= max_dofs_for_lagrange_terms;

template <int n>
struct LagrangeTerms {
  Eigen::Matrix<double, n, n> mass;  ///< M = ∂²T/∂v²
  VectorN<double, n> rhs;            ///< r: everything but M a, forces included
};

/// The terms of M a = r one by one: r = forces + lagrangian_gradient − convective.
template <int n>
struct LagrangeTermParts {
  Eigen::Matrix<double, n, n> mass;        ///< M = ∂²T/∂v²
  VectorN<double, n> forces;               ///< f, the non-potential forces
  VectorN<double, n> lagrangian_gradient;  ///< ∂L/∂q = ∂T/∂q − ∂V/∂q
  VectorN<double, n> convective;           ///< (∂²T/∂v∂q) v + ∂²T/∂v∂t, i.e. d/dt(∂T/∂v) − M a
};

namespace detail {

/// The body of lagrange_terms() and lagrange_term_parts(): Terms is LagrangeTerms<n> (r summed
/// in place, as the accelerations need it) or LagrangeTermParts<n> (its parts kept apart). One
/// body for both, chosen at compile time, so that the accelerations pay nothing for the parts.
/// The `flatten` of its two callers inlines it and everything it calls. It must not be declared
/// always_inline: GCC 12 then inlines its body but not the nested Dual products it calls, and the
/// crane's derived accelerations take twice as long.
template <class Terms, LagrangeModel M>
Terms evaluate_lagrange_terms(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
                              double t) {
  constexpr int n = M::dofs;
  static_assert(n <= max_dofs_for_lagrange_terms,
                "M and r by nested forward mode take at most max_dofs_for_lagrange_terms coordinates: "
                "give a larger model hand-derived accelerations");
  // Second derivatives by nested forward mode. Inner derivatives: ∂/∂v. Outer directions: e_j
  // in v (j < n), then the total time derivative at fixed v (q̇ = v, ṫ = 1). Differentiating
  // ∂T/∂v along them gives the columns of M and the convective term (∂²T/∂v∂q) v + ∂²T/∂v∂t
  // in one evaluation of T.
  using Inner = Dual<double, n>;
  using Outer = Dual<Inner, n + 1>;
  // ∂L/∂q by first-order forward mode: a second, much cheaper, evaluation of T (and of V).
  using Gradient = Dual<double, n>;

  // Seeded entry by entry into the zeros of default Duals, which GCC then keeps in registers,
  // never copied in whole (Dual::generate says why).
  // Both passes are seeded before either evaluates T: the libm calls inside might, for all
  // GCC knows, change q, and reading q anew would keep it from sharing sin/cos between passes.
  VectorN<Outer, n> q_outer, v_outer;
  Outer t_outer;
  VectorN<Gradient, n> q_grad, v_grad;
  Gradient t_grad;
  for (int i = 0; i < n; ++i) {
    q_outer[i].value.value = q[i];
    q_outer[i].derivatives[n].value = v[i];
    v_outer[i].value.value = v[i];
    v_outer[i].value.derivatives[i] = 1.0;
    v_outer[i].derivatives[i].value = 1.0;
    q_grad[i].value = q[i];
    q_grad[i].derivatives[i] = 1.0;
    v_grad[i].value = v[i];
  }
  t_outer.value.value = t;
  t_outer.derivatives[n].value = 1.0;
  t_grad.value = t;
  const VectorN<double, n> f = model.forces(q, v, t);

  const Outer T = model.kinetic_energy(q_outer, v_outer, t_outer);
  const Gradient L = model.kinetic_energy(q_grad, v_grad, t_grad) - model.potential_energy(q_grad, t_grad);

  Terms terms;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) terms.mass(i, j) = T.derivatives[j].derivatives[i];
    if constexpr (std::same_as<Terms, LagrangeTerms<n>>) {
      terms.rhs[i] = f[i] + L.derivatives[i] - T.derivatives[n].derivatives[i];
    } else {
      terms.forces[i] = f[i];
      terms.lagrangian_gradient[i] = L.derivatives[i];
      terms.convective[i] = T.derivatives[n].derivatives[i];
    }
  }
  return terms;
}

}  // namespace detail

/// M and r at (q, v, t), from the model's T, V and f.
///
/// `flatten` inlines every Dual operation and the model's T and V into this one body, where GCC
/// keeps the Duals in registers and shares sin/cos between the two passes; left to its own
/// inlining limits, it calls the nested products out of line and the crane takes three times as long.
template <LagrangeModel M>
EA_FLATTEN LagrangeTerms<M::dofs> lagrange_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                 const VectorN<double, M::dofs>& v, double t) {
  return detail::evaluate_lagrange_terms<LagrangeTerms<M::dofs>>(model, q, v, t);
}

/// M, f, ∂L/∂q and the convective term at (q, v, t) from the same evaluation as lagrange_terms()
/// (r = f + ∂L/∂q − convective); flattened for the same reason.
template <LagrangeModel M>
EA_FLATTEN LagrangeTermParts<M::dofs> lagrange_term_parts(const M& model, const VectorN<double, M::dofs>& q,
                                                          const VectorN<double, M::dofs>& v, double t) {
  return detail::evaluate_lagrange_terms<LagrangeTermParts<M::dofs>>(model, q, v, t);
}

}  // namespace energy_audit
