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

template <class Powers>
void check_named_powers(const char* audit_name, const Powers& powers) {
  for (const auto& term : powers) {
    if (term.name.empty() || !term.power) {
      throw InvalidArgument(std::string(audit_name) + ": a named power term needs a name and a function" +
                            (term.name.empty() ? "" : " ('" + term.name + "' has none)"));
    }
  }
}

void check_dofs(const char* audit_name, int dofs) {
  if (dofs <= 0) {
    throw InvalidArgument(std::string(audit_name) + ": dofs = " + std::to_string(dofs) +
                          "; the number of coordinates must be > 0");
  }
}

}  // namespace

DropInEnergyEvaluation::DropInEnergyEvaluation(const char* audit_name, DropInForm form)
    : audit_name_(audit_name), form_(std::move(form)), view_(form_.dofs) {
  const std::string name = audit_name;
  if (const DropInEnergies* e = lagrange()) {
    check_dofs(audit_name, form_.dofs);
    if (!e->kinetic_energy || !e->potential_energy) {
      throw InvalidArgument(name + ": the kinetic and the potential energy are required");
    }
    check_named_powers(audit_name, e->named_powers);
    if (e->sum_shares && e->equation_residual) {
      throw InvalidArgument(name +
                            ": the equation check (equation_residual) needs the whole state in one process; "
                            "it cannot be used with sum_shares");
    }
  } else if (const auto* h = std::get_if<DropInHamiltonian>(&form_.energies)) {
    check_dofs(audit_name, form_.dofs);
    if (!h->hamiltonian) throw InvalidArgument(name + ": the Hamiltonian H(q, p, t) is required");
  } else {
    const auto& s = std::get<DropInStateEnergy>(form_.energies);
    if (!s.energy) throw InvalidArgument(name + ": the energy E(y, t) is required");
    check_named_powers(audit_name, s.named_powers);
  }
}

std::size_t DropInEnergyEvaluation::named_power_count() const {
  if (const DropInEnergies* e = lagrange()) return e->named_powers.size();
  if (const auto* s = std::get_if<DropInStateEnergy>(&form_.energies)) return s->named_powers.size();
  return 0;
}

const std::string& DropInEnergyEvaluation::named_power_name(std::size_t k) const {
  if (const DropInEnergies* e = lagrange()) return e->named_powers[k].name;
  return std::get<DropInStateEnergy>(form_.energies).named_powers[k].name;
}

bool DropInEnergyEvaluation::reads_state_derivative() const {
  const auto* h = std::get_if<DropInHamiltonian>(&form_.energies);
  return h != nullptr && h->generalized_forces && !h->coordinate_rates;
}

void DropInEnergyEvaluation::use_layout(const DropInLayout& layout) {
  if (std::holds_alternative<DropInStateEnergy>(form_.energies)) {
    throw InvalidArgument(std::string(audit_name_) +
                          ": the whole-state form (DropInStateEnergy) reads y whole; it takes no layout");
  }
  view_.use(layout, audit_name_);
}

void DropInEnergyEvaluation::check_state(long length, const char* solver) const {
  if (std::holds_alternative<DropInStateEnergy>(form_.energies)) return;  // its functions read y whole
  view_.check(length, reads_multipliers(), audit_name_, solver);
}

void DropInEnergyEvaluation::sum_shares(double* values, int count) const {
  const auto& sum = std::visit([](const auto& e) -> const auto& { return e.sum_shares; }, form_.energies);
  if (sum) sum(values, count);
}

bool DropInEnergyEvaluation::shares_state() const {
  return std::visit([](const auto& e) { return static_cast<bool>(e.sum_shares); }, form_.energies);
}

EnergyTerms DropInEnergyEvaluation::terms_at(const double* y, double t) {
  EnergyTerms e;
  if (const DropInEnergies* energies = lagrange()) {
    const auto [q, v] = view_.coordinates_and_velocities(y);
    e = lagrange_terms(*energies, q, v, t);
  } else if (const auto* h = std::get_if<DropInHamiltonian>(&form_.energies)) {
    const auto [q, p] = view_.coordinates_and_velocities(y);
    e = hamilton_terms(*h, q, p, t);
  } else {
    double energy = std::get<DropInStateEnergy>(form_.energies).energy(y, t);
    sum_shares(&energy, 1);
    e.T = e.T2 = energy;
  }
  if (time_dependence_checks_ < checked_states) check_time_dependence(y, t, e);
  return e;
}

