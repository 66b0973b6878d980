#include "step_advisor.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "transferable.hpp"

namespace energy_audit::cli {
namespace {

/// The run of `method` at `resolution` (h or rtol) and whether it meets the targets.
Probe probe(const ModelEntry& model, const ModelSetup& setup, const Method& method, double resolution,
            const AdviceSettings& settings) {
  RunSettings run_settings = settings.base;
  run_settings.method = method;
  (method.adaptive() ? run_settings.cvodes.rtol : run_settings.step) = resolution;
  run_settings.audit.store_every = 0;
  const RunOutcome run = run_model(model, setup, run_settings);
  Probe p;
  p.resolution = resolution;
  p.rhs_evaluations = run.rhs_evaluations;
  p.wall_seconds = run.wall_seconds;
  p.end = run.verdict();
  p.finished = run.finished();
  p.delta_C = run.audit ? run.audit->relative_drift() : INFINITY;
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
    advice.probes.push_back(probe(model, setup, method, resolution, settings));
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
        advice.round_off_floor = true;
        char text[160];
        std::snprintf(text, sizeof text,
                      "the target is below the round-off floor: delta_C = %.3g at %.3g, %.3g at %.3g (it stopped falling)",
                      fail->delta_C, fail->resolution, p.delta_C, p.resolution);
        advice.note = text;
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
  advice.answer = pass;
  advice.next = fail;
  if (pass && !stop_requested(stop)) {  // half the answer must meet the target too
    const Probe half = run(pass->resolution / 2);
    if (!half.meets) {
      advice.not_monotone = true;
      char text[160];
      std::snprintf(text, sizeof text,
                    "not monotone near the answer: at half of it (%.3g) %s misses the target (delta_C = %.3g)",
                    half.resolution, half.missed.c_str(), half.delta_C);
      advice.note = text;
    }
  }
  return advice;
}

std::string g(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

}  // namespace

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Probe, resolution, delta_C, meets, rhs_evaluations, wall_seconds, end, finished,
                                   missed)

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
  advice.interrupted = stop_requested(settings.base.stop) || advice.methods.size() < methods.size();
  return advice;
}

void print_advice(std::ostream& out, const std::string& model, const AdviceSettings& settings, const Advice& advice) {
  out << "advice for " << model << ": the largest step (adaptive: loosest rtol) with delta_C <= " << g(settings.target)
      << (settings.drift_target > 0 ? ", constraint drift <= " + g(settings.drift_target) + " (multiplier models)" : "")
      << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %-16s %-11s %-11s %-9s %s\n", "method", "step / rtol", "delta_C", "rhs evals",
                "wall [s]", "next larger: delta_C");
  out << line;
  for (const MethodAdvice& m : advice.methods) {
    if (m.answer) {
      const std::string next = m.next ? g(m.next->resolution) + ": " + g(m.next->delta_C) : "-";
      std::snprintf(line, sizeof line, "%-12s %-16s %-11s %-11zu %-9.3g %s\n", m.method.c_str(),
                    ((m.adaptive ? "rtol " : "h ") + g(m.answer->resolution)).c_str(), g(m.answer->delta_C).c_str(),
                    m.answer->rhs_evaluations, m.answer->wall_seconds, next.c_str());
      out << line;
    } else {
      std::snprintf(line, sizeof line, "%-12s %-16s\n", m.method.c_str(), "none");
      out << line;
    }
    if (!m.note.empty()) out << "  " << m.method << ": " << m.note << "\n";
    for (const char* end : {"diverged", "error", "interrupted"}) {
      const std::vector<double> resolutions = m.probes_ending(end);
      if (resolutions.empty()) continue;
      std::string list;
      for (const double r : resolutions) list += (list.empty() ? "" : ", ") + g(r);
      out << "  " << m.method << ": " << (std::string(end) == "error" ? "ended in an error" : end) << " at "
          << (m.adaptive ? "rtol = " : "h = ") << list << "\n";
    }
  }
  if (advice.recommended) {
    const MethodAdvice& best = advice.methods[*advice.recommended];
    out << "recommended: " << best.method << (best.adaptive ? " with rtol " : " with step ")
        << g(best.answer->resolution) << " (" << best.answer->rhs_evaluations
        << " right-hand-side evaluations, the fewest)\n";
  } else {
    out << "recommended: none: no method met the target\n";
  }
  out << "the searches ran on " << advice.workers.text() << "\n";
  if (advice.interrupted) out << "interrupted: the search did not finish\n";
}

void write_advice_json(OutputFile& file, const std::string& model, const AdviceSettings& settings,
                       const Advice& advice) {
  using Json = nlohmann::ordered_json;
  const auto probe_json = [](const std::optional<Probe>& p) -> Json {
    if (!p) return nullptr;
    return {{"resolution", p->resolution}, {"delta_C", std::isfinite(p->delta_C) ? Json(p->delta_C) : Json("inf")},
            {"meets", p->meets}, {"missed", p->missed}, {"rhs_evals", p->rhs_evaluations}, {"wall_s", p->wall_seconds},
            {"end", p->end}, {"finished", p->finished}};
  };
  Json j;
  j["model"] = model;
  j["target"] = settings.target;
  j["drift_target"] = settings.drift_target;
  Json methods = Json::array();
  for (const MethodAdvice& m : advice.methods) {
    Json probes = Json::array();
    for (const Probe& p : m.probes) probes.push_back(probe_json(p));
    methods.push_back({{"method", m.method},
                       {"resolution", m.adaptive ? "rtol" : "step"},
                       {"answer", probe_json(m.answer)},
                       {"next", probe_json(m.next)},
                       {"round_off_floor", m.round_off_floor},
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
  file.write(j.dump(2) + "\n");
}

}  // namespace energy_audit::cli
