#pragma once
/// \file
/// The whole-state form of a program's energy, for programs that are neither in Lagrange's
/// variables [q, v] nor in Hamilton's [q, p]: an energy E(y, t) of the solver's whole state, its
/// explicit rate and the power of everything E does not hold. Standard headers only, and no name
/// that SUNDIALS' examples commonly #define.

#include <functional>
#include <string>
#include <vector>

namespace energy_audit::sun {

/// A named power term P_k(y, t) [W] of the whole-state form's work ledger.
struct DropInStatePower {
  std::string name;
  std::function<double(const double* y, double t)> power;
};

/// E(y, t), ∂E/∂t and P(y, t) as plain functions of the solver's state y (on MPI ranks, the rank's
/// own data, each function returning the rank's share). Along the program's exact solutions
/// dE/dt = ∂E/∂t + P, so C = E + Z with Ż = −∂E/∂t − P stays constant (docs/mathematics.md); the
/// audit needs nothing else and reads y through no layout. The summary reports E as T (and V = 0).
struct DropInStateEnergy {
  /// E(y, t) [J]
  std::function<double(const double* y, double t)> energy;
  /// ∂E/∂t at fixed y [W]; empty: 0. A time-dependent E given without it is named by diagnosis().
  std::function<double(const double* y, double t)> energy_rate = {};
  /// P(y, t), the power into E of everything E does not hold: dampers, drives, controllers, the
  /// exchange with states E leaves out [W]. Empty: 0.
  std::function<double(const double* y, double t)> power = {};
  /// Named terms of that power beside `power`, each with its work W_k = ∫ P_k dt in the ledger.
  std::vector<DropInStatePower> named_powers = {};
  /// For a state spread over MPI ranks, as DropInEnergies::sum_shares.
  std::function<void(double* values, int count)> sum_shares = {};
};

}  // namespace energy_audit::sun
