#pragma once
/// \file
/// The energy H = T + V of a scleronomic model at (q, v) and its partial derivatives ∂T/∂q,
/// ∂T/∂v and ∂V/∂q, by one forward-mode evaluation of T and V over Dual<double, 2n> (dual.hpp),
/// the directions the n coordinates, then the n velocities; for more than
/// max_dofs_for_nested_forward_mode coordinates by reverse mode on a tape (second_order_tape.hpp,
/// no tangents), whose cost does not grow with n beyond T's and V's own. A scleronomic model's T and V do
/// not depend on t, so H is a function of the state alone: what ARKODE's relaxation conserves
/// (docs/mathematics.md, relaxation). Each form maps these derivatives to the gradient of H over
/// its own state y = [q, w, (Z)] (energy_and_gradient of LagrangeSystem, HamiltonSystem and
/// MultiplierSystem).

#include "energy_audit/dual.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_terms.hpp"
#include "energy_audit/second_order_tape.hpp"
#include "energy_audit/taped_scalar.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// A model whose H(q, v) = T + V has no explicit t.
template <class M>
concept EnergyGradientModel = LagrangeModel<M> && is_scleronomic<M>;

template <int n>
struct EnergyGradient {
  double energy = 0;                 ///< H = T + V
  VectorN<double, n> kinetic_q{};    ///< ∂T/∂q at fixed v
  VectorN<double, n> kinetic_v{};    ///< ∂T/∂v (the momenta p)
  VectorN<double, n> potential_q{};  ///< ∂V/∂q
};

/// H and its partial derivatives at (q, v); t is not an argument, the model being scleronomic.
template <EnergyGradientModel M>
EnergyGradient<M::dofs> energy_gradient(const M& model, const VectorN<double, M::dofs>& q,
                                        const VectorN<double, M::dofs>& v) {
  constexpr int n = M::dofs;
  if constexpr (n > max_dofs_for_nested_forward_mode) {
    SecondOrderTape& tape = thread_tape();
    tape.clear(0);
    VectorN<TapedScalar, n> q_taped, v_taped;
    for (int i = 0; i < n; ++i) q_taped[i] = TapedScalar::variable(tape, q[i]);
    for (int i = 0; i < n; ++i) v_taped[i] = TapedScalar::variable(tape, v[i]);
    const TapedScalar t(0.0);  // a constant: T and V of a scleronomic model do not read it
    const TapedScalar T = model.kinetic_energy(q_taped, v_taped, t);
    EnergyGradient<n> g;
    if (!T.is_constant()) {
      tape.differentiate_first_order(T.node, T.slope);
      for (int i = 0; i < n; ++i) g.kinetic_q[i] = tape.adjoint(q_taped[i].node);
      for (int i = 0; i < n; ++i) g.kinetic_v[i] = tape.adjoint(v_taped[i].node);
    }
    const TapedScalar V = model.potential_energy(q_taped, t);
    if (!V.is_constant()) {
      tape.differentiate_first_order(V.node, V.slope);
      for (int i = 0; i < n; ++i) g.potential_q[i] = tape.adjoint(q_taped[i].node);
    }
    g.energy = T.value + V.value;
    return g;
  } else {
    using Scalar = Dual<double, 2 * n>;
    VectorN<Scalar, n> q_dual, v_dual;
    for (int i = 0; i < n; ++i) {
      q_dual[i].value = q[i];
      q_dual[i].derivatives[i] = 1.0;
      v_dual[i].value = v[i];
      v_dual[i].derivatives[n + i] = 1.0;
    }
    const Scalar t(0.0);  // a constant: T and V of a scleronomic model do not read it
    const Scalar T = model.kinetic_energy(q_dual, v_dual, t);
    const Scalar V = model.potential_energy(q_dual, t);
    EnergyGradient<n> g;
    g.energy = T.value + V.value;
    for (int i = 0; i < n; ++i) {
      g.kinetic_q[i] = T.derivatives[i];
      g.kinetic_v[i] = T.derivatives[n + i];
      g.potential_q[i] = V.derivatives[i];
    }
    return g;
  }
}

/// H at y = [q, v, (Z)] (Lagrange's and the multiplier form's state) and its gradient over y into
/// `gradient` (y.size() entries): [∂T/∂q + ∂V/∂q, ∂T/∂v, 0 for Z].
template <EnergyGradientModel M>
double energy_and_gradient_over_velocities(const M& model, const ConstVectorRef& y, Eigen::Ref<Vector> gradient) {
  constexpr int n = M::dofs;
  const VectorN<double, n> q = y.template head<n>(), v = y.template segment<n>(n);
  const EnergyGradient<n> g = energy_gradient(model, q, v);
  gradient.setZero();
  gradient.template head<n>() = g.kinetic_q + g.potential_q;
  gradient.template segment<n>(n) = g.kinetic_v;
  return g.energy;
}

}  // namespace energy_audit
