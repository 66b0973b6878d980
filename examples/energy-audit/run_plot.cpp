#include "run_plot.hpp"

#include <algorithm>
#include <cmath>

#include "number_text.hpp"
#include "plots.hpp"

namespace energy_audit::cli {

RunPlotRows::RunPlotRows(const ModelEntry& model, const ModelSetup& setup, Form form,
                         const std::vector<std::string>& independent)
    : rows_(model, setup, form, independent, DiagnosisColumns{.work_ledger = static_cast<bool>(model.force_power_function)}) {}

void RunPlotRows::add(const HistoryLayout& layout, std::span<const double> rows) {
  rows_.append_block(layout, rows, values_, [this] {  // the ledger sees every row
    if (rows_seen_++ % stride_ == 0) keep_values();
    values_.clear();
  });
}

void RunPlotRows::finish(const Audit& audit) {
  values_.clear();
  if (rows_.append_last(audit, values_)) kept_.insert(kept_.end(), values_.begin(), values_.end());
}

void RunPlotRows::keep_values() {
  const std::size_t columns = rows_.columns().size();
  kept_.insert(kept_.end(), values_.begin(), values_.end());
  if (kept_.size() / columns < 2 * kept_rows_target) return;
  // Every other row kept goes: rows 0, 2, 4, ... stay, in order.
  std::size_t kept_rows = 0;
  for (std::size_t row = 0; row * columns < kept_.size(); row += 2, ++kept_rows) {
    std::copy_n(kept_.begin() + static_cast<long>(row * columns), columns,
                kept_.begin() + static_cast<long>(kept_rows * columns));
  }
  kept_.resize(kept_rows * columns);
  stride_ *= 2;
}

bool RunPlotRows::has(std::string_view name) const {
  return std::find(rows_.columns().begin(), rows_.columns().end(), name) != rows_.columns().end();
}

std::vector<std::pair<double, double>> RunPlotRows::series(std::string_view name, double offset) const {
  const std::vector<std::string>& columns = rows_.columns();
  const auto column = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  std::vector<std::pair<double, double>> points;
  for (std::size_t start = 0; start < kept_.size(); start += columns.size()) {
    points.emplace_back(kept_[start], kept_[start + column] - offset);
  }
  return points;
}

std::string run_title(const RunOutcome& run) {
  std::string title = run.model + ", " + run.method.name;
  if (run.method.adaptive()) {
    title += " at rtol = " + printf_text("%g", run.adaptive.rtol);
  } else {
    title += " at h = " + printf_text("%g", run.step);
  }
  if (run.audit) title += ": delta_C = " + printf_text("%.3g", run.audit->relative_drift());
  return title + ", verdict " + run.verdict();
}

void plot_run(OutputFile& png, const ModelEntry& model, const RunOutcome& run, const RunPlotRows& rows) {
  const Audit& audit = *run.audit;
  TimeSeriesPanel drift{"C(t) - C(t0)", "[J]", {{"C - C0", rows.series("C", audit.initial_control())}}};
  drift.marks.emplace_back(audit.time_first_above_threshold(), "first above threshold");
  drift.marks.emplace_back(audit.time_of_fastest_growth(), "fastest growth");
  std::vector<TimeSeriesPanel> panels{drift};
  if (rows.has("dC_dt")) {
    TimeSeriesPanel power{"power: residual dC/dt and each named force", "[W]", {{"dC/dt", rows.series("dC_dt")}}};
    TimeSeriesPanel work{"work of each named force", "[J]", {}};
    for (const std::string& force : model.force_names) {
      power.series.push_back({"P_" + force, rows.series("P_" + force)});
      work.series.push_back({"W_" + force, rows.series("W_" + force)});
    }
    panels.push_back(power);
    if (!work.series.empty()) panels.push_back(work);
  }
  plot_time_series(png, run_title(run), panels);
}

}  // namespace energy_audit::cli
