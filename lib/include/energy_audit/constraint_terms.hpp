#pragma once
/// \file
/// The constraint terms of a multiplier model at one state, by forward-mode automatic
/// differentiation (dual.hpp): ψ = G v + g, G, g, the acceleration-level term Ġ v + ġ, and Φ when
/// the constraints are holonomic (docs/mathematics.md).

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/multiplier_model.hpp"

namespace energy_audit {

template <int n, int m>
struct ConstraintTerms {
  Eigen::Matrix<double, m, n> G;   ///< ∂ψ/∂v (= Φ_q)
  VectorN<double, m> g;            ///< ψ at v = 0 (= Φ_t)
  VectorN<double, m> psi;          ///< velocity-level residual G v + g
  VectorN<double, m> bias;         ///< Ġ v + ġ: G a + bias = 0 on the constraint
  VectorN<double, m> Phi;          ///< position-level residual (zero for kinematic constraints)
};

/// G, g, ψ, Ġ v + ġ and Φ at (q, v, t), from one evaluation of the model's constraints.
///
/// ψ is differentiated along n + 1 directions at once, ψ over Dual<double, n + 1>: e_j in v
/// (j < n), whose derivatives are the columns of G, then the motion (q̇ = v, ṫ = 1) at fixed v,
/// along which the derivative of ψ = G v + g is Ġ v + ġ. Holonomic constraints give ψ = dΦ/dt
/// along the motion: Φ is evaluated over Dual<Dual<double, n + 1>, 1>, whose outer direction is
/// the motion, and Φ itself is the value of that evaluation.
template <MultiplierModel M>
ConstraintTerms<M::dofs, M::constraints> constraint_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                          const VectorN<double, M::dofs>& v, double t) {
  constexpr int n = M::dofs, m = M::constraints;
  using Directions = Dual<double, n + 1>;
  VectorN<Directions, m> psi;
  ConstraintTerms<n, m> c;
  // Seeded entry by entry into the zeros of default Duals, never copied in whole (Dual::generate
  // says why).
  if constexpr (KinematicConstraints<M>) {
    VectorN<Directions, n> q_dual, v_dual;
    for (int i = 0; i < n; ++i) {
      q_dual[i].value = q[i];
      q_dual[i].derivatives[n] = v[i];
      v_dual[i].value = v[i];
      v_dual[i].derivatives[i] = 1.0;
    }
    Directions t_dual;
    t_dual.value = t;
    t_dual.derivatives[n] = 1.0;
    psi = model.velocity_constraints(q_dual, v_dual, t_dual);
    if constexpr (HolonomicConstraints<M>) {  // a model giving both forms: ψ and Φ as given
      c.Phi = model.position_constraints(q, t);
    } else {
      c.Phi.setZero();
    }
  } else {
    // The outer derivative of q is q̇ = v, with the inner derivatives of v (e_i); that of t is 1.
    using Motion = Dual<Directions, 1>;
    VectorN<Motion, n> q_motion;
    for (int i = 0; i < n; ++i) {
      q_motion[i].value.value = q[i];
      q_motion[i].value.derivatives[n] = v[i];
      q_motion[i].derivatives[0].value = v[i];
      q_motion[i].derivatives[0].derivatives[i] = 1.0;
    }
    Motion t_motion;
    t_motion.value.value = t;
    t_motion.value.derivatives[n] = 1.0;
    t_motion.derivatives[0].value = 1.0;
    const VectorN<Motion, m> Phi = model.position_constraints(q_motion, t_motion);
    for (int k = 0; k < m; ++k) {
      c.Phi[k] = Phi[k].value.value;
      psi[k] = Phi[k].derivatives[0];
    }
  }
  for (int k = 0; k < m; ++k) {
    c.psi[k] = psi[k].value;
    for (int j = 0; j < n; ++j) c.G(k, j) = psi[k].derivatives[j];
    c.bias[k] = psi[k].derivatives[n];
  }
  c.g = c.psi - c.G * v;
  return c;
}

}  // namespace energy_audit