EnergyTerms DropInEnergyEvaluation::lagrange_terms(const DropInEnergies& energies, const double* q, const double* v,
                                                   double t) {
  // T declared quadratic in v (T = T2): split only at the first states, which check the claim.
  if (energies.kinetic_energy_is_quadratic && !not_quadratic_.seen && split_states_ >= checked_states) {
    double shares[2] = {energies.kinetic_energy(q, v, t), energies.potential_energy(q, t)};
    sum_shares(shares, 2);
    EnergyTerms e = split_kinetic_energy(shares[0], shares[0], 0.0);
    e.V = shares[1];
    return e;
  }
  ++split_states_;
  if (zero_v_.empty()) {
    minus_v_.resize(static_cast<std::size_t>(dofs()));
    zero_v_.assign(static_cast<std::size_t>(dofs()), 0.0);
  }
  for (int i = 0; i < dofs(); ++i) minus_v_[static_cast<std::size_t>(i)] = -v[i];
  // T(q, v), T(q, −v), T(q, 0) and V: this rank's shares, summed before the split.
  double shares[4] = {energies.kinetic_energy(q, v, t), energies.kinetic_energy(q, minus_v_.data(), t),
                      energies.kinetic_energy(q, zero_v_.data(), t), energies.potential_energy(q, t)};
  sum_shares(shares, 4);
  EnergyTerms e = split_kinetic_energy(shares[0], shares[1], shares[2]);
  e.V = shares[3];
  if (energies.kinetic_energy_is_quadratic && !not_quadratic_.seen) {
    const double resolution = round_off_of(e);
    if (std::abs(e.T1) > resolution || std::abs(e.T0) > resolution) not_quadratic_ = {true, e.T1, e.T0, t};
  }
  return e;
}

EnergyTerms DropInEnergyEvaluation::hamilton_terms(const DropInHamiltonian& energies, const double* q,
                                                   const double* p, double t) {
  double shares[2] = {energies.hamiltonian(q, p, t), energies.potential_energy ? energies.potential_energy(q, t) : 0.0};
  sum_shares(shares, 2);
  EnergyTerms e;
  e.T = e.T2 = shares[0] - shares[1];
  e.V = shares[1];
  return e;
}

double DropInEnergyEvaluation::flow_rate(const double* y, const double* y_rate, double t) {
  if (const DropInEnergies* energies = lagrange()) {
    const auto [q, v] = view_.coordinates_and_velocities(y);
    double rate = 0;
    if (energies->kinetic_energy_rate) rate += energies->kinetic_energy_rate(q, v, t);
    if (energies->potential_energy_rate) rate -= energies->potential_energy_rate(q, t);
    if (energies->nonpotential_power) rate -= energies->nonpotential_power(q, v, t);
    if (energies->constraint_power) rate -= energies->constraint_power(q, v, view_.multipliers(y), t);
    return rate;
  }
  if (const auto* h = std::get_if<DropInHamiltonian>(&form_.energies)) return hamilton_flow_rate(*h, y, y_rate, t);
  const auto& s = std::get<DropInStateEnergy>(form_.energies);
  double rate = 0;
  if (s.energy_rate) rate -= s.energy_rate(y, t);
  if (s.power) rate -= s.power(y, t);
  return rate;
}

