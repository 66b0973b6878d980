#pragma once
/// \file
/// The terms of Lagrange's equations of the second kind (docs/mathematics.md), by automatic
/// differentiation of the model's T and V:
///
///     M(q, t) a = r ,   M = ∂²T/∂v² ,   r = f + ∂L/∂q − (∂²T/∂v∂q) v − ∂²T/∂v∂t ,  L = T − V.
///
/// lagrange_terms() gives M and r, what the accelerations need. The equation check, which needs
/// M only applied to given accelerations, takes a cheaper way (lagrange_equation_terms.hpp).
///
/// Two ways to the same numbers, chosen by the number of coordinates n: up to
/// max_dofs_for_nested_forward_mode, one pass of nested forward mode (dual.hpp) whose fixed-size
/// Duals the compiler keeps in registers, at a cost of O(n²) times T's; above it, forward mode on
/// a tape (second_order_tape.hpp) and then, up to max_dofs_for_summed_second_derivatives, the
/// second-order chain rule summed over the tape, above it a reverse sweep with tangents, O(n)
/// times T's (docs/mathematics.md).

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/flatten.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/second_order_tape.hpp"
#include "energy_audit/taped_scalar.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// The most coordinates whose M and r come from nested forward mode; larger models take the
/// tape. Where the two cost the same on the pendulum chain (docs/benchmarks.md, "Derived
/// equations at scale").
inline constexpr int max_dofs_for_nested_forward_mode = 8;

/// The most coordinates whose M and r come from the second-order chain rule summed over the tape
/// (SecondOrderTape::accumulate_second_derivatives); larger models take the reverse sweep with
/// tangents, whose cost grows more slowly along a chain. Where the two cost the same on the
/// pendulum chain (docs/benchmarks.md, "Derived equations at scale").
inline constexpr int max_dofs_for_summed_second_derivatives = 24;

/// The two ways to M and r on the tape.
enum class TapeSecondDerivatives {
  summed,         ///< first derivatives in the reverse sweep, then the chain rule summed over the tape
  reverse_sweep,  ///< one reverse sweep with the adjoints' tangents
};

template <int n>
struct LagrangeTerms {
  SquareMatrix<n> mass;    ///< M = ∂²T/∂v², on the heap above max_fixed_size_square_matrix rows
  VectorN<double, n> rhs;  ///< r: everything but M a, forces included
};

namespace detail {

/// The nested forward-mode body of lagrange_terms(). The `flatten` of its caller inlines it and
/// everything it calls. It must not be declared always_inline: GCC 12 then inlines its body but
/// not the nested Dual products it calls, and the crane's derived accelerations take twice as
/// long.
template <LagrangeModel M>
LagrangeTerms<M::dofs> evaluate_lagrange_terms(const M& model, const VectorN<double, M::dofs>& q,
                                               const VectorN<double, M::dofs>& v, double t) {
  constexpr int n = M::dofs;
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

  LagrangeTerms<n> terms;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) terms.mass(i, j) = T.derivatives[j].derivatives[i];
    terms.rhs[i] = f[i] + L.derivatives[i] - T.derivatives[n].derivatives[i];
  }
  return terms;
}

/// The nested forward-mode body, flattened: `flatten` inlines every Dual operation and the
/// model's T and V into this one body, where GCC keeps the Duals in registers and shares sin/cos
/// between the two passes; left to its own inlining limits, it calls the nested products out of
/// line and the crane takes three times as long.
template <LagrangeModel M>
EA_FLATTEN LagrangeTerms<M::dofs> nested_forward_lagrange_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                                const VectorN<double, M::dofs>& v, double t) {
  return evaluate_lagrange_terms(model, q, v, t);
}

/// The same terms on a tape: L = T − V is recorded once on a tape whose quantities carry n + 1
/// tangents, the directions of nested forward mode's outer level: the total time derivative at
/// fixed v (q̇ = v, ṫ = 1), then e_j in v. The second derivatives of L along e_i and those
/// directions are row i of M and the convective term; the reverse sweep gives each q_i ∂L/∂q_i.
/// With `way` reverse_sweep, they are the adjoint tangents of v_i; with summed, the chain rule's
/// sum (the same numbers up to rounding). The tape is the thread's (thread_tape()).
template <LagrangeModel M>
LagrangeTerms<M::dofs> taped_lagrange_terms(
    const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v, double t,
    TapeSecondDerivatives way = M::dofs <= max_dofs_for_summed_second_derivatives
                                    ? TapeSecondDerivatives::summed
                                    : TapeSecondDerivatives::reverse_sweep) {
  constexpr int n = M::dofs;
  constexpr int time_direction = 0;
  const auto velocity_direction = [](int j) { return j + 1; };
  SecondOrderTape& tape = thread_tape();
  tape.clear(n + 1);
  VectorN<TapedScalar, n> q_taped, v_taped;
  for (int i = 0; i < n; ++i) {
    q_taped[i] = TapedScalar::variable(tape, q[i]);
    tape.set_tangent(q_taped[i].node, time_direction, v[i]);
  }
  for (int i = 0; i < n; ++i) {
    v_taped[i] = TapedScalar::variable(tape, v[i], true);
    tape.set_tangent(v_taped[i].node, velocity_direction(i), 1.0);
  }
  const TapedScalar t_taped = TapedScalar::variable(tape, t);
  tape.set_tangent(t_taped.node, time_direction, 1.0);
  const VectorN<double, n> f = model.forces(q, v, t);
  const TapedScalar L = model.kinetic_energy(q_taped, v_taped, t_taped) - model.potential_energy(q_taped, t_taped);
  LagrangeTerms<n> terms;
  terms.mass.resize(n, n);  // sizes a heap-backed M; nothing for a fixed-size one
  if (L.is_constant()) {
    terms.mass.setZero();
    terms.rhs = f;
    return terms;
  }
  if (way == TapeSecondDerivatives::summed) {
    tape.differentiate_first_order(L.node, L.slope);
    tape.accumulate_second_derivatives(velocity_direction(0), velocity_direction(n));
    for (int i = 0; i < n; ++i) {
      const int row = velocity_direction(i);
      for (int j = 0; j <= i; ++j) {
        terms.mass(i, j) = terms.mass(j, i) = tape.second_derivative(row, velocity_direction(j));
      }
      terms.rhs[i] = f[i] + tape.adjoint(q_taped[i].node) - tape.second_derivative(row, time_direction);
    }
    return terms;
  }
  tape.differentiate(L.node, L.slope);
  for (int i = 0; i < n; ++i) {
    const int v_i = v_taped[i].node;
    for (int j = 0; j < n; ++j) terms.mass(i, j) = tape.adjoint_tangent(v_i, velocity_direction(j));
    terms.rhs[i] = f[i] + tape.adjoint(q_taped[i].node) - tape.adjoint_tangent(v_i, time_direction);
  }
  return terms;
}

}  // namespace detail

/// M and r at (q, v, t), from the model's T, V and f, the way that is faster for the model's
/// number of coordinates.
template <LagrangeModel M>
LagrangeTerms<M::dofs> lagrange_terms(const M& model, const VectorN<double, M::dofs>& q,
                                      const VectorN<double, M::dofs>& v, double t) {
  if constexpr (M::dofs <= max_dofs_for_nested_forward_mode) {
    return detail::nested_forward_lagrange_terms(model, q, v, t);
  } else {
    return detail::taped_lagrange_terms(model, q, v, t);
  }
}

}  // namespace energy_audit
