#pragma once
/// \file
/// The audit of a kinematic system (kinematic_system.hpp): the drift ‖f(q_n, t_n)‖ of its
/// constraints at the initial state and every accepted step, and its verdict over the run's
/// interval [t0, t1] by the rules that judge the ellipse of seed 001 (docs/models.md, the ellipse):
///
///   1. unstable: the run stopped as diverged (‖f‖ non-finite or beyond 1e100), or max ‖f‖ > 1;
///   2. drifting: late > 1.5 mid and late > 1e-12 (‖f‖ still growing), where mid = max ‖f‖ over
///      t0 + (t1 − t0)/4 < t ≤ t0 + (t1 − t0)/2 and late = max ‖f‖ over t > t0 + 3 (t1 − t0)/4
///      ((5, 10] and (15, 20] on [0, 20]);
///   3. drifting: the transverse multiplier rho > 1, when it is known (transverse_multiplier.hpp);
///   4. neutral: f0 ≠ 0 and ‖f‖ at the end > ½ ‖f0‖ (the initial error is not removed);
///   5. stable: otherwise.

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "energy_audit/kinematic_system.hpp"
#include "energy_audit/run_end.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

enum class DriftVerdict { Unstable, Drifting, Neutral, Stable };

constexpr std::string_view to_string(DriftVerdict verdict) {
  switch (verdict) {
    case DriftVerdict::Unstable: return "unstable";
    case DriftVerdict::Drifting: return "drifting";
    case DriftVerdict::Neutral: return "neutral";
    case DriftVerdict::Stable: return "stable";
  }
  return "?";
}

class ConstraintDriftAudit {
 public:
  /// ‖f‖ above which a run is unstable (rule 1).
  static constexpr double unstable_bound = 1.0;

  void begin_run(double t0, double t1) {
    t0_ = t0;
    t1_ = t1;
    times_.clear();
    drifts_.clear();
    end_ = RunEnd::Finished;
  }
  /// ‖f‖ at t, for the initial state and every accepted step in order.
  void record(double t, double drift) {
    times_.push_back(t);
    drifts_.push_back(drift);
  }
  void end_run(RunEnd end, double) { end_ = end; }

  const std::vector<double>& times() const { return times_; }
  const std::vector<double>& drifts() const { return drifts_; }  ///< ‖f‖ per recorded state
  double initial() const { return drifts_.empty() ? 0.0 : drifts_.front(); }
  double final() const { return drifts_.empty() ? 0.0 : drifts_.back(); }
  /// max ‖f‖ over the run; +inf once a recorded ‖f‖ is not finite.
  double max() const {
    double largest = 0;
    for (double f : drifts_) largest = std::isfinite(f) ? std::max(largest, f) : INFINITY;
    return largest;
  }
  double mid() const { return max_over(t0_ + 0.25 * (t1_ - t0_), t0_ + 0.5 * (t1_ - t0_) + 1e-12); }
  double late() const { return max_over(t0_ + 0.75 * (t1_ - t0_) + 1e-12, INFINITY); }
  bool diverged() const { return end_ == RunEnd::Diverged; }
  RunEnd end() const { return end_; }

  /// The verdict of the rules above; rule 3 only when rho is given.
  DriftVerdict verdict(std::optional<double> rho = {}) const {
    if (diverged() || !(max() <= unstable_bound)) return DriftVerdict::Unstable;
    if (late() > 1.5 * mid() && late() > 1e-12) return DriftVerdict::Drifting;
    if (rho && *rho > 1) return DriftVerdict::Drifting;
    if (initial() != 0 && final() > 0.5 * std::abs(initial())) return DriftVerdict::Neutral;
    return DriftVerdict::Stable;
  }

 private:
  double max_over(double after, double up_to) const {
    double largest = 0;
    for (std::size_t i = 0; i < times_.size(); ++i) {
      if (times_[i] > after && times_[i] <= up_to) largest = std::max(largest, drifts_[i]);
    }
    return largest;
  }

  double t0_ = 0, t1_ = 0;
  std::vector<double> times_, drifts_;
  RunEnd end_ = RunEnd::Finished;
};

/// An observer that records ‖f(q, t)‖ of `system` into `audit` (both must outlive it).
template <KinematicModel M>
struct ConstraintDriftObserver {
  const KinematicSystem<M>& system;
  ConstraintDriftAudit& audit;
  void begin_run(double t0, double t1) { audit.begin_run(t0, t1); }
  void operator()(const ConstVectorRef& q, double t) { audit.record(t, system.constraint_values(q, t).norm()); }
  void end_run(RunEnd end, double t) { audit.end_run(end, t); }
};

template <KinematicModel M>
ConstraintDriftObserver<M> watch_constraints(const KinematicSystem<M>& system, ConstraintDriftAudit& audit) {
  return {system, audit};
}

}  // namespace energy_audit
