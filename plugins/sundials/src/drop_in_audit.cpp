#include "energy_audit/sundials/drop_in_audit.hpp"

#include <energy_audit/error.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "drop_in_audit_state.hpp"

namespace energy_audit::sun {

DropInAudit::DropInAudit(const char* audit_name) : audit_name_(audit_name) {}

DropInAudit::DropInAudit(DropInAudit&&) noexcept = default;
DropInAudit& DropInAudit::operator=(DropInAudit&&) noexcept = default;
DropInAudit::~DropInAudit() = default;

void DropInAudit::hold(std::unique_ptr<detail::DropInAuditState> state) { state_ = std::move(state); }

detail::DropInAuditState& DropInAudit::state() const {
  if (!state_) throw Error(std::string(audit_name_) + ": used after it was moved from");
  return *state_;
}

detail::DropInAuditState& DropInAudit::findings() const {
  detail::DropInAuditState& s = state();
  s.settle();
  return s;
}

double DropInAudit::relative_drift() const { return findings().audit.relative_drift(); }
const char* DropInAudit::verdict() const { return findings().verdict(); }
bool DropInAudit::passed() const { return std::string_view(verdict()) == "pass"; }
std::string DropInAudit::diagnosis() const { return findings().energy.diagnosis(); }
long DropInAudit::audited_steps() const { return findings().audited; }
double DropInAudit::threshold() const { return state().audit.threshold(); }
double DropInAudit::max_abs_drift() const { return findings().audit.max_abs_drift(); }
long DropInAudit::first_step_above_threshold() const { return findings().first_step_above_threshold; }
double DropInAudit::time_first_above_threshold() const { return findings().audit.time_first_above_threshold(); }
double DropInAudit::time_of_fastest_growth() const { return findings().audit.time_of_fastest_growth(); }
double DropInAudit::energy_scale() const { return findings().audit.energy_scale(); }
double DropInAudit::initial_control() const { return findings().audit.initial_control(); }
DropInStep DropInAudit::last_step() const { return findings().last; }
std::vector<double> DropInAudit::named_works() const { return findings().works; }
int DropInAudit::dofs() const { return state().energy.dofs(); }
void DropInAudit::print_summary(FILE* out) const { findings().print_summary(out); }

void DropInAudit::use_layout(const DropInLayout& layout) {
  detail::DropInAuditState& s = state();
  if (s.audit.accepted_steps() > 0) {
    throw InvalidArgument(std::string(audit_name_) + ": give the layout before the first solve call");
  }
  s.energy.use_layout(layout);
}

double DropInAudit::equation_residual() const { return findings().audit.equation_check().relative_residual(); }
long DropInAudit::equation_checked_steps() const {
  return static_cast<long>(findings().audit.equation_check().checked_steps());
}
double DropInAudit::equation_threshold() const { return state().audit.equation_check().threshold(); }
void DropInAudit::change_equation_threshold(double threshold, const char* solve_call) {
  detail::DropInAuditState& s = state();
  if (s.audit.accepted_steps() > 0) {
    throw InvalidArgument(std::string(audit_name_) + ": set the equation threshold before the first " + solve_call +
                          " call");
  }
  s.audit = Audit(AuditOptions{.threshold = s.audit.threshold(), .equation_threshold = threshold, .store_every = 0});
}

}  // namespace energy_audit::sun
