#pragma once
/// \file
/// The work ledger (work_ledger.hpp) of a Lagrange run made afterwards from its stored rows.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "energy_audit/energy_flow.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/history.hpp"
#include "energy_audit/named_forces.hpp"
#include "energy_audit/work_ledger.hpp"

namespace energy_audit {

/// The ledger of a Lagrange run (rows t, q, v, ..., C, as LagrangeSystem's audit stores them),
/// over the rows held: every accepted step when the audit stored every one (store_every = 1).
/// Checks at the first two rows that the named forces sum to forces() (check_named_forces_sum):
/// at rest a velocity-dependent mismatch vanishes, as the equation check's does.
template <LagrangeModel M>
WorkLedger work_ledger(const M& model, const History& history) {
  WorkLedger ledger(force_names_of<M>());
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
