#pragma once
/// \file
/// The program's energy functions as the drop-in audit evaluates them, in any of the three forms
/// (drop_in_form.hpp): the energies (T split by degree in v, and V), Ż and the named powers at a
/// state y read through its layout, each summed over the ranks that share the state, and the
/// checks at the first states that the functions describe the model whole.

#include <cstddef>
#include <energy_audit/energy_terms.hpp>
#include <string>
#include <vector>

#include "drop_in_form.hpp"
#include "drop_in_state_view.hpp"
#include "energy_audit/sundials/drop_in_layout.hpp"

namespace energy_audit::sun::detail {

class DropInEnergyEvaluation {
 public:
  /// Throws InvalidArgument, with `audit_name` ("CvodeAudit") in the message, for dofs ≤ 0 in
  /// Lagrange's or Hamilton's form, a missing T, V, H or E, a named power without a name or a
  /// function, and for an equation check on a state spread over ranks.
  DropInEnergyEvaluation(const char* audit_name, DropInForm form);

  int dofs() const { return form_.dofs; }
  /// The Lagrange form's functions; null in the other forms.
  const DropInEnergies* lagrange() const { return std::get_if<DropInEnergies>(&form_.energies); }
  std::size_t named_power_count() const;
  const std::string& named_power_name(std::size_t k) const;
  /// Ż reads the multipliers (Lagrange's form with constraint_power).
  bool reads_multipliers() const { return lagrange() != nullptr && lagrange()->constraint_power; }
  /// Ż reads y' (Hamilton's form with generalized forces but no coordinate_rates): q̇ from the
  /// solver's derivative.
  bool reads_state_derivative() const;
  /// Lagrange's equations are checked at each step's end (DropInEnergies::equation_residual).
  bool checks_equations() const { return lagrange() != nullptr && lagrange()->equation_residual; }

  /// Reads y through `layout` from now on (DropInLayout); InvalidArgument for one that cannot
  /// be n coordinates and n velocities, and in the whole-state form, which reads y whole.
  void use_layout(const DropInLayout& layout);
  /// InvalidArgument when the solver's state of `length` entries (this process's) does not hold
  /// the layout; `solver` ("CVODE") names it.
  void check_state(long length, const char* solver) const;

  /// The energies at (y, t), summed over the ranks: T split into T2, T1 and T0, and V (Hamilton's
  /// form: T = H − V; the whole state's: T = E). At the first states it also checks the
  /// functions given without a rate for a dependence on t, and a T declared quadratic in v for a
  /// T1 or a T0 (diagnosis()).
  EnergyTerms terms_at(const double* y, double t);
  /// This rank's share of Ż at the state y, y' (y' read only when reads_state_derivative()).
  double flow_rate(const double* y, const double* y_rate, double t);
  /// This rank's share of the k-th named power at the state y.
  double named_power(std::size_t k, const double* y, double t);
  /// Lagrange's equations at y with the accelerations of y' (DropInEnergies::equation_residual).
  void equation_residual(const double* y, const double* y_rate, double t, double* out);
  /// Sums `count` values across the ranks when the state is spread over them (sum_shares).
  void sum_shares(double* values, int count) const;
  /// The state is spread over ranks: the functions give shares that sum_shares adds.
  bool shares_state() const;

  /// What the checks at the first states found, in one line; empty when nothing is missing.
  std::string diagnosis() const;

 private:
  /// The states at which T and V without a given rate are checked for a dependence on t, and a T
  /// declared quadratic in v is split all the same.
  static constexpr int checked_states = 4;

  // An energy seen to change with t at fixed state although no rate of it was given, and the rate
  // seen then: Z misses that power, so δ_C cannot be judged.
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

  EnergyTerms lagrange_terms(const DropInEnergies& energies, const double* q, const double* v, double t);
  EnergyTerms hamilton_terms(const DropInHamiltonian& energies, const double* q, const double* p, double t);
  double hamilton_flow_rate(const DropInHamiltonian& energies, const double* y, const double* y_rate, double t);
  void check_time_dependence(const double* y, double t, const EnergyTerms& e);

  const char* audit_name_;
  DropInForm form_;
  DropInStateView view_;
  std::vector<double> minus_v_, zero_v_;  // sized at the first state: dofs alone may be any int
  std::vector<double> forces_, q_rate_;   // Q and q̇ of Hamilton's form
  int split_states_ = 0;                  // states whose T was split
  int time_dependence_checks_ = 0;        // states checked so far, up to checked_states
  MissingRate missing_kinetic_rate_, missing_potential_rate_;
  NotQuadratic not_quadratic_;
};

}  // namespace energy_audit::sun::detail
