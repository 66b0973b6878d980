#pragma once
/// \file
/// The constraint terms of a multiplier model at one state, by forward-mode automatic
/// differentiation: ψ = G v + g, G, g, the acceleration-level term Ġ v + ġ, and Φ when the
/// constraints are holonomic (the README's "The mathematics").

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

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

namespace detail {

/// ψ(q, v, t) of the model over any scalar: given directly, or as dΦ/dt along (q̇ = v, ṫ = 1).
template <MultiplierModel M, class S>
VectorN<S, M::constraints> velocity_residual(const M& model, const VectorN<S, M::dofs>& q,
                                             const VectorN<S, M::dofs>& v, const S& t) {
  if constexpr (KinematicConstraints<M>) {
    return model.velocity_constraints(q, v, t);
  } else {
    using Dual = Eigen::AutoDiffScalar<Eigen::Matrix<S, 1, 1>>;
    VectorN<Dual, M::dofs> q_dual;
    for (int i = 0; i < M::dofs; ++i) q_dual[i] = Dual(q[i], Eigen::Matrix<S, 1, 1>(v[i]));
    const Dual t_dual(t, Eigen::Matrix<S, 1, 1>(S(1.0)));
    const auto Phi = model.position_constraints(q_dual, t_dual);
    VectorN<S, M::constraints> psi;
    for (int k = 0; k < M::constraints; ++k) psi[k] = Phi[k].derivatives()[0];
    return psi;
  }
}

}  // namespace detail

template <MultiplierModel M>
ConstraintTerms<M::dofs, M::constraints> constraint_terms(const M& model, const VectorN<double, M::dofs>& q,
                                                          const VectorN<double, M::dofs>& v, double t) {
  constexpr int n = M::dofs, m = M::constraints;
  ConstraintTerms<n, m> c;
  // G and ψ: ψ over a scalar with n + 1 directions: e_j in v, then (q̇ = v, ṫ = 1) at fixed v,
  // whose derivative of ψ = G v + g is Ġ v + ġ.
  using Dual = Eigen::AutoDiffScalar<VectorN<double, n + 1>>;
  VectorN<Dual, n> q_dual, v_dual;
  for (int i = 0; i < n; ++i) {
    VectorN<double, n + 1> dq = VectorN<double, n + 1>::Zero();
    dq[n] = v[i];
    q_dual[i] = Dual(q[i], dq);
    v_dual[i] = Dual(v[i], VectorN<double, n + 1>::Unit(i));
  }
  const Dual t_dual(t, VectorN<double, n + 1>::Unit(n));
  const VectorN<Dual, m> psi = detail::velocity_residual(model, q_dual, v_dual, t_dual);
  for (int k = 0; k < m; ++k) {
    c.psi[k] = psi[k].value();
    c.G.row(k) = psi[k].derivatives().template head<n>().transpose();
    c.bias[k] = psi[k].derivatives()[n];
  }
  c.g = c.psi - c.G * v;
  if constexpr (HolonomicConstraints<M>) {
    c.Phi = model.position_constraints(q, t);
  } else {
    c.Phi.setZero();
  }
  return c;
}

}  // namespace energy_audit
