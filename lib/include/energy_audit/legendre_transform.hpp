#pragma once
/// \file
/// The Legendre transform of a Lagrange model (docs/mathematics.md): the momenta
/// p = ∂T/∂v = M(q, t) v + b(q, t), with M = ∂²T/∂v² and b = ∂T/∂v at v = 0 (from T1), and its
/// inverse v = M⁻¹ (p − b), by nested forward-mode differentiation of the model's own T.

#include <limits>
#include <string>

#include <Eigen/Core>

#include "energy_audit/all_finite.hpp"
#include "energy_audit/dual.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/flatten.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/positive_definite_solve.hpp"

namespace energy_audit {

/// p = mass v + offset at one (q, t).
template <int n>
struct MomentumMap {
  Eigen::Matrix<double, n, n> mass;  ///< M = ∂²T/∂v²
  VectorN<double, n> offset;         ///< b = ∂T/∂v at v = 0

  VectorN<double, n> momenta(const VectorN<double, n>& v) const { return mass * v + offset; }

  /// v = M⁻¹ (p − b); throws Error naming t when M is not positive definite, and is NaN where
  /// M or p is not finite (a blow-up, which the integrators take for divergence).
  VectorN<double, n> velocities(const VectorN<double, n>& p, double t) const {
    VectorN<double, n> v;
    if (!all_finite(mass) || !all_finite(p)) return v.setConstant(std::numeric_limits<double>::quiet_NaN());
    if (!solve_positive_definite(mass, VectorN<double, n>(p - offset), v)) {
      throw Error("mass matrix d2T/dv2 is not positive definite at t = " + to_text(t));
    }
    return v;
  }
};

/// M and b at (q, t), from one evaluation of T at v = 0 over nested Duals: the inner ones carry
/// ∂/∂v, the outer ones differentiate that again along each direction of v. T is quadratic in
/// v, so M does not depend on v.
template <LagrangeModel M>
EA_FLATTEN MomentumMap<M::dofs> momentum_map(const M& model, const VectorN<double, M::dofs>& q, double t) {
  constexpr int n = M::dofs;
  using Inner = Dual<double, n>;
  using Outer = Dual<Inner, n>;
  VectorN<Outer, n> q_outer, v_outer;
  Outer t_outer;
  for (int i = 0; i < n; ++i) {
    q_outer[i].value.value = q[i];
    v_outer[i].value.derivatives[i] = 1.0;  // v = 0, seeded in both levels
    v_outer[i].derivatives[i].value = 1.0;
  }
  t_outer.value.value = t;
  const Outer T = model.kinetic_energy(q_outer, v_outer, t_outer);
  MomentumMap<n> map;
  for (int i = 0; i < n; ++i) {
    map.offset[i] = T.value.derivatives[i];
    for (int j = 0; j < n; ++j) map.mass(i, j) = T.derivatives[j].derivatives[i];
  }
  return map;
}

/// ∂L/∂q at fixed v, L = T − V, by one forward-mode pass in q: by the Legendre transform's
/// identity it is −∂H/∂q at fixed p.
template <LagrangeModel M>
EA_FLATTEN VectorN<double, M::dofs> lagrangian_gradient(const M& model, const VectorN<double, M::dofs>& q,
                                                      const VectorN<double, M::dofs>& v, double t) {
  constexpr int n = M::dofs;
  using Gradient = Dual<double, n>;
  VectorN<Gradient, n> q_grad, v_grad;
  Gradient t_grad;
  for (int i = 0; i < n; ++i) {
    q_grad[i] = Gradient::variable(q[i], i);
    v_grad[i].value = v[i];
  }
  t_grad.value = t;
  const Gradient L = model.kinetic_energy(q_grad, v_grad, t_grad) - model.potential_energy(q_grad, t_grad);
  VectorN<double, n> gradient;
  for (int i = 0; i < n; ++i) gradient[i] = L.derivatives[i];
  return gradient;
}

}  // namespace energy_audit
