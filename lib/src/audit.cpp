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

void Audit::start(const EnergySample& sample) {
  C0_ = sample.C();
  layout_ = HistoryLayout::of(sample);
}

void Audit::record_constraint_drift(const ConstraintDrift& drift) {
  // ‖Φ‖ is NaN for kinematic constraints: the sup stays NaN only if every step has NaN.
  if (!max_constraint_drift_) max_constraint_drift_ = drift;
  ConstraintDrift& sup = *max_constraint_drift_;
  if (std::isnan(sup.position) || drift.position > sup.position) sup.position = drift.position;
  if (std::isnan(sup.velocity) || drift.velocity > sup.velocity) sup.velocity = drift.velocity;
}

std::span<const double> Audit::last_row() const {
  if (accepted_steps_ == 0) return {};
  return last_row_stored_ ? history_.row(history_.rows() - 1) : std::span<const double>(unstored_row_);
}

bool Audit::reached_output_time(double t) {
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
