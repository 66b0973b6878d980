#pragma once
/// \file
/// The energies of a Lagrange model at one state: T and its split T2 / T1 / T0, V, E and H.

#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// Energies at one state [J]. T = T2 + T1 + T0 by degree in v (the README's "The mathematics").
struct EnergyTerms {
  double T = 0, T2 = 0, T1 = 0, T0 = 0, V = 0;

  double E() const { return T + V; }        ///< total mechanical energy
  double H() const { return T2 - T0 + V; }  ///< Jacobi integral ("Hamiltonian" of seed 000)
};

/// Evaluates T, V and the split of T from T(q, v, t), T(q, -v, t) and T(q, 0, t):
/// T0 = T(q, 0, t), T1 = (T(v) - T(-v)) / 2, T2 = (T(v) + T(-v)) / 2 - T0.
template <LagrangeModel M>
EnergyTerms energy_terms(const M& model, const VectorN<double, M::dofs>& q,
                         const VectorN<double, M::dofs>& v, double t) {
  EnergyTerms e;
  e.T = model.kinetic_energy(q, v, t);
  e.V = model.potential_energy(q, t);
  if constexpr (is_scleronomic<M>) {
    e.T2 = e.T;
  } else {
    const VectorN<double, M::dofs> minus_v = -v;
    const double T_minus = model.kinetic_energy(q, minus_v, t);
    e.T0 = model.kinetic_energy(q, VectorN<double, M::dofs>::Zero().eval(), t);
    e.T1 = 0.5 * (e.T - T_minus);
    e.T2 = 0.5 * (e.T + T_minus) - e.T0;
  }
  return e;
}

}  // namespace energy_audit
