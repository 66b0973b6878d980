#pragma once
/// \file
/// The terms of Lagrange's equations of the second kind (the README's "The mathematics"), by nested forward-mode
/// automatic differentiation of the model's T and V:
///
///     M(q, t) a = r ,   M = ∂²T/∂v² ,   r = f + ∂L/∂q − (∂²T/∂v∂q) v − ∂²T/∂v∂t ,  L = T − V.

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

template <int n>
struct LagrangeTerms {
  Eigen::Matrix<double, n, n> mass;  ///< M = ∂²T/∂v²
  VectorN<double, n> rhs;            ///< r: everything but M a, forces included
};

template <LagrangeModel M>
LagrangeTerms<M::dofs> lagrange_terms(const M& model, const VectorN<double, M::dofs>& q,
                                      const VectorN<double, M::dofs>& v, double t) {
  constexpr int n = M::dofs;
  // Inner derivatives: ∂/∂v. Outer directions: e_j in v (j < n), then the total time
  // derivative at fixed v (q̇ = v, ṫ = 1). Differentiating ∂T/∂v along them gives the
  // columns of M and the convective term (∂²T/∂v∂q) v + ∂²T/∂v∂t in one evaluation of T.
  using Inner = Eigen::AutoDiffScalar<VectorN<double, n>>;
  using Outer = Eigen::AutoDiffScalar<VectorN<Inner, n + 1>>;
  const auto constant = [](double value) { return Inner(value, VectorN<double, n>::Zero()); };
  const auto outer = [&](const Inner& value) {
    return Outer(value, VectorN<Inner, n + 1>::Constant(constant(0.0)));
  };

  VectorN<Outer, n> q_outer, v_outer;
  for (int i = 0; i < n; ++i) {
    q_outer[i] = outer(constant(q[i]));
    q_outer[i].derivatives()[n] = constant(v[i]);
    v_outer[i] = outer(Inner(v[i], VectorN<double, n>::Unit(i)));
    v_outer[i].derivatives()[i] = constant(1.0);
  }
  Outer t_outer = outer(constant(t));
  t_outer.derivatives()[n] = constant(1.0);

  const Outer T = model.kinetic_energy(q_outer, v_outer, t_outer);
  LagrangeTerms<n> terms;
  for (int j = 0; j < n; ++j) terms.mass.col(j) = T.derivatives()[j].derivatives();
  const VectorN<double, n> convective = T.derivatives()[n].derivatives();

  // ∂L/∂q by first-order forward mode.
  using Gradient = Eigen::AutoDiffScalar<VectorN<double, n>>;
  VectorN<Gradient, n> q_grad;
  for (int i = 0; i < n; ++i) q_grad[i] = Gradient(q[i], VectorN<double, n>::Unit(i));
  const VectorN<Gradient, n> v_grad = v.template cast<Gradient>();
  const Gradient t_grad(t, VectorN<double, n>::Zero());
  const Gradient lagrangian =
      model.kinetic_energy(q_grad, v_grad, t_grad) - model.potential_energy(q_grad, t_grad);

  terms.rhs = model.forces(q, v, t) + lagrangian.derivatives() - convective;
  return terms;
}

}  // namespace energy_audit
