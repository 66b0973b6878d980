#pragma once
/// \file
/// What the audit sees of one accepted step: time, state, energies, and for multiplier models
/// the multipliers and the constraint residuals.

#include <optional>

#include "energy_audit/energy_terms.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// Constraint residuals at one step: ‖Φ‖ (NaN for kinematic constraints) and ‖ψ‖ = ‖G v + g‖.
struct ConstraintDrift {
  double position = 0;
  double velocity = 0;
};

/// One accepted step. q and w are views into the integrator's state, valid while the
/// observer runs; the audit copies what it keeps.
struct EnergySample {
  double t;
  ConstVectorRef q;
  ConstVectorRef w;  ///< the state's second half: v in Lagrange's form, p in Hamilton's, u in Maggi's
  EnergyTerms energy;
  double Z;                                       ///< energy-flow integral, Z(t0) = 0 [J]
  std::optional<Vector> multipliers{};            ///< λ as the model reports them (multiplier models)
  std::optional<ConstraintDrift> constraint_drift{};  ///< multiplier models

  double C() const { return energy.H() + Z; }  ///< control function, constant on exact solutions
};

}  // namespace energy_audit
