#pragma once
/// \file
/// What the audit sees of one accepted step: time, state and energies.

#include "energy_audit/energy_terms.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// One accepted step. q and v are views into the integrator's state, valid while the
/// observer runs; the audit copies what it keeps.
struct EnergySample {
  double t;
  ConstVectorRef q;
  ConstVectorRef v;
  EnergyTerms energy;
  double Z;  ///< energy-flow integral, Z(t0) = 0 [J]

  double C() const { return energy.H() + Z; }  ///< control function, constant on exact solutions
};

}  // namespace energy_audit
