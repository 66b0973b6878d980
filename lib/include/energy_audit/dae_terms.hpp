#pragma once
/// \file
/// What a residual (DAE) formulation of a multiplier model needs at one state.

#include "energy_audit/types.hpp"

namespace energy_audit {

/// M a = r + Gᵀλ with the constraints ψ = G v + g and their acceleration-level term, in
/// run-time sizes.
struct DaeTerms {
  Matrix mass;         ///< M (n x n)
  Vector rhs;          ///< r: M a = r + Gᵀλ
  Matrix G;            ///< m x n
  Vector psi;          ///< G v + g
  Vector bias;         ///< Ġ v + ġ
  Vector Phi;          ///< position residual (zero for kinematic constraints)
  /// Ż before the constraint forces: ∂T/∂t − ∂V/∂t − vᵀf; with them Ż = this − vᵀGᵀλ [W]
  double energy_flow_rate = 0;
};

}  // namespace energy_audit
