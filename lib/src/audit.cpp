#include "energy_audit/audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "energy_audit/error.hpp"

namespace energy_audit {

Audit::Audit(AuditOptions options) : options_(std::move(options)) {
  if (!(options_.threshold >= 0) || !std::isfinite(options_.threshold)) {
    throw InvalidArgument("audit threshold must be finite and >= 0");
  }
  std::sort(options_.output_times.begin(), options_.output_times.end());
}

void Audit::record(const EnergySample& sample) {
  const double C = sample.C();
  const EnergyTerms& e = sample.energy;
  if (accepted_steps_ == 0) {
    C0_ = C;
    layout_ = HistoryLayout::of(sample);
  }
  // A non-finite C (or C0) must fail the audit, and std::max would drop a NaN.
  const double drift =
      std::isfinite(C) && std::isfinite(C0_) ? std::abs(C - C0_) : std::numeric_limits<double>::infinity();
  max_abs_drift_ = std::max(max_abs_drift_, drift);
  energy_scale_ = std::max({energy_scale_, std::abs(e.E()), std::abs(e.T), std::abs(e.V)});
  if (sample.constraint_drift) {
    // ‖Φ‖ is NaN for kinematic constraints: the sup stays NaN only if every step has NaN.
    const ConstraintDrift& d = *sample.constraint_drift;
    if (!max_constraint_drift_) max_constraint_drift_ = d;
    ConstraintDrift& sup = *max_constraint_drift_;
    if (std::isnan(sup.position) || d.position > sup.position) sup.position = d.position;
    if (std::isnan(sup.velocity) || d.velocity > sup.velocity) sup.velocity = d.velocity;
  }
  ++accepted_steps_;

  // The row is written once, where it stays.
  last_row_stored_ = should_store(sample.t);
  if (last_row_stored_) {
    History::make_row(sample, history_.append_row(layout_));
  } else {
    unstored_row_.resize(layout_.row_size());
    History::make_row(sample, unstored_row_);
  }
}

std::span<const double> Audit::last_row() const {
  if (accepted_steps_ == 0) return {};
  return last_row_stored_ ? history_.row(history_.rows() - 1) : std::span<const double>(unstored_row_);
}

bool Audit::should_store(double t) {
  if (options_.output_times.empty()) {
    if (options_.store_every == 0) return false;
    if (steps_to_next_store_ > 0) {
      --steps_to_next_store_;
      return false;
    }
    steps_to_next_store_ = options_.store_every - 1;
    return true;
  }
  // A step at an output time may land a rounding error short of it.
  const auto reached = [t](double output) { return t >= output - 1e-12 * std::max(1.0, std::abs(output)); };
  bool store = false;
  while (next_output_ < options_.output_times.size() && reached(options_.output_times[next_output_])) {
    store = true;
    ++next_output_;
  }
  return store;
}

double Audit::relative_drift() const {
  // Non-finite energies (a diverging state) leave nothing to vouch for.
  if (!std::isfinite(max_abs_drift_) || !std::isfinite(energy_scale_)) return std::numeric_limits<double>::infinity();
  if (max_abs_drift_ == 0) return 0.0;
  if (energy_scale_ == 0) return std::numeric_limits<double>::infinity();
  return max_abs_drift_ / energy_scale_;
}

Verdict Audit::verdict() const {
  return relative_drift() <= options_.threshold ? Verdict::Pass : Verdict::Fail;
}

}  // namespace energy_audit