double DropInEnergyEvaluation::hamilton_flow_rate(const DropInHamiltonian& energies, const double* y,
                                                  const double* y_rate, double t) {
  const auto [q, p] = view_.coordinates_and_velocities(y);
  double rate = energies.hamiltonian_rate ? -energies.hamiltonian_rate(q, p, t) : 0.0;
  if (!energies.generalized_forces) return rate;
  const auto n = static_cast<std::size_t>(dofs());
  forces_.resize(n);
  energies.generalized_forces(q, p, t, forces_.data());
  const double* q_rate = nullptr;
  if (energies.coordinate_rates) {
    q_rate_.resize(n);
    energies.coordinate_rates(q, p, t, q_rate_.data());
    q_rate = q_rate_.data();
  } else {
    q_rate = view_.coordinates_of(y_rate);
  }
  for (std::size_t i = 0; i < n; ++i) rate -= q_rate[i] * forces_[i];
  return rate;
}

double DropInEnergyEvaluation::named_power(std::size_t k, const double* y, double t) {
  if (const DropInEnergies* energies = lagrange()) {
    const auto [q, v] = view_.coordinates_and_velocities(y);
    return energies->named_powers[k].power(q, v, t);
  }
  return std::get<DropInStateEnergy>(form_.energies).named_powers[k].power(y, t);
}

void DropInEnergyEvaluation::equation_residual(const double* y, const double* y_rate, double t, double* out) {
  lagrange()->equation_residual(view_.coordinates(y), view_.velocities(y), view_.velocities_of(y_rate), t, out);
}

/// Whether an energy given without its rate changes with t at fixed state: a function that does
/// not read t returns the same value at t + Δt, while the smallest dependence that could move δ_C
/// changes it by far more than round-off.
void DropInEnergyEvaluation::check_time_dependence(const double* y, double t, const EnergyTerms& e) {
  ++time_dependence_checks_;
  const double dt = 1e-6 * std::max(1.0, std::abs(t));
  const double resolution = round_off_of(e);
  const auto note = [&](MissingRate& missing, double at_t, double later) {
    if (missing.seen || std::abs(later - at_t) <= resolution) return;
    missing = {true, (later - at_t) / dt, t};
  };
  double shares[4] = {0, 0, 0, 0};  // T (H, E) and V at t and t + Δt, this rank's shares
  bool kinetic_checked = false, potential_checked = false;
  if (const DropInEnergies* energies = lagrange()) {
    const double* q = view_.coordinates(y);
    const double* v = view_.velocities(y);
    kinetic_checked = !energies->kinetic_energy_rate;
    potential_checked = !energies->potential_energy_rate;
    if (kinetic_checked) {
      shares[0] = energies->kinetic_energy(q, v, t);
      shares[1] = energies->kinetic_energy(q, v, t + dt);
    }
    if (potential_checked) {
      shares[2] = energies->potential_energy(q, t);
      shares[3] = energies->potential_energy(q, t + dt);
    }
  } else if (const auto* h = std::get_if<DropInHamiltonian>(&form_.energies)) {
    kinetic_checked = !h->hamiltonian_rate;
    if (kinetic_checked) {
      const double* q = view_.coordinates(y);
      const double* p = view_.velocities(y);
      shares[0] = h->hamiltonian(q, p, t);
      shares[1] = h->hamiltonian(q, p, t + dt);
    }
  } else {
    const auto& s = std::get<DropInStateEnergy>(form_.energies);
    kinetic_checked = !s.energy_rate;
    if (kinetic_checked) {
      shares[0] = s.energy(y, t);
      shares[1] = s.energy(y, t + dt);
    }
  }
  sum_shares(shares, 4);
  if (kinetic_checked) note(missing_kinetic_rate_, shares[0], shares[1]);
  if (potential_checked) note(missing_potential_rate_, shares[2], shares[3]);
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
  if (lagrange() != nullptr) {
    describe(missing_kinetic_rate_, "T changes with t at fixed q and v but no kinetic_energy_rate (dT/dt) was given");
    describe(missing_potential_rate_, "V changes with t at fixed q but no potential_energy_rate (dV/dt) was given");
  } else if (std::holds_alternative<DropInHamiltonian>(form_.energies)) {
    describe(missing_kinetic_rate_, "H changes with t at fixed q and p but no hamiltonian_rate (dH/dt) was given");
  } else {
    describe(missing_kinetic_rate_, "E changes with t at fixed y but no energy_rate (dE/dt) was given");
  }
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
