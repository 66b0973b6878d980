#pragma once
/// \file
/// The terms of Lagrange's equations at given accelerations a (docs/mathematics.md):
///
///     M a = f + ∂L/∂q − c ,   M = ∂²T/∂v² ,   c = (∂²T/∂v∂q) v + ∂²T/∂v∂t ,   L = T − V,
///
/// each side's terms as vectors, what the equation check measures (equation_residual.hpp). The
/// check needs M only applied to a, so it takes M a and c as derivatives of ∂T/∂v along two
/// directions, the total time derivative at fixed v (q̇ = v, ṫ = 1) and a in v, instead of M's
/// n columns: two directions where lagrange_terms() takes n + 1, at any number of coordinates.
///
/// Two ways to the same numbers, chosen by the number of coordinates n: up to
/// max_dofs_for_nested_equation_terms, nested forward mode (dual.hpp) with those two outer
/// directions, O(n) times T's cost; above it, reverse mode over forward mode on the tape
/// (second_order_tape.hpp) with the same two tangent directions, which also costs O(n) times T's
/// but carries a fixed cost per recorded operation that only pays off on large models.

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/flatten.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/second_order_tape.hpp"
#include "energy_audit/taped_scalar.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// The most coordinates whose equation terms come from nested forward mode; larger models take
/// the tape. On the pendulum chain nested forward mode is 3 to 4 times faster than the tape up to
/// 40 coordinates and collapses at 50, and its compile time grows with n (docs/benchmarks.md,
/// "Derived equations at scale"): 32 keeps a model's build under a minute.
inline constexpr int max_dofs_for_nested_equation_terms = 32;

/// The terms of M a = f + ∂L/∂q − c at one state and accelerations a.
template <int n>
struct LagrangeEquationTerms {
  VectorN<double, n> inertia;              ///< M a, M = ∂²T/∂v²
  VectorN<double, n> forces;               ///< f, the non-potential forces
  VectorN<double, n> lagrangian_gradient;  ///< ∂L/∂q = ∂T/∂q − ∂V/∂q
  VectorN<double, n> convective;           ///< c = (∂²T/∂v∂q) v + ∂²T/∂v∂t, i.e. d/dt(∂T/∂v) − M a
};

