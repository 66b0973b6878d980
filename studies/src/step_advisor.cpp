#include <energy_audit/studies/step_advisor.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/drift_ladder.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/studies/transferable.hpp>

#include "printf_text.hpp"

namespace energy_audit::studies {
namespace {

using detail::printf_text;

/// A run at `where` near the answer missed the target that the answer met: δ_C is not monotone there.
void mark_not_monotone(MethodAdvice& advice, const std::string& where, const Probe& missed) {
  advice.not_monotone = true;
  advice.note = "not monotone near the answer: " + where + " " + missed.missed +
                printf_text(" misses the target (delta_C = %.3g)", missed.delta_C);
}

/// `probed` is called after each probe run (the progress line counts them).
MethodAdvice advise_method(const ModelEntry& model, const ModelSetup& setup, const Method& method,
                           const AdviceSettings& settings, const Interval& interval,
                           const std::function<void()>& probed) {
  MethodAdvice advice;
  advice.method = method.name;
  advice.adaptive = method.adaptive();
  const double span = interval.t_end - interval.t0;
  const double largest = method.adaptive() ? 0.1 : span / 4;
  const double smallest = method.adaptive() ? 1e-13 : (settings.smallest_step > 0 ? settings.smallest_step : span / 1e7);
  const auto run = [&](double resolution) {
    advice.probes.push_back(probe_run(model, setup, method, resolution, settings));
    probed();
    return advice.probes.back();
  };
  const StopRequest* stop = settings.base.stop;
  std::optional<Probe> pass, fail;
  const Probe first = run(method.adaptive() ? 1e-6 : std::min(largest, span / 1000));
  (first.meets ? pass : fail) = first;
  if (pass) {  // grow while it meets
    while (!fail && !stop_requested(stop)) {
      const double next = pass->resolution * 4;
      if (next > largest) {
        advice.note = "meets the target up to the largest " + std::string(method.adaptive() ? "rtol" : "step") +
                      " tried";
        break;
      }
      const Probe p = run(next);
      (p.meets ? pass : fail) = p;
    }
  } else {  // shrink until it meets, or until δ_C of finished runs stops falling
    while (!pass && !stop_requested(stop)) {
      const double next = fail->resolution / 4;
      if (next < smallest) {
        char text[160];
        std::snprintf(text, sizeof text, "no %s down to %.3g meets the target (at %.3g: delta_C = %.3g; missed: %s)",
                      method.adaptive() ? "rtol" : "step", smallest, fail->resolution, fail->delta_C,
                      fail->missed.c_str());
        advice.note = text;
        return advice;
      }
      const Probe p = run(next);
      if (p.meets) {
        pass = p;
      } else if (p.finished && fail->finished && p.delta_C > settings.target && std::isfinite(fail->delta_C) &&
                 p.delta_C > 0.5 * fail->delta_C) {
        // δ_C stopped falling: rounding, when it is within rounding's bound; far above it, the model.
        DriftExpectation expectation;
        expectation.adaptive = method.adaptive();
        expectation.span = span;
        const double bound = round_off_bound({p.resolution, p.delta_C, true, double(p.steps)}, expectation);
        if (p.delta_C <= bound) {
          advice.round_off_floor = true;
          advice.note = printf_text("the target is below the round-off floor: delta_C = %.3g at %.3g, %.3g at %.3g (it "
                                    "stopped falling, within rounding's bound eps N = %.2g)",
                                    fail->delta_C, fail->resolution, p.delta_C, p.resolution, bound);
        } else {
          advice.model_error = true;
          advice.note = printf_text("delta_C stops falling far above rounding's bound (eps N = %.2g): %.3g at %.3g, "
                                    "%.3g at %.3g; no step removes it: a model error (energy-audit diagnose names the "
                                    "equation)",
                                    bound, fail->delta_C, fail->resolution, p.delta_C, p.resolution);
        }
        return advice;
      } else {
        fail = p;
      }
    }
  }
  while (pass && fail && fail->resolution / pass->resolution > 1.05 && !stop_requested(stop)) {
    const Probe p = run(std::sqrt(pass->resolution * fail->resolution));
    (p.meets ? pass : fail) = p;
  }
  if (pass && !stop_requested(stop)) {  // the answer printed is a run: two digits, rounded toward safety
    const double rounded = two_significant_digits_down(pass->resolution);
    if (rounded < pass->resolution) {
      const Probe p = run(rounded);
      if (p.meets) {
        pass = p;
      } else {
        mark_not_monotone(advice, printf_text("at %.2g, rounded down from it,", p.resolution), p);
      }
    }
  }
  advice.answer = pass;
  advice.next = fail;
  if (pass && !stop_requested(stop) && !advice.not_monotone) {  // half the answer must meet the target too
    const Probe half = run(pass->resolution / 2);
    if (!half.meets) mark_not_monotone(advice, printf_text("at half of it (%.3g)", half.resolution), half);
  }
  return advice;
}

}  // namespace

void to_json(nlohmann::json& json, const Probe& p) {
  json = {{"resolution", p.resolution},
          {"delta_C", p.delta_C},
          {"meets", p.meets},
          {"rhs_evaluations", p.rhs_evaluations},
          {"wall_seconds", p.wall_seconds},
          {"end", p.end},
          {"finished", p.finished},
          {"missed", p.missed},
          {"steps", p.steps},
          {"evidence", p.evidence}};
}

void from_json(const nlohmann::json& json, Probe& p) {
  json.at("resolution").get_to(p.resolution);
  json.at("delta_C").get_to(p.delta_C);
  json.at("meets").get_to(p.meets);
  json.at("rhs_evaluations").get_to(p.rhs_evaluations);
  json.at("wall_seconds").get_to(p.wall_seconds);
  json.at("end").get_to(p.end);
  json.at("finished").get_to(p.finished);
  json.at("missed").get_to(p.missed);
  json.at("steps").get_to(p.steps);
  json.at("evidence").get_to(p.evidence);
}

double two_significant_digits_down(double value) {
  const int exponent = static_cast<int>(std::floor(std::log10(value))) - 1;
  long mantissa = std::lround(value / std::pow(10.0, exponent));
  const auto decimal = [&](long m) {
    return std::strtod((std::to_string(m) + "e" + std::to_string(exponent)).c_str(), nullptr);
  };
  double rounded = decimal(mantissa);
  while (rounded > value && mantissa > 1) rounded = decimal(--mantissa);
  return rounded;
}

Probe probe_run(const ModelEntry& model, const ModelSetup& setup, const Method& method, double resolution,
                const AdviceSettings& settings) {
  RunSettings run_settings = settings.base;
  run_settings.method = method;
  (method.adaptive() ? run_settings.adaptive.rtol : run_settings.step) = resolution;
  run_settings.audit.store_every = 0;
  const RunOutcome run = run_model(model, setup, run_settings);
  Probe p;
  p.resolution = resolution;
  p.rhs_evaluations = run.rhs_evaluations;
  p.wall_seconds = run.wall_seconds;
  p.end = run.verdict();
  p.finished = run.finished();
  p.delta_C = run.audit ? run.audit->relative_drift() : INFINITY;
  p.steps = run.steps;
  p.evidence = model_error_evidence(model, run);
  bool within_drift = true;
  if (run.audit) {
    if (const auto drift = run.audit->max_constraint_drift()) {
      within_drift = (std::isnan(drift->position) || drift->position <= settings.drift_target) &&
                     drift->velocity <= settings.drift_target;
    }
  }
  p.meets = run.finished() && p.delta_C <= settings.target && within_drift;
  p.missed = !run.finished() ? "the run did not finish (" + p.end + ")"
             : !(p.delta_C <= settings.target) ? "delta_C"
             : !within_drift ? "the constraint drift"
                             : "";
  return p;
}

std::vector<double> MethodAdvice::probes_ending(const std::string& end) const {
  std::vector<double> resolutions;
  for (const Probe& p : probes) {
    if (p.end == end) resolutions.push_back(p.resolution);
  }
  return resolutions;
}

void to_json(nlohmann::json& json, const MethodAdvice& m) {
  json = {{"method", m.method},
          {"adaptive", m.adaptive},
          {"answer", optional_to_json(m.answer)},
          {"next", optional_to_json(m.next)},
          {"round_off_floor", m.round_off_floor},
          {"not_monotone", m.not_monotone},
          {"note", m.note},
          {"probes", m.probes}};
}

void from_json(const nlohmann::json& json, MethodAdvice& m) {
  json.at("method").get_to(m.method);
  json.at("adaptive").get_to(m.adaptive);
  m.answer = optional_from_json<Probe>(json.at("answer"));
  m.next = optional_from_json<Probe>(json.at("next"));
  json.at("round_off_floor").get_to(m.round_off_floor);
  json.at("not_monotone").get_to(m.not_monotone);
  json.at("note").get_to(m.note);
  json.at("probes").get_to(m.probes);
}

Advice advise(const ModelEntry& model, const ModelSetup& setup, const std::vector<Method>& methods,
              const AdviceSettings& settings, const RunPool& pool) {
  Advice advice;
  if (settings.base.relax) {
    throw SettingsError(settings.base.options("relax") +
                        ": relaxation holds C at round-off whatever the step, so delta_C no longer tells which step "
                        "meets the target; advise without it");
  }
  const Interval interval = check_settings(model, setup, settings.base);
  // One search per method, the searches side by side; a search not started after an
  // interruption leaves no advice. How many probes a search takes is not known in advance: the
  // progress line counts the methods done and each search's probes.
  std::vector<std::string> names;
  for (const Method& method : methods) names.push_back(method.name);
  pool.progress().start("advise " + model.name, methods.size(), "methods", names);
  const std::vector<MethodAdvice> searched = pool.map<MethodAdvice>(methods.size(), [&](std::size_t i) {
    return stop_requested(settings.base.stop)
               ? MethodAdvice{}
               : advise_method(model, setup, methods[i], settings, interval, [&pool, i] { pool.progress().count(i); });
  });
  for (std::size_t i = 0; i < searched.size(); ++i) pool.progress().set_count(i, searched[i].probes.size());
  for (const MethodAdvice& m : searched) {
    if (m.method.empty()) continue;
    advice.methods.push_back(m);
    if (m.answer && (!advice.recommended ||
                     m.answer->rhs_evaluations < advice.methods[*advice.recommended].answer->rhs_evaluations)) {
      advice.recommended = advice.methods.size() - 1;
    }
  }
  advice.workers = pool.workers();
  advice.equations = integrated_equations(model, form_of(model, settings.base));
  advice.interrupted = stop_requested(settings.base.stop) || advice.methods.size() < methods.size();
  return advice;
}

}  // namespace energy_audit::studies
