#pragma once
/// \file
/// The work ledger (docs/mathematics.md, the work ledger): the work W_k = ∫ vᵀ f_k dt of each
/// force a model names (named_forces.hpp) and the work of its explicit time dependence
/// ∫ (∂T/∂t − ∂V/∂t) dt, integrated by the trapezoid rule over the accepted steps it is given
/// (second order in the step), so that Z = W_explicit − Σ W_k to that order; beside it the
/// residual power dC/dt between steps, and the named force whose power has its shape, if one has.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "energy_audit/energy_flow.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/history.hpp"
#include "energy_audit/named_forces.hpp"

namespace energy_audit {

/// dC/dt between two accepted steps: (C(t_{i+1}) − C(t_i)) / (t_{i+1} − t_i), at the interval's
/// midpoint t [W].
struct ResidualPower {
  double t;
  double power;
};

/// A named force whose power has the residual power's shape: over the steps, with the residual
/// power r_i and the force's trapezoid-mean power p_i on each interval of length h_i,
/// correlation = Σ h r p / sqrt(Σ h r² · Σ h p²) (the cosine of the two as functions of time)
/// and ratio = Σ h r p / Σ h p² (the least-squares r ≈ ratio · p).
struct SuspectForce {
  std::size_t force;   ///< index into force_names()
  double correlation;  ///< in [−1, 1]
  double ratio;
};

/// The least correlation at which WorkLedger::suspect names a force.
inline constexpr double default_suspect_correlation = 0.99;

class WorkLedger {
 public:
  explicit WorkLedger(std::vector<std::string> force_names)
      : names_(std::move(force_names)), works_(names_.size(), 0.0), powers_(names_.size()),
        previous_powers_(names_.size(), 0.0) {}

  /// One accepted step, in order of time: the power vᵀ f_k of each named force, ∂T/∂t − ∂V/∂t,
  /// and the control function C there.
  void record(double t, std::span<const double> force_powers, double explicit_time_power, double C) {
    if (force_powers.size() != names_.size()) {
      throw InvalidArgument("the work ledger names " + std::to_string(names_.size()) + " forces; a step gave " +
                            std::to_string(force_powers.size()) + " powers");
    }
    if (steps_ > 0) {
      const double h = t - previous_t_;
      for (std::size_t k = 0; k < names_.size(); ++k) {
        const double mean = 0.5 * (previous_powers_[k] + force_powers[k]);
        works_[k] += h * mean;
        powers_[k].push_back(mean);
      }
      explicit_time_work_ += 0.5 * h * (previous_explicit_power_ + explicit_time_power);
      if (h > 0) residual_power_.push_back({previous_t_ + 0.5 * h, (C - previous_C_) / h});
      steps_lengths_.push_back(h);
    } else {
      C0_ = C;
    }
    ++steps_;
    previous_t_ = t;
    previous_C_ = C;
    previous_explicit_power_ = explicit_time_power;
    std::copy(force_powers.begin(), force_powers.end(), previous_powers_.begin());
  }

  const std::vector<std::string>& force_names() const { return names_; }
  const std::vector<double>& works() const { return works_; }  ///< W_k [J], in the order of force_names()
  double explicit_time_work() const { return explicit_time_work_; }  ///< ∫ (∂T/∂t − ∂V/∂t) dt [J]
  /// W_explicit − Σ W_k: the ledger's account of Z [J].
  double ledger_Z() const {
    double sum = explicit_time_work_;
    for (const double w : works_) sum -= w;
    return sum;
  }
  /// C(last step) − C(first step) [J]: the work the energies and the ledger leave unexplained.
  double residual_work() const { return steps_ > 0 ? previous_C_ - C0_ : 0.0; }
  const std::vector<ResidualPower>& residual_power() const { return residual_power_; }
  std::size_t steps() const { return steps_; }

  /// The named force whose power correlates best with the residual power (SuspectForce), when
  /// |correlation| ≥ min_correlation; none otherwise, and none while the residual power is 0.
  std::optional<SuspectForce> suspect(double min_correlation = default_suspect_correlation) const {
    std::optional<SuspectForce> best;
    for (std::size_t k = 0; k < names_.size(); ++k) {
      double rp = 0, rr = 0, pp = 0;
      std::size_t r_index = 0;
      for (std::size_t i = 0; i < steps_lengths_.size(); ++i) {
        const double h = steps_lengths_[i];
        if (!(h > 0)) continue;
        const double r = residual_power_[r_index++].power, p = powers_[k][i];
        rp += h * r * p;
        rr += h * r * r;
        pp += h * p * p;
      }
      if (!(rr > 0 && pp > 0)) continue;
      const double correlation = rp / std::sqrt(rr * pp);
      if (std::abs(correlation) >= min_correlation && (!best || std::abs(correlation) > std::abs(best->correlation))) {
        best = SuspectForce{k, correlation, rp / pp};
      }
    }
    return best;
  }

 private:
  std::vector<std::string> names_;
  std::vector<double> works_;
  std::vector<std::vector<double>> powers_;  ///< per force, its trapezoid-mean power on each interval
  std::vector<double> previous_powers_;
  std::vector<double> steps_lengths_;
  std::vector<ResidualPower> residual_power_;
  double explicit_time_work_ = 0, previous_explicit_power_ = 0;
  double previous_t_ = 0, previous_C_ = 0, C0_ = 0;
  std::size_t steps_ = 0;
};

/// The force names of model M, as the ledger holds them (none for a model that names none).
template <LagrangeModel M>
std::vector<std::string> ledger_force_names() {
  std::vector<std::string> names;
  if constexpr (NamedForcesModel<M>) {
    for (const auto name : M::force_names()) names.emplace_back(name);
  }
  return names;
}

/// The ledger of a Lagrange run (rows t, q, v, ..., C, as LagrangeSystem's audit stores them),
/// over the rows held: every accepted step when the audit stored every one (store_every = 1).
/// Checks at the first two rows that the named forces sum to forces() (check_named_forces_sum):
/// at rest a velocity-dependent mismatch vanishes, as the equation check's does.
template <LagrangeModel M>
WorkLedger work_ledger(const M& model, const History& history) {
  WorkLedger ledger(ledger_force_names<M>());
  const HistoryLayout& layout = history.layout();
  constexpr int n = M::dofs;
  if (history.rows() == 0) return ledger;
  if (layout.dofs != static_cast<std::size_t>(n) || layout.second_half != static_cast<std::size_t>(n)) {
    throw InvalidArgument("the work ledger needs a Lagrange run of the model's " + std::to_string(n) +
                          " coordinates and velocities");
  }
  const std::size_t C_column = layout.energy_offset() + History::energy_column_count - 1;
  for (std::size_t i = 0; i < history.rows(); ++i) {
    const std::span<const double> row = history.row(i);
    const double t = row[0];
    VectorN<double, n> q, v;
    for (int j = 0; j < n; ++j) {
      q[j] = row[1 + j];
      v[j] = row[1 + n + j];
    }
    if (i < 2) check_named_forces_sum(model, q, v, t);
    const auto powers = named_force_powers(model, q, v, t);
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model, q, v, t);
    ledger.record(t, powers, d.T_t - d.V_t, row[C_column]);
  }
  return ledger;
}

}  // namespace energy_audit
