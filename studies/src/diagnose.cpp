#include <energy_audit/studies/diagnose.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {
namespace {

/// The shortest text that reads back as `value`: a value printed is the value run.
std::string shortest_text(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

/// Each level's resolution is the previous one's divided by this: halved steps, tenfold tighter rtols.
double ladder_factor(bool adaptive) { return adaptive ? 10 : 2; }

/// The settings of the run at `resolution`.
RunSettings level_settings(const RunSettings& base, double resolution) {
  RunSettings settings = base;
  (base.method.adaptive() ? settings.adaptive.rtol : settings.step) = resolution;
  return settings;
}

/// The ladder's resolutions, coarsest first.
std::vector<double> ladder_of(const DiagnoseSettings& settings) {
  const Method& method = settings.base.method;
  const double start = method.adaptive() ? settings.base.adaptive.rtol : settings.base.step;
  std::vector<double> resolutions;
  for (std::size_t i = 0; i < settings.levels; ++i) {
    resolutions.push_back(start / std::pow(ladder_factor(method.adaptive()), double(i)));
  }
  return resolutions;
}

}  // namespace

std::string Diagnosis::verdict() const {
  std::string line = classification.explanation;
  if (!advice) return line;
  // The classifier's extrapolation gives way to the advisor's verified answer.
  if (const auto about = line.find("; about "); about != std::string::npos) line.erase(about);
  if (advice->answer) {
    line += std::string("; ") + (adaptive ? "rtol" : "h") + " = " + shortest_text(advice->answer->resolution) +
            " meets " + shortest_text(threshold) + " (advise)";
  }
  if (!advice->note.empty()) {
    line += (advice->not_monotone ? "; warning: " : advice->answer ? "; " : "; advise: ") + advice->note;
  }
  return line;
}

std::string Diagnosis::what_to_do() const {
  const char* step = adaptive ? "rtol" : "step";
  switch (classification.kind) {
    case DriftKind::StepError:
      return advice && advice->answer ? std::string("take the ") + step + " the advisor names, or a method of higher order"
                                      : std::string("take a smaller ") + step + ", or a method of higher order";
    case DriftKind::WithinThreshold:
      return std::string("the coarsest ") + step + " is enough" +
             (advice && advice->answer ? std::string("; the advisor names the largest that meets the threshold") : "");
    case DriftKind::ModelError: {
      if (evidence && evidence->equation_check_failed()) {
        return "fix the equation of " + evidence->failing_equations.front().coordinate +
               " (the largest residual first): the integrated equations disagree with Lagrange's equations of the "
               "model's T, V and f";
      }
      if (evidence && evidence->suspect) {
        return "check the force " + evidence->suspect->force +
               ": the equations of motion and f disagree on it (a wrong sign, or a force missing from one of them)";
      }
      return "check the equations of motion against T, V and f, or a force missing from f; no step helps";
    }
    case DriftKind::RoundOff:
      return classification.floor_at
                 ? std::string("do not shrink the ") + step + " below " + shortest_text(*classification.floor_at) +
                       ": a finer one only adds rounding"
                 : std::string("do not shrink the ") + step + ": a finer one only adds rounding";
    case DriftKind::Undecided: break;
  }
  return classification.levels.size() < 3 ? "run more levels, or from a smaller step, so that at least 3 finish"
                                          : "run the ladder as the diagnosis says, then read it again";
}

void check_diagnosis(const ModelEntry& model, const ModelSetup& setup, const DiagnoseSettings& settings) {
  if (settings.base.relax) {
    throw SettingsError(settings.base.options("relax") +
                        ": relaxation holds C at round-off whatever the step, so delta_C no longer measures the "
                        "step's error; diagnose without it");
  }
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
  const Interval interval = check_settings(model, setup, level_settings(settings.base, resolutions.front()));
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
  d.levels = pool.map<Probe>(resolutions.size(), [&](std::size_t i) {
    if (stop_requested(settings.base.stop)) return Probe{resolutions[i]};
    return probe_run(model, setup, method, resolutions[i], probe_settings);
  });
  d.interrupted = stop_requested(settings.base.stop);
  DriftExpectation expectation;
  expectation.adaptive = d.adaptive;
  expectation.order = d.adaptive ? 1 : method.order;
  expectation.threshold = d.threshold;
  expectation.span = interval.t_end - interval.t0;
  std::vector<DriftPoint> points;
  for (const Probe& l : d.levels) points.push_back({l.resolution, l.delta_C, l.finished, double(l.steps)});
  d.classification = classify_drift_ladder(points, expectation);
  d.equations = integrated_equations(model, form_of(model, settings.base));
  // The finest level that finished speaks for the model: its step error is the smallest. An
  // equation check that fails there is a model error whatever the ladder shows.
  const auto finest = std::find_if(d.levels.rbegin(), d.levels.rend(), [](const Probe& l) { return l.finished; });
  if (finest != d.levels.rend()) {
    DriftClassification& c = d.classification;
    if (finest->evidence.equation_check_failed() && c.kind != DriftKind::ModelError) {
      c.kind = DriftKind::ModelError;
      c.explanation = "model error: the equation check fails at the ladder's finest level "
                      "(relative residual " + shortest_text(finest->evidence.equation_residual) + " above " +
                      shortest_text(finest->evidence.equation_threshold) +
                      "): the integrated equations are not Lagrange's equations of the model's T, V and f";
    }
    if (c.kind == DriftKind::ModelError) d.evidence = finest->evidence;
  }
  const bool advise_step = d.classification.kind == DriftKind::StepError ||
                           d.classification.kind == DriftKind::WithinThreshold ||
                           (d.classification.all_meet_threshold && d.classification.kind != DriftKind::ModelError);
  if (advise_step && settings.advise && !d.interrupted) {
    Advice advice = advise(model, setup, {method}, probe_settings, pool);
    if (!advice.methods.empty()) d.advice = advice.methods.front();
    d.interrupted = advice.interrupted;
  }
  d.workers = pool.workers();
  return d;
}

}  // namespace energy_audit::studies
