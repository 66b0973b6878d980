#include <energy_audit/studies/study_records.hpp>

#include <cmath>
#include <optional>

namespace energy_audit::studies {
namespace {

using Json = nlohmann::ordered_json;

/// `value` when it is finite, null otherwise.
Json finite_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

/// `value` when it is finite, the text "inf" otherwise (a run whose drift left every bound).
Json finite_or_inf(double value) { return std::isfinite(value) ? Json(value) : Json("inf"); }

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json probe_record(const std::optional<Probe>& p) {
  if (!p) return nullptr;
  return {{"resolution", p->resolution}, {"delta_C", finite_or_inf(p->delta_C)}, {"meets", p->meets},
          {"missed", p->missed},         {"rhs_evals", p->rhs_evaluations},      {"wall_s", p->wall_seconds},
          {"end", p->end},               {"finished", p->finished},          {"steps", p->steps}};
}

Json boundary_record(const std::optional<OperationalBoundary>& b) {
  if (!b) return nullptr;
  return {{"last_stable", b->last_stable},
          {"first_unstable", b->first_unstable},
          {"passing_beyond", b->passing_beyond}};
}

}  // namespace

Json comparison_record(const std::string& model, Form form, const Comparison& comparison) {
  Json rows = Json::array();
  for (const ComparisonRow& row : comparison.rows) {
    rows.push_back({{"method", row.method},
                    {"step", row.adaptive ? Json(nullptr) : Json(row.step)},
                    {"rtol", row.adaptive ? Json(row.rtol) : Json(nullptr)},
                    {"delta_C", optional_number(row.delta_C)},
                    {"equation_residual", optional_number(row.equation_residual)},
                    {"verdict", row.verdict},
                    {"steps", row.steps},
                    {"rhs_evals", row.rhs_evaluations},
                    {"wall_seconds", row.wall_seconds},
                    {"observed_order", finite_or_null(row.observed_order)}});
  }
  return {{"model", model},
          {"form", form_name(form)},
          {"integrated_equations", comparison.equations},
          {"planned", comparison.planned},
          {"threads", comparison.workers.threads},
          {"ranks", comparison.workers.ranks},
          {"interrupted", comparison.rows.size() < comparison.planned},
          {"rows", rows}};
}

Json sweep_record(const std::string& model, const SweepResult& sweep) {
  Json runs = Json::array();
  for (const SweepRun& run : sweep.runs) {
    Json values = Json::object();
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) values[a.name] = a.value;
    }
    runs.push_back({{"values", values},
                    {"method", run.method},
                    {run.adaptive ? "rtol" : "step", run.resolution},
                    {"delta_C", finite_or_null(run.delta_C)},
                    {"verdict", run.verdict.empty() ? Json(nullptr) : Json(run.verdict)},
                    {"steps", run.steps},
                    {"rhs_evals", run.rhs_evaluations},
                    {"wall_seconds", run.wall_seconds}});
  }
  return {{"model", model},
          {"integrated_equations", sweep.equations},
          {"threads", sweep.workers.threads},
          {"ranks", sweep.workers.ranks},
          {"interrupted", sweep.interrupted},
          {"runs", runs}};
}

Json advice_record(const std::string& model, const AdviceSettings& settings, const Advice& advice) {
  Json j;
  j["model"] = model;
  j["target"] = settings.target;
  j["drift_target"] = settings.drift_target;
  j["integrated_equations"] = advice.equations;
  Json methods = Json::array();
  for (const MethodAdvice& m : advice.methods) {
    Json probes = Json::array();
    for (const Probe& p : m.probes) probes.push_back(probe_record(p));
    methods.push_back({{"method", m.method},
                       {"resolution", m.adaptive ? "rtol" : "step"},
                       {"answer", probe_record(m.answer)},
                       {"next", probe_record(m.next)},
                       {"round_off_floor", m.round_off_floor},
                       {"model_error", m.model_error},
                       {"not_monotone", m.not_monotone},
                       {"note", m.note},
                       {"diverged", m.probes_ending("diverged")},
                       {"error", m.probes_ending("error")},
                       {"interrupted", m.probes_ending("interrupted")},
                       {"probes", probes}});
  }
  j["methods"] = methods;
  j["recommended"] = advice.recommended ? Json(advice.methods[*advice.recommended].method) : Json(nullptr);
  j["threads"] = advice.workers.threads;
  j["ranks"] = advice.workers.ranks;
  j["interrupted"] = advice.interrupted;
  return j;
}

