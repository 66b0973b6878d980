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

/// The columns a history adds when asked, to show where a failing audit comes from
/// (docs/mathematics.md, the equation check and the work ledger).
struct DiagnosisColumns {
  /// eq_NAME for each coordinate: |(M a − r)_i| / scale of the coordinate's equation at the row's
  /// state (equation_residual.hpp), the equation check's relative residual at that state alone.
  /// For a form whose equations are checked (ModelEntry::checks_equations).
  bool equation_residuals = false;
  /// For each force the model names (named_forces.hpp): P_NAME, its power vᵀ f_k at the row [W];
  /// then W_NAME, its work since the first row [J] by the trapezoid rule over the rows written
  /// (the summary's ledger uses every accepted step); then dC_dt, (C − C') / (t − t') with C' and
  /// t' those of the row before (NaN at the first) [W].
  bool work_ledger = false;
};

/// Throws SettingsError naming the option as `names` spells it ("equation-columns",
/// "ledger-columns") when `columns` asks for what `model` run in `form` does not have.
void check_diagnosis_columns(const ModelEntry& model, Form form, const DiagnosisColumns& columns,
                             const OptionNames& names);

/// The columns and rows of a run's history, as the history CSV and Python's run() give them:
/// t, the coordinates by name, NAME_dot (p_NAME in Hamilton's form, u_NAME for the independent
/// velocities in Maggi's), in Lagrange's form of a model without multipliers each acceleration as
/// NAME_ddot, then T, T2, T1, T0, V, E, H, Z, C, for multiplier models the multipliers by name,
/// Phi_norm, psi_norm, and last the model's extra outputs by name (extra_NAME for one named like
/// a column before it), and the DiagnosisColumns asked for. One row per state the audit stores
/// and, when store_every left it out, the run's last state.
class HistoryRows {
 public:
  /// Checks `diagnosis` as check_diagnosis_columns does.
  HistoryRows(const ModelEntry& model, const ModelSetup& setup, Form form, const std::vector<std::string>& independent,
              const DiagnosisColumns& diagnosis = {}, const OptionNames& names = {});

  const std::vector<std::string>& columns() const { return columns_; }
  /// Appends the values of the audit's `row` (of `layout`), one per column, to `values`.
  void append(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values);
  /// Appends, as append does, each row of a block the audit hands its row sink
  /// (AuditOptions::row_sink), calling after_row() after each.
  template <class AfterRow>
  void append_block(const HistoryLayout& layout, std::span<const double> rows, std::vector<double>& values,
                    AfterRow after_row) {
    const std::size_t row_size = layout.row_size();
    for (std::size_t start = 0; start < rows.size(); start += row_size) {
      append(layout, rows.subspan(start, row_size), values);
      after_row();
    }
  }
  /// After the run (and the audit's flush_history): appends the audit's last row as append does,
  /// unless it was the last row appended. Whether it appended.
  bool append_last(const Audit& audit, std::vector<double>& values);

 private:
  std::vector<std::string> columns_;
  /// Appends the work ledger's columns at `row` (DiagnosisColumns::work_ledger).
  void append_ledger(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values);

  ExtraOutputFunction accelerations_, extra_outputs_, equation_residuals_, force_powers_;
  std::vector<double> acceleration_values_, extra_values_, equation_values_, power_values_;
  std::vector<double> works_, previous_powers_;
  double previous_C_ = 0;
  std::size_t rows_appended_ = 0;
  double last_t_appended_ = 0;
};

}  // namespace energy_audit::studies
