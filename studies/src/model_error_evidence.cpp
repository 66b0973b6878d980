#include <energy_audit/studies/model_error_evidence.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <energy_audit/studies/model_entry.hpp>

#include "printf_text.hpp"

namespace energy_audit::studies {
namespace {

using detail::printf_text;

/// A time, or null where there is none (NaN).
nlohmann::json time_or_null(double t) { return std::isnan(t) ? nlohmann::json(nullptr) : nlohmann::json(t); }

}  // namespace

std::string coordinate_name(const ModelEntry& model, std::size_t i) {
  return i < model.coordinate_names.size() ? model.coordinate_names[i] : "q[" + std::to_string(i) + "]";
}

std::string integrated_equations(const ModelEntry& model, Form form) {
  const FormTraits& traits = form_traits(form);
  if (traits.own_equations == OwnEquations::HandAccelerations && model.has_hand_accelerations) {
    return "the model's hand-derived accelerations";
  }
  if (traits.own_equations == OwnEquations::EquationError && model.has_equation_error) {
    return std::string(traits.derived_equations) + ", plus the model's own equation error";
  }
  // A model's own equations that this form does not run: its result says nothing of them.
  const std::string unused =
      model.has_hand_accelerations ? "; the model's hand-derived accelerations are not run in this form" : "";
  return traits.derived_equations + unused;
}

ModelErrorEvidence model_error_evidence(const ModelEntry& model, const RunOutcome& run) {
  ModelErrorEvidence e;
  e.equations = integrated_equations(model, run.form);
  if (!run.audit) return e;
  const Audit& audit = *run.audit;
  const EquationCheck& check = audit.equation_check();
  e.equations_checked = check.checked_steps() > 0;
  if (e.equations_checked) {
    e.equation_residual = check.relative_residual();
    e.equation_threshold = check.threshold();
    const std::vector<CoordinateResidual> coordinates = check.coordinate_residuals();
    for (std::size_t i = 0; i < coordinates.size(); ++i) {
      if (coordinates[i].relative_residual > check.threshold()) {
        e.failing_equations.push_back(
            {coordinate_name(model, i), coordinates[i].relative_residual, coordinates[i].first_above_threshold});
      }
    }
    std::ranges::stable_sort(e.failing_equations, [](const FailingEquation& a, const FailingEquation& b) {
      return a.relative_residual > b.relative_residual;
    });
  }
  if (!std::isnan(audit.time_first_above_threshold())) e.first_above_threshold = audit.time_first_above_threshold();
  if (audit.work_ledger() && audit.relative_drift() > audit.threshold()) {
    e.residual_work = audit.work_ledger()->residual_work();
    if (const std::optional<SuspectForce> suspect = audit.work_ledger()->suspect()) {
      e.suspect = SuspectForceRecord{audit.work_ledger()->force_names()[suspect->force], suspect->correlation,
                                     suspect->ratio};
    }
  }
  return e;
}

std::string evidence_text(const ModelErrorEvidence& e) {
  std::vector<std::string> parts;
  if (e.equation_check_failed()) {
    std::string equations;
    for (const FailingEquation& f : e.failing_equations) {
      equations += (equations.empty() ? "" : ", ") +
                   printf_text("%s (relative residual %.2g, first above %g at t = %g)", f.coordinate.c_str(),
                          f.relative_residual, e.equation_threshold, f.first_above_threshold);
    }
    parts.push_back("the equation check fails in the equation of " + equations);
  }
  if (e.first_above_threshold) parts.push_back(printf_text("|C - C0| first above the threshold at t = %g", *e.first_above_threshold));
  if (e.residual_work && !e.suspect) {
    parts.push_back(printf_text("C - C0 = %+.6g J is explained by no named force's power", *e.residual_work));
  }
  if (e.suspect) {
    parts.push_back(printf_text("dC/dt has the shape of %s's power (correlation %.4f, dC/dt = %.4g x its power)",
                           e.suspect->force.c_str(), e.suspect->correlation, e.suspect->ratio));
  }
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

void to_json(nlohmann::json& json, const ModelErrorEvidence& e) {
  nlohmann::json failing = nlohmann::json::array();
  for (const FailingEquation& f : e.failing_equations) {
    failing.push_back({{"coordinate", f.coordinate},
                       {"relative_residual", f.relative_residual},
                       {"first_above_threshold", time_or_null(f.first_above_threshold)}});
  }
  json = {{"equations", e.equations},
          {"equations_checked", e.equations_checked},
          {"equation_residual", e.equations_checked ? nlohmann::json(e.equation_residual) : nlohmann::json(nullptr)},
          {"equation_threshold", e.equations_checked ? nlohmann::json(e.equation_threshold) : nlohmann::json(nullptr)},
          {"failing_equations", failing},
          {"first_above_threshold", e.first_above_threshold ? nlohmann::json(*e.first_above_threshold) : nlohmann::json(nullptr)},
          {"residual_work", e.residual_work ? nlohmann::json(*e.residual_work) : nlohmann::json(nullptr)},
          {"suspect", e.suspect ? nlohmann::json{{"force", e.suspect->force},
                                                 {"correlation", e.suspect->correlation},
                                                 {"ratio", e.suspect->ratio}}
                                : nlohmann::json(nullptr)}};
}

void from_json(const nlohmann::json& json, ModelErrorEvidence& e) {
  json.at("equations").get_to(e.equations);
  json.at("equations_checked").get_to(e.equations_checked);
  if (e.equations_checked) {
    json.at("equation_residual").get_to(e.equation_residual);
    json.at("equation_threshold").get_to(e.equation_threshold);
  }
  e.failing_equations.clear();
  for (const nlohmann::json& f : json.at("failing_equations")) {
    const nlohmann::json& t = f.at("first_above_threshold");
    e.failing_equations.push_back({f.at("coordinate").get<std::string>(), f.at("relative_residual").get<double>(),
                                   t.is_null() ? std::nan("") : t.get<double>()});
  }
  e.first_above_threshold.reset();
  if (!json.at("first_above_threshold").is_null()) e.first_above_threshold = json.at("first_above_threshold").get<double>();
  e.residual_work.reset();
  if (!json.at("residual_work").is_null()) e.residual_work = json.at("residual_work").get<double>();
  e.suspect.reset();
  if (const nlohmann::json& s = json.at("suspect"); !s.is_null()) {
    e.suspect = SuspectForceRecord{s.at("force").get<std::string>(), s.at("correlation").get<double>(),
                                   s.at("ratio").get<double>()};
  }
}

}  // namespace energy_audit::studies
