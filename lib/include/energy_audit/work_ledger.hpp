#pragma once
/// \file
/// The work ledger (docs/mathematics.md, the work ledger): the work W_k = ∫ vᵀ f_k dt of each
/// force a model names (named_forces.hpp) and the work of its explicit time dependence
/// ∫ (∂T/∂t − ∂V/∂t) dt, integrated by the trapezoid rule over the accepted steps it is given
/// (second order in the step), so that Z = W_explicit − Σ W_k to that order; beside it the
/// residual power dC/dt between steps, and the named force whose power has its shape, if one has.
/// The audit keeps one for a system whose model names its forces (named_forces.hpp);
/// history_work_ledger.hpp makes one from stored rows.

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "energy_audit/error.hpp"

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

/// The ledger itself: fed one accepted step at a time (record), it keeps the works, the sums
/// the suspect needs and, when asked, the residual power at every step (one pair per step).
class WorkLedger {
 public:
  explicit WorkLedger(std::vector<std::string> force_names, bool keep_residual_power = true)
      : names_(std::move(force_names)), sums_(names_.size()), keep_residual_power_(keep_residual_power) {}

  /// One accepted step, in order of time: the power vᵀ f_k of each named force, ∂T/∂t − ∂V/∂t,
  /// and the control function C there. Inline: the audit feeds it at every step.
  [[gnu::always_inline]] void record(double t, std::span<const double> force_powers,
                                     double explicit_time_power, double C) {
    if (force_powers.size() != sums_.size()) throw_power_count_mismatch(force_powers.size());
    if (steps_ > 0) {
      const double h = t - previous_t_;
      const double residual = h > 0 ? (C - previous_C_) / h : 0.0;
      for (std::size_t k = 0; k < sums_.size(); ++k) {
        ForceSums& f = sums_[k];
        const double mean = 0.5 * (f.previous_power + force_powers[k]);
        f.work += h * mean;
        f.residual_times_force += h * residual * mean;
        f.force_squared += h * mean * mean;
        f.previous_power = force_powers[k];
      }
      residual_squared_ += h * residual * residual;
      explicit_time_work_ += 0.5 * h * (previous_explicit_power_ + explicit_time_power);
      if (keep_residual_power_ && h > 0) residual_power_.push_back({previous_t_ + 0.5 * h, residual});
    } else {
      C0_ = C;
      for (std::size_t k = 0; k < sums_.size(); ++k) sums_[k].previous_power = force_powers[k];
    }
    ++steps_;
    previous_t_ = t;
    previous_C_ = C;
    previous_explicit_power_ = explicit_time_power;
  }

  const std::vector<std::string>& force_names() const { return names_; }
  /// W_k [J], in the order of force_names().
  std::vector<double> works() const {
    std::vector<double> works;
    works.reserve(sums_.size());
    for (const ForceSums& f : sums_) works.push_back(f.work);
    return works;
  }
  double explicit_time_work() const { return explicit_time_work_; }  ///< ∫ (∂T/∂t − ∂V/∂t) dt [J]
  /// W_explicit − Σ W_k: the ledger's account of Z [J].
  double ledger_Z() const {
    double sum = explicit_time_work_;
    for (const ForceSums& f : sums_) sum -= f.work;
    return sum;
  }
  /// C(last step) − C(first step) [J]: the work the energies and the ledger leave unexplained.
  double residual_work() const { return steps_ > 0 ? previous_C_ - C0_ : 0.0; }
  /// dC/dt on every step, when kept (empty otherwise).
  const std::vector<ResidualPower>& residual_power() const { return residual_power_; }
  std::size_t steps() const { return steps_; }

  /// The named force whose power correlates best with the residual power (SuspectForce), when
  /// |correlation| ≥ min_correlation; none otherwise, and none while the residual power is 0.
  std::optional<SuspectForce> suspect(double min_correlation = default_suspect_correlation) const {
    std::optional<SuspectForce> best;
    for (std::size_t k = 0; k < names_.size(); ++k) {
      const double rp = sums_[k].residual_times_force, pp = sums_[k].force_squared;
      if (!(residual_squared_ > 0 && pp > 0)) continue;
      const double correlation = rp / std::sqrt(residual_squared_ * pp);
      if (std::abs(correlation) >= min_correlation && (!best || std::abs(correlation) > std::abs(best->correlation))) {
        best = SuspectForce{k, correlation, rp / pp};
      }
    }
    return best;
  }

 private:
  std::vector<std::string> names_;
  /// What the ledger keeps of one named force, together: the step touches all of it.
  struct ForceSums {
    double previous_power = 0;        ///< p_k at the step before
    double work = 0;                  ///< W_k
    double residual_times_force = 0;  ///< Σ h r p_k
    double force_squared = 0;         ///< Σ h p_k²
  };

  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void throw_power_count_mismatch(std::size_t powers) const {
    throw InvalidArgument("the work ledger names " + std::to_string(names_.size()) + " forces; a step gave " +
                          std::to_string(powers) + " powers");
  }

  std::vector<ForceSums> sums_;
  double residual_squared_ = 0;  ///< Σ h r²
  std::vector<ResidualPower> residual_power_;
  bool keep_residual_power_;
  double explicit_time_work_ = 0, previous_explicit_power_ = 0;
  double previous_t_ = 0, previous_C_ = 0, C0_ = 0;
  std::size_t steps_ = 0;
};

}  // namespace energy_audit
