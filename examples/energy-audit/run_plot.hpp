#pragma once
/// \file
/// `run --plot`: C(t) − C(t0) with the times at which the drift first exceeds the threshold and
/// grows fastest and, for a model that names its forces (named_forces.hpp), the work ledger: the
/// residual power dC/dt beside the power of each named force, and the work of each.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/history.hpp>
#include <energy_audit/studies/history_rows.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "example_models.hpp"
#include "output_file.hpp"

namespace energy_audit::cli {

/// The rows a plot of one run draws: the history's columns (HistoryRows), with the ledger's for a
/// model that names its forces, computed at every row the audit hands over and kept thinned to at
/// most 2 × kept_rows_target rows: when more come, every other row kept is dropped and from then
/// on only every other row is kept.
class RunPlotRows {
 public:
  static constexpr std::size_t kept_rows_target = 4096;

  RunPlotRows(const ModelEntry& model, const ModelSetup& setup, Form form, const std::vector<std::string>& independent);

  /// Rows handed over by the audit (AuditOptions::row_sink), in order.
  void add(const HistoryLayout& layout, std::span<const double> rows);
  /// After the run (and the audit's flush_history): the audit's last row, always kept.
  void finish(const Audit& audit);

  /// Whether the rows have the column `name`.
  bool has(std::string_view name) const;
  /// (t, value − offset) of column `name` over the rows kept.
  std::vector<std::pair<double, double>> series(std::string_view name, double offset = 0) const;

 private:
  void keep_values();

  HistoryRows rows_;
  std::vector<double> kept_, values_;
  std::size_t rows_seen_ = 0, stride_ = 1;
};

/// "crane-wrong, rk4 at h = 0.001: delta_C = 0.0241, verdict fail": the model, the method at its
/// step (rtol), δ_C and the verdict, which the figure of the run is titled with.
std::string run_title(const RunOutcome& run);

/// Draws the run (the file header above) under run_title from `rows`; throws energy_audit::Error when gnuplot
/// fails or a panel has nothing finite to draw.
void plot_run(OutputFile& png, const ModelEntry& model, const RunOutcome& run, const RunPlotRows& rows);

}  // namespace energy_audit::cli
