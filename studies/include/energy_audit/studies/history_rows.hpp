#pragma once
/// \file
/// The columns and rows of a run's history, as the command line's history CSV and Python's run()
/// give them.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/history.hpp>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {

/// The state's second half: "v" for velocities, "p" for momenta, "u" for Maggi's independent
/// velocities; and whose entries they are.
struct SecondHalf {
  const char* key;
  const std::vector<std::string>& names;
};
/// The second half of the state of `model` run in `form` (Maggi's: with `independent`).
SecondHalf second_half(const ModelEntry& model, Form form, const std::vector<std::string>& independent);

/// The columns and rows of a run's history, as the history CSV and Python's run() give them:
/// t, the coordinates by name, NAME_dot (p_NAME in Hamilton's form, u_NAME for the independent
/// velocities in Maggi's), in Lagrange's form of a model without multipliers each acceleration as
/// NAME_ddot, then T, T2, T1, T0, V, E, H, Z, C, for multiplier models the multipliers by name,
/// Phi_norm, psi_norm, and last the model's extra outputs by name (extra_NAME for one named like
/// a column before it). One row per state the audit stores and, when store_every left it out,
/// the run's last state.
class HistoryRows {
 public:
  HistoryRows(const ModelEntry& model, const ModelSetup& setup, Form form, const std::vector<std::string>& independent);

  const std::vector<std::string>& columns() const { return columns_; }
  /// Appends the values of the audit's `row` (of `layout`), one per column, to `values`.
  void append(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values);
  /// After the run (and the audit's flush_history): appends the audit's last row as append does,
  /// unless it was the last row appended. Whether it appended.
  bool append_last(const Audit& audit, std::vector<double>& values);

 private:
  std::vector<std::string> columns_;
  ExtraOutputFunction accelerations_, extra_outputs_;
  std::vector<double> acceleration_values_, extra_values_;
  std::size_t rows_appended_ = 0;
  double last_t_appended_ = 0;
};

}  // namespace energy_audit::studies
