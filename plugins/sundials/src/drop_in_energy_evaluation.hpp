#pragma once
/// \file
/// The program's energy functions as the drop-in audit evaluates them: T split by degree in v, V,
/// Ż and the named powers at a state y = [q, v, λ], each summed over the ranks that share the
/// state, and the checks at the first states that the functions describe the model whole.

#include <cstddef>
#include <energy_audit/energy_terms.hpp>
#include <string>
#include <vector>

#include "energy_audit/sundials/drop_in_energy_functions.hpp"

namespace energy_audit::sun::detail {

class DropInEnergyEvaluation {
 public:
  /// Throws InvalidArgument, with `audit_name` ("CvodeAudit") in the message, for a named power
  /// without a name or a function, and for an equation check on a state spread over ranks.
  DropInEnergyEvaluation(const char* audit_name, int dofs, DropInEnergies energies);

  int dofs() const { return dofs_; }
  const DropInEnergies& functions() const { return energies_; }
  std::size_t named_power_count() const { return energies_.named_powers.size(); }

  /// T (split into T2, T1, T0) and V at (q, v, t), summed over the ranks. At the first states it
  /// also checks T and V given without a rate for a dependence on t, and a T declared quadratic
  /// in v for a T1 or a T0 (diagnosis()).
  EnergyTerms terms_at(const double* q, const double* v, double t);
  /// This rank's share of Ż = ∂T/∂t − ∂V/∂t − vᵀf − vᵀGᵀλ at the state y = [q, v, λ].
  double flow_rate(const double* y, double t) const;
  /// This rank's share of the k-th named power at the state y = [q, v, ...].
  double named_power(std::size_t k, const double* y, double t) const {
    return energies_.named_powers[k].power(y, y + dofs_, t);
  }
  /// Sums `count` values across the ranks when the state is spread over them (sum_shares).
  void sum_shares(double* values, int count) const {
    if (energies_.sum_shares) energies_.sum_shares(values, count);
  }

  /// What the checks at the first states found, in one line; empty when nothing is missing.
  std::string diagnosis() const;

 private:
  /// The states at which T and V without a given rate are checked for a dependence on t, and a T
  /// declared quadratic in v is split all the same.
  static constexpr int checked_states = 4;

  // T (V) seen to change with t at fixed q and v although no ∂T/∂t (∂V/∂t) was given, and the
  // rate seen then: Z misses that power, so δ_C cannot be judged.
  struct MissingRate {
    bool seen = false;
    double rate = 0, t = 0;
  };
  // T declared quadratic in v (DropInEnergies::kinetic_energy_is_quadratic) but found with a T1 or
  // a T0 beyond round-off at one of the first states: T is split at every state from there.
  struct NotQuadratic {
    bool seen = false;
    double T1 = 0, T0 = 0, t = 0;
  };

  EnergyTerms split_terms(const double* q, const double* v, double t);
  void check_time_dependence(const double* q, const double* v, double t, const EnergyTerms& e);

  int dofs_;
  DropInEnergies energies_;
  std::vector<double> minus_v_, zero_v_;  // sized at the first state: dofs alone may be any int
  int split_states_ = 0;                  // states whose T was split
  int time_dependence_checks_ = 0;        // states checked so far, up to checked_states
  MissingRate missing_kinetic_rate_, missing_potential_rate_;
  NotQuadratic not_quadratic_;
};

}  // namespace energy_audit::sun::detail
