#pragma once
/// \file
/// The energies of a program in Hamilton's variables, y holding coordinates q and momenta p with
/// q̇ = ∂H/∂p (SUNDIALS' SPRKStep programs over [p, q] or [q, p]), as the drop-in audits take
/// them. Standard headers only, and no name that SUNDIALS' examples commonly #define.

#include <functional>

namespace energy_audit::sun {

/// H(q, p, t) and the non-potential generalized forces Q of a program whose equations are
/// q̇ = ∂H/∂p, ṗ = −∂H/∂q + Q. Along them dH/dt = ∂H/∂t + q̇ᵀQ, so the audit tracks C = H + Z with
/// Ż = −∂H/∂t − q̇ᵀQ (docs/mathematics.md). p is not assumed to be a velocity: where the audit
/// needs q̇ (only for Q), it takes it from coordinate_rates, or else from the solver's own
/// derivative of the coordinates. The layout (DropInLayout) names the momenta as its velocities.
/// Only H is required; the optional members have default initializers.
struct DropInHamiltonian {
  /// H(q, p, t) [J]
  std::function<double(const double* q, const double* p, double t)> hamiltonian;
  /// ∂H/∂t at fixed q and p [W]; empty: 0 (H does not depend on t explicitly). A time-dependent
  /// H given without it is named by the audit's diagnosis(), as a missing rate of T or V is.
  std::function<double(const double* q, const double* p, double t)> hamiltonian_rate = {};
  /// V(q, t) [J], for a program whose H = T + V: the summary then reports T = H − V and V.
  /// Empty: H is reported as T.
  std::function<double(const double* q, double t)> potential_energy = {};
  /// Writes the n non-potential generalized forces Q(q, p, t) to Q (ṗ = −∂H/∂q + Q). Empty: none.
  std::function<void(const double* q, const double* p, double t, double* Q)> generalized_forces = {};
  /// Writes q̇ = ∂H/∂p at (q, p, t) to q_rate (energies_from_hamiltonian takes it by automatic
  /// differentiation). Empty: the audit reads q̇ from the solver's derivative of its state at each
  /// node of Z's quadrature, one more interpolation per node; not with Z as CVODES' quadrature,
  /// whose right-hand side has no derivative. Used only with generalized_forces.
  std::function<void(const double* q, const double* p, double t, double* q_rate)> coordinate_rates = {};
  /// For a state spread over MPI ranks, as DropInEnergies::sum_shares: each rank's functions give
  /// its share of H, ∂H/∂t and V over its own q and p, and q̇ and Q of its own coordinates.
  std::function<void(double* values, int count)> sum_shares = {};
};

}  // namespace energy_audit::sun
