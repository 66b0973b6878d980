#include "energy_audit/audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "energy_audit/error.hpp"

namespace energy_audit {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Diverged: return "diverged";
    case Verdict::Error: return "error";
    case Verdict::Interrupted: return "interrupted";
    case Verdict::Incomplete: break;
  }
  return "incomplete";
}

Audit::Audit(AuditOptions options)
    : options_(std::move(options)), history_(options_.row_sink), equation_check_(options_.equation_threshold) {
  if (!(options_.threshold >= 0) || !std::isfinite(options_.threshold)) {
    throw InvalidArgument("audit threshold must be finite and >= 0");
  }
  if (!(options_.drift_threshold >= 0) || !std::isfinite(options_.drift_threshold)) {
    throw InvalidArgument("audit drift threshold must be finite and >= 0");
  }
  std::sort(options_.output_times.begin(), options_.output_times.end());
}

void Audit::begin_run(double t0, double t1) {
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t1 > t0)) {
    throw InvalidArgument("audit: the interval [" + to_text(t0) + ", " + to_text(t1) + "] is not finite with t1 > t0");
  }
  if (begun_) {  // a continuation must start where the previous run finished
    if (run_end_ != RunEnd::Finished || t0 != t_end_) {
      throw InvalidArgument("audit: a run over [" + to_text(t0) + ", " + to_text(t1) +
                            "] does not continue the finished run over [" + to_text(t_begin_) + ", " +
                            to_text(t_end_) + "]");
    }
  } else {
    t_begin_ = t0;
  }
  begun_ = true;
  t_end_ = t1;
  run_end_.reset();
}

void Audit::end_run(RunEnd end, double t_reached) {
  run_end_ = end;
  if (accepted_steps_ == 0) t_reached_ = t_reached;
}

void Audit::start(const EnergySample& sample) {
  C0_ = sample.C();
  time_of_max_drift_ = sample.t;
  layout_ = HistoryLayout::of(sample);
  unstored_row_.resize(layout_.row_size());
}

void Audit::record_constraint_drift(const ConstraintDrift& drift) {
  // ‖Φ‖ is NaN for kinematic constraints: the sup stays NaN only if every step has NaN.
  if (!max_constraint_drift_) max_constraint_drift_ = drift;
  ConstraintDrift& sup = *max_constraint_drift_;
  if (std::isnan(sup.position) || drift.position > sup.position) sup.position = drift.position;
  if (std::isnan(sup.velocity) || drift.velocity > sup.velocity) sup.velocity = drift.velocity;
}

void Audit::record_multiplier_signs(const Vector& multipliers, double t) {
  const auto sign = [](double x) { return (x > 0) - (x < 0); };
  if (initial_multiplier_signs_.empty()) {  // the first sample
    for (const double lambda : multipliers) initial_multiplier_signs_.push_back(sign(lambda));
    multiplier_sign_changes_.assign(initial_multiplier_signs_.size(), std::numeric_limits<double>::quiet_NaN());
    return;
  }
  for (std::size_t i = 0; i < multiplier_sign_changes_.size(); ++i) {
    const int initial = initial_multiplier_signs_[i];
    if (std::isnan(multiplier_sign_changes_[i]) && initial != 0 && sign(multipliers[static_cast<Index>(i)]) != initial) {
      multiplier_sign_changes_[i] = t;
    }
  }
}

void Audit::flush_history() {
  if (last_row_stored_ && history_.rows() > 0) {  // the sink takes the stored copy: keep our own
    const std::span<const double> row = history_.row(history_.rows() - 1);
    unstored_row_.assign(row.begin(), row.end());
    last_row_stored_ = false;
  }
  history_.flush();
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

bool Audit::constraint_drift_within_threshold() const {
  if (!max_constraint_drift_) return true;
  const ConstraintDrift& d = *max_constraint_drift_;
  // ‖Φ‖ is NaN for kinematic constraints, which have no position residual to judge.
  const bool position_ok = std::isnan(d.position) || d.position <= options_.drift_threshold;
  return position_ok && d.velocity <= options_.drift_threshold;
}

Verdict Audit::verdict() const {
  if (!begun_ || !run_end_) return Verdict::Incomplete;
  switch (*run_end_) {
    case RunEnd::Diverged: return Verdict::Diverged;
    case RunEnd::Error: return Verdict::Error;
    case RunEnd::Interrupted: return Verdict::Interrupted;
    case RunEnd::Finished: break;
  }
  // Finished means the last observed state is at the end of the interval (within rounding).
  const double tolerance = 1e-12 * std::max({1.0, std::abs(t_begin_), std::abs(t_end_)});
  if (accepted_steps_ == 0 || !(std::abs(t_reached_ - t_end_) <= tolerance)) return Verdict::Incomplete;
  const bool within = relative_drift() <= options_.threshold && constraint_drift_within_threshold() &&
                      equation_check_.passed();
  return within ? Verdict::Pass : Verdict::Fail;
}

}  // namespace energy_audit
