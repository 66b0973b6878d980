#include "drop_in_energy_evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <energy_audit/error.hpp>
#include <limits>
#include <utility>

namespace energy_audit::sun::detail {
namespace {

/// The round-off of energies of the size of T and V: a change of T or V, or a T1 or T0, beyond it
/// is the model's, not the arithmetic's.
double round_off_of(const EnergyTerms& e) {
  return 1e3 * std::numeric_limits<double>::epsilon() *
         std::max({std::abs(e.T), std::abs(e.V), std::numeric_limits<double>::min()});
}

}  // namespace

DropInEnergyEvaluation::DropInEnergyEvaluation(const char* audit_name, int dofs, DropInEnergies energies)
    : dofs_(dofs), energies_(std::move(energies)) {
  for (const DropInNamedPower& term : energies_.named_powers) {
    if (term.name.empty() || !term.power) {
      throw InvalidArgument(std::string(audit_name) + ": a named power term needs a name and a function" +
                            (term.name.empty() ? "" : " ('" + term.name + "' has none)"));
    }
  }
  if (energies_.sum_shares && energies_.equation_residual) {
    throw InvalidArgument(std::string(audit_name) +
                          ": the equation check (equation_residual) needs the whole state in one process; "
                          "it cannot be used with sum_shares");
  }
}

EnergyTerms DropInEnergyEvaluation::terms_at(const double* q, const double* v, double t) {
  const EnergyTerms e = split_terms(q, v, t);
  if (time_dependence_checks_ < checked_states) check_time_dependence(q, v, t, e);
  return e;
}

EnergyTerms DropInEnergyEvaluation::split_terms(const double* q, const double* v, double t) {
  // T declared quadratic in v (T = T2): split only at the first states, which check the claim.
  if (energies_.kinetic_energy_is_quadratic && !not_quadratic_.seen && split_states_ >= checked_states) {
    double shares[2] = {energies_.kinetic_energy(q, v, t), energies_.potential_energy(q, t)};
    sum_shares(shares, 2);
    EnergyTerms e = split_kinetic_energy(shares[0], shares[0], 0.0);
    e.V = shares[1];
    return e;
  }
  ++split_states_;
  if (zero_v_.empty()) {
    minus_v_.resize(static_cast<std::size_t>(dofs_));
    zero_v_.assign(static_cast<std::size_t>(dofs_), 0.0);
  }
  for (int i = 0; i < dofs_; ++i) minus_v_[static_cast<std::size_t>(i)] = -v[i];
  // T(q, v), T(q, −v), T(q, 0) and V: this rank's shares, summed before the split.
  double shares[4] = {energies_.kinetic_energy(q, v, t), energies_.kinetic_energy(q, minus_v_.data(), t),
                      energies_.kinetic_energy(q, zero_v_.data(), t), energies_.potential_energy(q, t)};
  sum_shares(shares, 4);
  EnergyTerms e = split_kinetic_energy(shares[0], shares[1], shares[2]);
  e.V = shares[3];
  if (energies_.kinetic_energy_is_quadratic && !not_quadratic_.seen) {
    const double resolution = round_off_of(e);
    if (std::abs(e.T1) > resolution || std::abs(e.T0) > resolution) not_quadratic_ = {true, e.T1, e.T0, t};
  }
  return e;
}

double DropInEnergyEvaluation::flow_rate(const double* y, double t) const {
  const double* q = y;
  const double* v = y + dofs_;
  double rate = 0;
  if (energies_.kinetic_energy_rate) rate += energies_.kinetic_energy_rate(q, v, t);
  if (energies_.potential_energy_rate) rate -= energies_.potential_energy_rate(q, t);
  if (energies_.nonpotential_power) rate -= energies_.nonpotential_power(q, v, t);
  if (energies_.constraint_power) rate -= energies_.constraint_power(q, v, y + 2 * dofs_, t);
  return rate;
}

/// Whether T (V), given without ∂T/∂t (∂V/∂t), changes with t at fixed q and v at this state: a
/// function that does not read t returns the same value at t + Δt, while the smallest dependence
/// that could move δ_C changes it by far more than round-off.
void DropInEnergyEvaluation::check_time_dependence(const double* q, const double* v, double t,
                                                   const EnergyTerms& e) {
  ++time_dependence_checks_;
  const double dt = 1e-6 * std::max(1.0, std::abs(t));
  const double resolution = round_off_of(e);
  const auto note = [&](MissingRate& missing, double at_t, double later) {
    if (missing.seen || std::abs(later - at_t) <= resolution) return;
    missing = {true, (later - at_t) / dt, t};
  };
  double shares[4] = {0, 0, 0, 0};  // T and V at t and t + Δt, this rank's shares
  if (!energies_.kinetic_energy_rate) {
    shares[0] = energies_.kinetic_energy(q, v, t);
    shares[1] = energies_.kinetic_energy(q, v, t + dt);
  }
  if (!energies_.potential_energy_rate) {
    shares[2] = energies_.potential_energy(q, t);
    shares[3] = energies_.potential_energy(q, t + dt);
  }
  sum_shares(shares, 4);
  if (!energies_.kinetic_energy_rate) note(missing_kinetic_rate_, shares[0], shares[1]);
  if (!energies_.potential_energy_rate) note(missing_potential_rate_, shares[2], shares[3]);
}

std::string DropInEnergyEvaluation::diagnosis() const {
  std::string line;
  const auto describe = [&line](const MissingRate& missing, const char* what) {
    if (!missing.seen) return;
    char text[256];
    std::snprintf(text, sizeof text, "%s%s (%.3g W at t = %.6g)", line.empty() ? "" : "; ", what, missing.rate,
                  missing.t);
    line += text;
  };
  describe(missing_kinetic_rate_, "T changes with t at fixed q and v but no kinetic_energy_rate (dT/dt) was given");
  describe(missing_potential_rate_, "V changes with t at fixed q but no potential_energy_rate (dV/dt) was given");
  if (!line.empty()) line += ": Z misses that power, so delta_C is not judged";
  if (not_quadratic_.seen) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%sT was declared quadratic in v (kinetic_energy_is_quadratic) but has T1 = %.3g J, "
                  "T0 = %.3g J at t = %.6g; T is split at every state from there",
                  line.empty() ? "" : "; ", not_quadratic_.T1, not_quadratic_.T0, not_quadratic_.t);
    line += text;
  }
  return line;
}

}  // namespace energy_audit::sun::detail
