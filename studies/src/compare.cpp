#include <energy_audit/studies/compare.hpp>

#include <cmath>
#include <optional>
#include <span>

#include <energy_audit/history.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/drift_envelope.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>
#include <energy_audit/studies/transferable.hpp>

namespace energy_audit::studies {
namespace {

/// Feeds |C − C(t0)| of every stored row to `envelope`, C(t0) from the first row.
RowSink drift_sink(DriftEnvelope& envelope) {
  return [&envelope, C0 = std::optional<double>()](const HistoryLayout& layout, std::span<const double> rows) mutable {
    const std::size_t row_size = layout.row_size();
    const std::size_t c_column = layout.multiplier_offset() - 1;  // C ends the energies
    for (std::size_t start = 0; start < rows.size(); start += row_size) {
      const double C = rows[start + c_column];
      if (!C0) C0 = C;
      envelope.add(rows[start], std::abs(C - *C0));
    }
  };
}

}  // namespace

std::vector<RunSettings> comparison_runs(const ModelEntry& model, const ModelSetup& setup, const ComparisonPlan& plan) {
  std::vector<RunSettings> runs;
  for (const Method& method : plan.methods) {
    for (double resolution : method.adaptive() ? plan.rtols : plan.steps) {
      RunSettings settings = plan.base;
      settings.method = method;
      (method.adaptive() ? settings.adaptive.rtol : settings.step) = resolution;
      settings.audit.store_every = plan.drift_curves ? 1 : 0;  // every step, into an envelope
      check_settings(model, setup, settings);
      runs.push_back(settings);
    }
  }
  return runs;
}

Comparison compare(const ModelEntry& model, const ModelSetup& setup, const ComparisonPlan& plan, const RunPool& pool) {
  const std::vector<RunSettings> runs = comparison_runs(model, setup, plan);
  pool.progress().start("compare " + model.name, runs.size());
  Comparison comparison;
  comparison.rows = pool.map<ComparisonRow>(runs.size(), [&](std::size_t i) {
    if (stop_requested(plan.base.stop)) return ComparisonRow{};  // not started: no verdict
    RunSettings settings = runs[i];
    std::optional<DriftEnvelope> envelope;
    if (plan.drift_curves) {
      const Interval interval = check_settings(model, setup, settings);
      envelope.emplace(interval.t0, interval.t_end);
      settings.audit.row_sink = drift_sink(*envelope);
    }
    ComparisonRow row = comparison_row(run_model(model, setup, settings));
    if (envelope) row.drift_curve = envelope->points();
    return row;
  });
  std::erase_if(comparison.rows, [](const ComparisonRow& row) { return row.verdict.empty(); });
  set_observed_orders(comparison.rows);
  comparison.planned = runs.size();
  comparison.workers = pool.workers();
  comparison.equations = integrated_equations(model, form_of(model, plan.base));
  return comparison;
}

double observed_order(double resolution_prev, double delta_prev, double resolution, double delta) {
  const bool defined = std::isfinite(delta_prev) && std::isfinite(delta) && delta_prev > 0 && delta > 0 &&
                       resolution_prev != resolution;
  if (!defined) return std::numeric_limits<double>::quiet_NaN();
  return std::log(delta_prev / delta) / std::log(resolution_prev / resolution);
}

ComparisonRow comparison_row(const RunOutcome& run) {
  ComparisonRow row;
  row.method = run.method.name;
  row.adaptive = run.method.adaptive();
  row.step = run.step;
  row.rtol = run.adaptive.rtol;
  if (run.audit) {
    row.delta_C = run.audit->relative_drift();
    if (*row.delta_C > run.audit->threshold()) {  // the times, where they exist (NaN: none)
      if (const double t = run.audit->time_first_above_threshold(); !std::isnan(t)) row.dC_first_above_threshold = t;
      if (const double t = run.audit->time_of_fastest_growth(); !std::isnan(t)) row.dC_fastest_growth_at = t;
    }
    if (run.audit->equation_check().checked_steps() > 0) {
      row.equation_residual = run.audit->equation_check().relative_residual();
    }
  }
  row.verdict = run.verdict();
  row.steps = run.steps;
  row.rhs_evaluations = run.rhs_evaluations;
  row.wall_seconds = run.wall_seconds;
  row.finished = run.finished();
  row.stop_description = run.stop_description();
  return row;
}

void set_observed_orders(std::vector<ComparisonRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ComparisonRow& row = rows[i];
    row.observed_order = std::numeric_limits<double>::quiet_NaN();
    if (i == 0) continue;
    const ComparisonRow& previous = rows[i - 1];
    if (previous.method == row.method && previous.finished && row.finished && previous.delta_C && row.delta_C) {
      row.observed_order = observed_order(previous.resolution(), *previous.delta_C, row.resolution(), *row.delta_C);
    }
  }
}

void to_json(nlohmann::json& json, const ComparisonRow& row) {
  json = {{"method", row.method},
          {"adaptive", row.adaptive},
          {"step", row.step},
          {"rtol", row.rtol},
          {"delta_C", optional_to_json(row.delta_C)},
          {"equation_residual", optional_to_json(row.equation_residual)},
          {"verdict", row.verdict},
          {"steps", row.steps},
          {"rhs_evaluations", row.rhs_evaluations},
          {"wall_seconds", row.wall_seconds},
          {"finished", row.finished},
          {"stop_description", row.stop_description},
          {"drift_curve", row.drift_curve},
          {"dC_first_above_threshold", optional_to_json(row.dC_first_above_threshold)},
          {"dC_fastest_growth_at", optional_to_json(row.dC_fastest_growth_at)},
          {"observed_order", row.observed_order}};
}

void from_json(const nlohmann::json& json, ComparisonRow& row) {
  json.at("method").get_to(row.method);
  json.at("adaptive").get_to(row.adaptive);
  json.at("step").get_to(row.step);
  json.at("rtol").get_to(row.rtol);
  row.delta_C = optional_from_json<double>(json.at("delta_C"));
  row.equation_residual = optional_from_json<double>(json.at("equation_residual"));
  json.at("verdict").get_to(row.verdict);
  json.at("steps").get_to(row.steps);
  json.at("rhs_evaluations").get_to(row.rhs_evaluations);
  json.at("wall_seconds").get_to(row.wall_seconds);
  json.at("finished").get_to(row.finished);
  json.at("stop_description").get_to(row.stop_description);
  json.at("drift_curve").get_to(row.drift_curve);
  row.dC_first_above_threshold = optional_from_json<double>(json.at("dC_first_above_threshold"));
  row.dC_fastest_growth_at = optional_from_json<double>(json.at("dC_fastest_growth_at"));
  json.at("observed_order").get_to(row.observed_order);
}

}  // namespace energy_audit::studies