Json diagnosis_record(const std::string& model, const Diagnosis& d) {
  const DriftClassification& c = d.classification;
  Json levels = Json::array();
  for (const Probe& l : d.levels) {
    // The observed order from this level to the next finer finished one (the classifier's levels).
    Json order = nullptr;
    for (std::size_t i = 0; i + 1 < c.levels.size(); ++i) {
      if (l.finished && c.levels[i].resolution == l.resolution) order = finite_or_null(c.observed_orders[i]);
    }
    levels.push_back({{"resolution", l.resolution},
                      {"delta_C", finite_or_inf(l.delta_C)},
                      {"observed_order", order},
                      {"rhs_evals", l.rhs_evaluations},
                      {"wall_s", l.wall_seconds},
                      {"end", l.end.empty() ? Json(nullptr) : Json(l.end)},
                      {"finished", l.finished}});
  }
  Json j = {{"model", model},
            {"method", d.method},
            {"resolution", d.adaptive ? "rtol" : "step"},
            {"expected_order", d.adaptive ? 1 : d.order},
            {"threshold", d.threshold},
            {"levels", levels}};
  const Json classification = drift_classification_record(c);
  for (const auto& [key, value] : classification.items()) j[key] = value;
  j["advised"] = d.advice ? probe_record(d.advice->answer) : Json(nullptr);
  j["advice_note"] = d.advice ? Json(d.advice->note) : Json(nullptr);
  j["not_monotone"] = d.advice && d.advice->not_monotone;
  j["integrated_equations"] = d.equations;
  if (d.evidence) {
    const nlohmann::json evidence = *d.evidence;
    j["failing_equations"] = evidence["failing_equations"];
    j["first_above_threshold"] = evidence["first_above_threshold"];
    j["residual_work"] = evidence["residual_work"];
    j["suspect"] = evidence["suspect"];
  } else {
    j["failing_equations"] = Json::array();
    j["first_above_threshold"] = nullptr;
    j["residual_work"] = nullptr;
    j["suspect"] = nullptr;
  }
  j["verdict"] = d.verdict();
  j["what_to_do"] = d.what_to_do();
  j["threads"] = d.workers.threads;
  j["ranks"] = d.workers.ranks;
  j["interrupted"] = d.interrupted;
  return j;
}

Json drift_classification_record(const DriftClassification& c) {
  Json orders = Json::array();
  for (double p : c.observed_orders) orders.push_back(finite_or_null(p));
  return {{"kind", drift_kind_name(c.kind)},
          {"order", optional_number(c.order)},
          {"plateau", optional_number(c.plateau)},
          {"plateau_from", optional_number(c.plateau_from)},
          {"floor", optional_number(c.floor)},
          {"floor_at", optional_number(c.floor_at)},
          {"estimated_resolution", optional_number(c.estimated_resolution)},
          {"round_off_bound", optional_number(c.round_off_bound)},
          {"all_meet_threshold", c.all_meet_threshold},
          {"observed_orders", orders},
          {"unfinished", c.unfinished},
          {"explanation", c.explanation}};
}

Json stability_record(const std::string& model, const StabilityMap& map) {
  Json j;
  j["model"] = model;
  j["threads"] = map.workers.threads;
  j["ranks"] = map.workers.ranks;
  j["interrupted"] = map.interrupted;
  Json summaries = Json::array();
  for (const MethodStepSummary& s : map.summaries) {
    Json starts = Json::array();
    for (const StartBoundaries& b : s.starts) {
      starts.push_back({{"start", b.start}, {"lower", boundary_record(b.lower)}, {"upper", boundary_record(b.upper)}});
    }
    summaries.push_back({{"method", s.method},
                         {"tau", s.tau},
                         {"linear_lower", s.linear.lower},
                         {"linear_upper", s.linear.upper},
                         {"rho_one_lower", optional_number(s.rho_one_lower)},
                         {"rho_one_upper", optional_number(s.rho_one_upper)},
                         {"boundaries", starts}});
  }
  j["summaries"] = summaries;
  Json points = Json::array();
  for (const MapPoint& p : map.points) {
    if (p.verdict.empty()) continue;  // not run (stopped early)
    points.push_back({{"method", p.method},
                      {"tau", p.tau},
                      {"start", p.start},
                      {"k", p.k},
                      {"f_max", finite_or_inf(p.f_max)},
                      {"f_final", finite_or_inf(p.f_final)},
                      {"rho", p.rho},
                      {"verdict", p.verdict}});
  }
  j["points"] = points;
  return j;
}

Json work_ledger_record(const Audit& audit) {
  const std::optional<WorkLedger>& ledger = audit.work_ledger();
  if (!ledger || audit.last_row().empty()) return nullptr;
  Json forces = Json::object();
  const std::vector<double> works = ledger->works();
  for (std::size_t k = 0; k < works.size(); ++k) forces[ledger->force_names()[k]] = works[k];
  const HistoryLayout& layout = audit.layout();
  Json j;
  j["forces"] = forces;
  j["explicit_time_work"] = ledger->explicit_time_work();
  j["Z"] = finite_or_null(audit.last_row()[layout.multiplier_offset() - 2]);
  j["ledger_Z"] = finite_or_null(ledger->ledger_Z());
  j["residual_work"] = finite_or_null(ledger->residual_work());
  const std::optional<SuspectForce> suspect = ledger->suspect();
  j["suspect"] = suspect ? Json{{"force", ledger->force_names()[suspect->force]},
                                {"correlation", suspect->correlation},
                                {"ratio", suspect->ratio}}
                         : Json(nullptr);
  j["suspect_min_correlation"] = default_suspect_correlation;
  return j;
}

}  // namespace energy_audit::studies
