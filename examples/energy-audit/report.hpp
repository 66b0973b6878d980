#pragma once
/// \file
/// What the command line prints and writes: the run summary, the JSON record, the history CSV
/// and the comparison table.

#include <cstddef>
#include <limits>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/history.hpp>
#include <energy_audit/studies/run_model.hpp>

#include <energy_audit/studies/compare.hpp>
#include "model_registry.hpp"
#include "output_file.hpp"

namespace energy_audit::cli {

void print_summary(std::ostream& out, const ModelEntry& model, const RunOutcome& run);
/// The run record as one JSON object (docs/command-line.md); non-finite numbers are null.
void write_json(OutputFile& file, const ModelEntry& model, const RunOutcome& run);

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

/// The history CSV of one run: a header of HistoryRows' columns, then its rows, each number in
/// the shortest form that reads back to the same double.
class HistoryCsv {
 public:
  /// Writes the header to `file`, which must outlive this.
  HistoryCsv(OutputFile& file, const ModelEntry& model, const ModelSetup& setup, Form form,
             const std::vector<std::string>& independent);
  HistoryCsv(const HistoryCsv&) = delete;
  HistoryCsv& operator=(const HistoryCsv&) = delete;

  /// The audit's row sink (AuditOptions::row_sink): it appends the rows it is handed. It refers
  /// to this object, which must outlive the run.
  RowSink sink();
  /// After the run (and the audit's flush_history): the audit's last row, unless it was the last
  /// row written.
  void finish(const Audit& audit);

 private:
  void write_values();

  OutputFile& file_;
  HistoryRows rows_;
  std::vector<double> values_;
  std::string line_;
};

void print_comparison(std::ostream& out, const std::vector<ComparisonRow>& rows);
void write_comparison_csv(OutputFile& file, const std::vector<ComparisonRow>& rows);

}  // namespace energy_audit::cli
