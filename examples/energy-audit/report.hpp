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
#include <energy_audit/studies/history_rows.hpp>
#include "example_models.hpp"
#include "output_file.hpp"

namespace energy_audit::cli {

void print_summary(std::ostream& out, const ModelEntry& model, const RunOutcome& run);
/// The run record as one JSON object (docs/command-line.md); non-finite numbers are null.
void write_json(OutputFile& file, const ModelEntry& model, const RunOutcome& run);

/// The history CSV of one run: a header of HistoryRows' columns, then its rows, each number in
/// the shortest form that reads back to the same double.
class HistoryCsv {
 public:
  /// Writes the header to `file`, which must outlive this.
  HistoryCsv(OutputFile& file, const ModelEntry& model, const ModelSetup& setup, Form form,
             const std::vector<std::string>& independent, const DiagnosisColumns& diagnosis = {});
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
