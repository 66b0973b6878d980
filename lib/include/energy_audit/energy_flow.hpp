#pragma once
/// \file
/// The energy-flow rate Ż = ∂T/∂t − ∂V/∂t − vᵀf (docs/mathematics.md), with the explicit time
/// derivatives taken by forward-mode automatic differentiation of the model's own T and V.

#include "energy_audit/dual.hpp"
#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// Explicit partial time derivatives ∂T/∂t and ∂V/∂t at fixed q and v [W].
struct ExplicitTimeDerivatives {
  double T_t = 0, V_t = 0;
};

/// ∂T/∂t and ∂V/∂t by forward-mode differentiation in t, whatever the model declares: T and V
/// over Dual<double, 1> with t the variable and q, v constants.
template <LagrangeModel M>
ExplicitTimeDerivatives differentiate_in_time(const M& model, const VectorN<double, M::dofs>& q,
                                              const VectorN<double, M::dofs>& v, double t) {
  using TimeDual = Dual<double, 1>;
  VectorN<TimeDual, M::dofs> q_dual, v_dual;  // constants: values into default (zero) Duals
  for (int i = 0; i < M::dofs; ++i) {
    q_dual[i].value = q[i];
    v_dual[i].value = v[i];
  }
  const TimeDual t_dual = TimeDual::variable(t, 0);
  return {model.kinetic_energy(q_dual, v_dual, t_dual).derivatives[0],
          model.potential_energy(q_dual, t_dual).derivatives[0]};
}

/// ∂T/∂t and ∂V/∂t: zero without work for a model declared scleronomic.
template <LagrangeModel M>
ExplicitTimeDerivatives explicit_time_derivatives(const M& model, const VectorN<double, M::dofs>& q,
                                                  const VectorN<double, M::dofs>& v, double t) {
  if constexpr (is_scleronomic<M>) {
    return {};
  } else {
    return differentiate_in_time(model, q, v, t);
  }
}

/// Ż = ∂T/∂t − ∂V/∂t − vᵀf [W] with ∂T/∂t and ∂V/∂t at (q, v, t) already taken (`d`), where the
/// audit's work ledger needs them too.
template <LagrangeModel M>
double energy_flow_rate(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
                        double t, const ExplicitTimeDerivatives& d) {
  const VectorN<double, M::dofs> f = model.forces(q, v, t);
  double power = 0;  // a plain loop, not a packet load of the f just stored (Dual::generate)
  for (int i = 0; i < M::dofs; ++i) power += v[i] * f[i];
  return d.T_t - d.V_t - power;
}

/// Ż = ∂T/∂t − ∂V/∂t − vᵀf [W]: the rate at which energy leaves the model through its
/// non-potential forces and its explicit time dependence, so that C = H + Z stays constant.
template <LagrangeModel M>
double energy_flow_rate(const M& model, const VectorN<double, M::dofs>& q,
                        const VectorN<double, M::dofs>& v, double t) {
  return energy_flow_rate(model, q, v, t, explicit_time_derivatives(model, q, v, t));
}

}  // namespace energy_audit
