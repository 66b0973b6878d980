#pragma once
/// \file
/// The energies of a Lagrange model at one state: T and its split T2 / T1 / T0, V, E and H.

#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// Energies at one state [J]. T = T2 + T1 + T0 by degree in v (docs/mathematics.md).
struct EnergyTerms {
  double T = 0, T2 = 0, T1 = 0, T0 = 0, V = 0;

  double E() const { return T + V; }        ///< total mechanical energy
  double H() const { return T2 - T0 + V; }  ///< Jacobi integral ("Hamiltonian" of seed 000)
};

/// The split of T from its values at v, −v and 0: T0 = T(0), T1 = (T(v) − T(−v)) / 2,
/// T2 = (T(v) + T(−v)) / 2 − T0 (V is left 0).
inline EnergyTerms split_kinetic_energy(double T_at_v, double T_at_minus_v, double T_at_zero) {
  EnergyTerms e;
  e.T = T_at_v;
  e.T0 = T_at_zero;
  e.T1 = 0.5 * (T_at_v - T_at_minus_v);
  e.T2 = 0.5 * (T_at_v + T_at_minus_v) - T_at_zero;
  return e;
}

/// T, V and the split of T, evaluated whatever the model declares.
template <LagrangeModel M>
EnergyTerms split_energy_terms(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
                               double t) {
  const VectorN<double, M::dofs> minus_v = -v;
  EnergyTerms e = split_kinetic_energy(model.kinetic_energy(q, v, t), model.kinetic_energy(q, minus_v, t),
                                       model.kinetic_energy(q, VectorN<double, M::dofs>::Zero().eval(), t));
  e.V = model.potential_energy(q, t);
  return e;
}

/// T, V and the split of T; a model declared scleronomic has T = T2 without further work.
template <LagrangeModel M>
EnergyTerms energy_terms(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
                         double t) {
  if constexpr (is_scleronomic<M>) {
    EnergyTerms e;
    e.T = e.T2 = model.kinetic_energy(q, v, t);
    e.V = model.potential_energy(q, t);
    return e;
  } else {
    return split_energy_terms(model, q, v, t);
  }
}

}  // namespace energy_audit
