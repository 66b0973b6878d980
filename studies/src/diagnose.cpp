#include <energy_audit/studies/diagnose.hpp>

#include <cmath>
#include <cstdio>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {
namespace {

/// Each level's resolution is the previous one's divided by this: halved steps, tenfold tighter rtols.
double ladder_factor(bool adaptive) { return adaptive ? 10 : 2; }

/// The settings of the run at `resolution`.
RunSettings level_settings(const RunSettings& base, double resolution) {
  RunSettings settings = base;
  (base.method.adaptive() ? settings.cvodes.rtol : settings.step) = resolution;
  return settings;
}

/// The ladder's resolutions, coarsest first.
std::vector<double> ladder_of(const DiagnoseSettings& settings) {
  const Method& method = settings.base.method;
  const double start = method.adaptive() ? settings.base.cvodes.rtol : settings.base.step;
  std::vector<double> resolutions;
  for (std::size_t i = 0; i < settings.levels; ++i) {
    resolutions.push_back(start / std::pow(ladder_factor(method.adaptive()), double(i)));
  }
  return resolutions;
}

}  // namespace

void to_json(nlohmann::json& json, const DiagnosisLevel& l) {
  json = {{"resolution", l.resolution}, {"delta_C", l.delta_C},
          {"end", l.end},               {"finished", l.finished},
          {"rhs_evaluations", l.rhs_evaluations}, {"wall_seconds", l.wall_seconds}};
}

void from_json(const nlohmann::json& json, DiagnosisLevel& l) {
  json.at("resolution").get_to(l.resolution);
  // δ_C of a run that diverged is infinite, which JSON spells null.
  l.delta_C = json.at("delta_C").is_null() ? INFINITY : json.at("delta_C").get<double>();
  json.at("end").get_to(l.end);
  json.at("finished").get_to(l.finished);
  json.at("rhs_evaluations").get_to(l.rhs_evaluations);
  json.at("wall_seconds").get_to(l.wall_seconds);
}

std::string Diagnosis::verdict() const {
  std::string line = classification.explanation;
  if (classification.kind != DriftKind::StepError || !advice) return line;
  // The classifier's extrapolation gives way to the advisor's verified answer.
  if (const auto about = line.find("; about "); about != std::string::npos) line.erase(about);
  char text[200];
  if (advice->answer) {
    std::snprintf(text, sizeof text, "; %s = %.2g meets %.2g (advise)", adaptive ? "rtol" : "h",
                  advice->answer->resolution, threshold);
  } else {
    std::snprintf(text, sizeof text, "; advise: %s", advice->note.c_str());
  }
  return line + text;
}

void check_diagnosis(const ModelEntry& model, const ModelSetup& setup, const DiagnoseSettings& settings) {
  if (settings.levels < 3) {
    throw SettingsError(settings.base.options("levels") +
                        " must be at least 3 (the classifier reads two observed orders), not " +
                        std::to_string(settings.levels));
  }
  const std::vector<double> resolutions = ladder_of(settings);
  check_settings(model, setup, level_settings(settings.base, resolutions.front()));
  check_settings(model, setup, level_settings(settings.base, resolutions.back()));
}

Diagnosis diagnose(const ModelEntry& model, const ModelSetup& setup, const DiagnoseSettings& settings,
                   const RunPool& pool) {
  check_diagnosis(model, setup, settings);
  const Method& method = settings.base.method;
  const std::vector<double> resolutions = ladder_of(settings);
  Diagnosis d;
  d.method = method.name;
  d.adaptive = method.adaptive();
  d.order = method.order;
  d.threshold = settings.base.audit.threshold;
  AdviceSettings probe_settings;
  probe_settings.target = d.threshold;
  probe_settings.drift_target = settings.base.audit.drift_threshold;
  probe_settings.base = settings.base;
  pool.progress().start("diagnose " + model.name + " with " + method.name, resolutions.size());
  d.levels = pool.map<DiagnosisLevel>(resolutions.size(), [&](std::size_t i) {
    if (stop_requested(settings.base.stop)) return DiagnosisLevel{resolutions[i]};
    const Probe p = probe_run(model, setup, method, resolutions[i], probe_settings);
    return DiagnosisLevel{p.resolution, p.delta_C, p.end, p.finished, p.rhs_evaluations, p.wall_seconds};
  });
  d.interrupted = stop_requested(settings.base.stop);
  DriftExpectation expectation;
  expectation.adaptive = d.adaptive;
  expectation.order = d.adaptive ? 1 : method.order;
  expectation.threshold = d.threshold;
  std::vector<DriftPoint> points;
  for (const DiagnosisLevel& l : d.levels) points.push_back({l.resolution, l.delta_C, l.finished});
  d.classification = classify_drift_ladder(points, expectation);
  if (d.classification.kind == DriftKind::StepError && settings.advise && !d.interrupted) {
    Advice advice = advise(model, setup, {method}, probe_settings, pool);
    if (!advice.methods.empty()) d.advice = advice.methods.front();
    d.interrupted = advice.interrupted;
  }
  d.workers = pool.workers();
  return d;
}

}  // namespace energy_audit::studies
