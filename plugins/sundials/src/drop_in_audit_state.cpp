#include "drop_in_audit_state.hpp"

#include <cmath>
#include <utility>

namespace energy_audit::sun::detail {

DropInAuditState::DropInAuditState(const char* audit_name, DropInForm form, double threshold)
    : audit(AuditOptions{.threshold = threshold, .equation_threshold = drop_in_equation_threshold, .store_every = 0}),
      energy(audit_name, std::move(form)),
      works(energy.named_power_count(), 0.0) {}

const char* DropInAuditState::verdict() const {
  if (failure_flag < 0) return "error";
  if (audited == 0 || incomplete || !energy.diagnosis().empty()) return "incomplete";
  const bool within = audit.relative_drift() <= audit.threshold() && audit.equation_check().passed();
  return within ? "pass" : "fail";
}

void DropInAuditState::record(double t, const double* data) {
  const EnergyTerms e = energy.terms_at(data, t);
  // No row is read back (store_every = 0): the sample goes without q and v, which the row would
  // copy at every step, a pass over the whole state.
  const Eigen::Map<const Vector> no_coordinates(data, 0);
  audit.record(EnergySample{t, no_coordinates, no_coordinates, e, Z});
  last = DropInStep{t, e.T, e.T2, e.T1, e.T0, e.V, e.H(), Z, e.H() + Z};
  // The sample just recorded ends audited step `audited + 1`, or is the start (step 0).
  if (first_step_above_threshold < 0 && !std::isnan(audit.time_first_above_threshold())) {
    first_step_above_threshold = audit.accepted_steps() == 1 ? 0 : audited + 1;
  }
}

}  // namespace energy_audit::sun::detail
