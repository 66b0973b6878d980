// The summary lines that print_summary writes for every drop-in audit.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

#include "drop_in_audit_state.hpp"

namespace energy_audit::sun::detail {

void DropInAuditState::print_summary(FILE* out) const {
  std::fprintf(out, "energy audit: delta_C = %.3e (threshold %.1e, %ld steps audited): %s\n", audit.relative_drift(),
               audit.threshold(), audited, verdict());
  std::fprintf(out, "energy audit: max |C - C(t0)| = %.3e J, energy scale = %.3e J%s\n", audit.max_abs_drift(),
               audit.energy_scale(), incomplete ? ", incomplete (a step was not audited)" : "");
  if (audit.equation_check().checked_steps() > 0) {
    std::fprintf(out, "energy audit: equations' relative residual = %.3e (threshold %.1e, %ld steps checked)\n",
                 audit.equation_check().relative_residual(), audit.equation_check().threshold(),
                 static_cast<long>(audit.equation_check().checked_steps()));
  }
  for (std::size_t k = 0; k < works.size(); ++k) {
    std::fprintf(out, "energy audit: work W_%s = %+.6g J", energy.named_power_name(k).c_str(), works[k]);
    if (Z != 0 && std::isfinite(Z)) std::fprintf(out, " (share of Z %+.1f %%)", -100 * works[k] / Z);
    std::fprintf(out, "\n");
  }
  if (const std::string missing = energy.diagnosis(); !missing.empty()) {
    std::fprintf(out, "energy audit: %s\n", missing.c_str());
  }
  if (audit.relative_drift() > audit.threshold()) {
    std::fprintf(out,
                 "energy audit: |C - C(t0)| first above the threshold at step %ld, t = %.6g; grows fastest at t = %.6g\n",
                 first_step_above_threshold, audit.time_first_above_threshold(), audit.time_of_fastest_growth());
  }
  if (failure_flag < 0) {
    std::fprintf(out, "energy audit: %s returned %s at t = %.6g; the run did not finish\n", solve_name(),
                 flag_name(failure_flag).c_str(), t_audited);
  }
}

}  // namespace energy_audit::sun::detail