namespace detail {

/// The directions of the tangents: the total time derivative at fixed v (along the motion), and a in v.
inline constexpr int motion_direction = 0, acceleration_direction = 1;

/// Nested forward mode, flattened into one body (lagrange_terms.hpp says why). Inner derivatives:
/// ∂/∂v; outer directions: the total time derivative at fixed v and a in v, along which ∂T/∂v
/// changes by c and by M a. ∂L/∂q by first-order forward mode in a second, cheaper, evaluation.
template <LagrangeModel M>
EA_FLATTEN LagrangeEquationTerms<M::dofs> nested_forward_equation_terms(const M& model,
                                                                        const VectorN<double, M::dofs>& q,
                                                                        const VectorN<double, M::dofs>& v,
                                                                        const VectorN<double, M::dofs>& a, double t) {
  constexpr int n = M::dofs;
  using Inner = Dual<double, n>;
  using Outer = Dual<Inner, 2>;
  using Gradient = Dual<double, n>;
  // Seeded entry by entry into default Duals, both passes before either evaluates T
  // (lagrange_terms.hpp's evaluate_lagrange_terms says why). The seeding and reading loops are
  // unrolled whatever n: GCC unrolls a loop of up to 16 iterations by itself, and a loop left
  // rolled keeps the Duals it indexes in memory instead of registers: 5 times the instructions
  // from 17 coordinates on.
  VectorN<Outer, n> q_outer, v_outer;
  Outer t_outer;
  VectorN<Gradient, n> q_grad, v_grad;
  Gradient t_grad;
#pragma GCC unroll 128
  for (int i = 0; i < n; ++i) {
    q_outer[i].value.value = q[i];
    q_outer[i].derivatives[motion_direction].value = v[i];
    v_outer[i].value.value = v[i];
    v_outer[i].value.derivatives[i] = 1.0;
    v_outer[i].derivatives[acceleration_direction].value = a[i];
    q_grad[i].value = q[i];
    q_grad[i].derivatives[i] = 1.0;
    v_grad[i].value = v[i];
  }
  t_outer.value.value = t;
  t_outer.derivatives[motion_direction].value = 1.0;
  t_grad.value = t;

  const Outer T = model.kinetic_energy(q_outer, v_outer, t_outer);
  const Gradient L = model.kinetic_energy(q_grad, v_grad, t_grad) - model.potential_energy(q_grad, t_grad);
  LagrangeEquationTerms<n> terms;
  terms.forces = model.forces(q, v, t);
#pragma GCC unroll 128
  for (int i = 0; i < n; ++i) {
    terms.inertia[i] = T.derivatives[acceleration_direction].derivatives[i];
    terms.lagrangian_gradient[i] = L.derivatives[i];
    terms.convective[i] = T.derivatives[motion_direction].derivatives[i];
  }
  return terms;
}

/// Reverse mode over forward mode on the thread's tape: L = T − V recorded once with the same two
/// tangent directions; the reverse sweep gives each v_i the adjoint ∂L/∂v_i = ∂T/∂v_i with its
/// two tangents, c_i and (M a)_i, and each q_i the adjoint ∂L/∂q_i.
template <LagrangeModel M>
LagrangeEquationTerms<M::dofs> taped_equation_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                    const VectorN<double, M::dofs>& v,
                                                    const VectorN<double, M::dofs>& a, double t) {
  constexpr int n = M::dofs;
  SecondOrderTape& tape = thread_tape();
  tape.clear(2);
  VectorN<TapedScalar, n> q_taped, v_taped;
  for (int i = 0; i < n; ++i) {
    q_taped[i] = TapedScalar::variable(tape, q[i]);
    tape.set_tangent(q_taped[i].node, motion_direction, v[i]);
  }
  for (int i = 0; i < n; ++i) {
    v_taped[i] = TapedScalar::variable(tape, v[i], true);
    tape.set_tangent(v_taped[i].node, acceleration_direction, a[i]);
  }
  const TapedScalar t_taped = TapedScalar::variable(tape, t);
  tape.set_tangent(t_taped.node, motion_direction, 1.0);
  const TapedScalar L = model.kinetic_energy(q_taped, v_taped, t_taped) - model.potential_energy(q_taped, t_taped);
  LagrangeEquationTerms<n> terms;
  terms.forces = model.forces(q, v, t);
  if (L.is_constant()) {
    terms.inertia.setZero();
    terms.lagrangian_gradient.setZero();
    terms.convective.setZero();
    return terms;
  }
  tape.differentiate(L.node, L.slope);
  for (int i = 0; i < n; ++i) {
    terms.inertia[i] = tape.adjoint_tangent(v_taped[i].node, acceleration_direction);
    terms.lagrangian_gradient[i] = tape.adjoint(q_taped[i].node);
    terms.convective[i] = tape.adjoint_tangent(v_taped[i].node, motion_direction);
  }
  return terms;
}

}  // namespace detail

/// M a, f, ∂L/∂q and c at (q, v, t) and accelerations a, from the model's T, V and f, the way
/// that is faster for the model's number of coordinates.
template <LagrangeModel M>
LagrangeEquationTerms<M::dofs> lagrange_equation_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                       const VectorN<double, M::dofs>& v,
                                                       const VectorN<double, M::dofs>& a, double t) {
  if constexpr (M::dofs <= max_dofs_for_nested_equation_terms) {
    return detail::nested_forward_equation_terms(model, q, v, a, t);
  } else {
    return detail::taped_equation_terms(model, q, v, a, t);
  }
}

}  // namespace energy_audit
