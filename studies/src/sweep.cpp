#include "sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace energy_audit::cli {
namespace {

/// Every combination of one value per name, the last name varying fastest.
std::vector<std::vector<Assignment>> combinations(const std::vector<AssignmentList>& lists) {
  std::vector<std::vector<Assignment>> all{{}};
  for (const AssignmentList& list : lists) {
    std::vector<std::vector<Assignment>> next;
    for (const std::vector<Assignment>& prefix : all) {
      for (const double value : list.values) {
        next.push_back(prefix);
        next.back().emplace_back(list.name, value);
      }
    }
    all = std::move(next);
  }
  return all;
}

std::string number(double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : std::string("nan");
}

/// What one run gives, as it travels from the rank that ran it.
struct SweepFigures {
  double delta_C = 0;
  std::string verdict;  ///< empty: not run
  std::size_t steps = 0, rhs_evaluations = 0;
  double wall_seconds = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SweepFigures, delta_C, verdict, steps, rhs_evaluations, wall_seconds)

RunSettings settings_of(const SweepPlan& plan, const SweepRun& run) {
  RunSettings settings = plan.base;
  settings.method = find_method(run.method);
  (run.adaptive ? settings.cvodes.rtol : settings.step) = run.resolution;
  settings.audit.store_every = 0;
  return settings;
}

}  // namespace

std::vector<SweepRun> plan_runs(const ModelEntry& model, const SweepPlan& plan) {
  std::vector<SweepRun> runs;
  for (const std::vector<Assignment>& parameters : combinations(plan.parameters)) {
    for (const std::vector<Assignment>& initial : combinations(plan.initial_values)) {
      for (const Method& method : plan.methods) {
        for (const double resolution : method.adaptive() ? plan.rtols : plan.steps) {
          SweepRun run;
          run.parameters = parameters;
          run.initial_values = initial;
          run.method = method.name;
          run.resolution = resolution;
          run.adaptive = method.adaptive();
          check_settings(model, {parameters, initial}, settings_of(plan, run));
          runs.push_back(std::move(run));
        }
      }
    }
  }
  return runs;
}

SweepResult run_sweep(const ModelEntry& model, const SweepPlan& plan, std::vector<SweepRun> runs,
                      const RunPool& pool) {
  pool.progress().start("sweep of " + model.name, runs.size());
  const std::vector<SweepFigures> figures = pool.map<SweepFigures>(runs.size(), [&](std::size_t i) {
    if (stop_requested(plan.base.stop)) return SweepFigures{};
    const SweepRun& run = runs[i];
    const RunOutcome outcome = run_model(model, {run.parameters, run.initial_values}, settings_of(plan, run));
    return SweepFigures{outcome.audit ? outcome.audit->relative_drift() : std::nan(""), outcome.verdict(),
                        outcome.steps, outcome.rhs_evaluations, outcome.wall_seconds};
  });
  SweepResult result;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const SweepFigures& f = figures[i];
    runs[i].delta_C = f.delta_C;
    runs[i].verdict = f.verdict;
    runs[i].steps = f.steps;
    runs[i].rhs_evaluations = f.rhs_evaluations;
    runs[i].wall_seconds = f.wall_seconds;
  }
  result.workers = pool.workers();
  result.interrupted = stop_requested(plan.base.stop) ||
                       std::any_of(runs.begin(), runs.end(), [](const SweepRun& run) { return run.verdict.empty(); });
  result.runs = std::move(runs);
  return result;
}

void print_sweep(std::ostream& out, const std::string& model, const SweepResult& sweep) {
  out << "sweep of " << model << ": " << sweep.runs.size() << " runs on " << sweep.workers.text() << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-28s %-12s %-5s %-10s %-11s %-11s %-9s %s\n", "values", "method", "", "h / rtol",
                "delta_C", "verdict", "rhs evals", "wall");
  out << line;
  for (const SweepRun& run : sweep.runs) {
    std::string values;
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) values += (values.empty() ? "" : " ") + a.name + "=" + number(a.value);
    }
    std::snprintf(line, sizeof line, "%-28s %-12s %-5s %-10.4g %-11.3e %-11s %-9zu %.3g s\n", values.c_str(),
                  run.method.c_str(), run.adaptive ? "rtol" : "h", run.resolution, run.delta_C,
                  run.verdict.empty() ? "not run" : run.verdict.c_str(), run.rhs_evaluations, run.wall_seconds);
    out << line;
  }
  if (sweep.interrupted) out << "interrupted: the runs marked 'not run' did not start\n";
}

void write_sweep_csv(OutputFile& file, const SweepResult& sweep) {
  std::string header;
  if (!sweep.runs.empty()) {
    for (const auto* list : {&sweep.runs.front().parameters, &sweep.runs.front().initial_values}) {
      for (const Assignment& a : *list) header += a.name + ",";
    }
  }
  file.write(header + "method,step,rtol,delta_C,verdict,steps,rhs_evals\n");
  for (const SweepRun& run : sweep.runs) {
    std::string row;
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) row += number(a.value) + ",";
    }
    row += run.method + "," + (run.adaptive ? "" : number(run.resolution)) + "," +
           (run.adaptive ? number(run.resolution) : "") + "," + number(run.delta_C) + "," +
           (run.verdict.empty() ? "not run" : run.verdict) + "," + std::to_string(run.steps) + "," +
           std::to_string(run.rhs_evaluations) + "\n";
    file.write(row);
  }
}

void write_sweep_json(OutputFile& file, const std::string& model, const SweepResult& sweep) {
  using Json = nlohmann::ordered_json;
  Json runs = Json::array();
  for (const SweepRun& run : sweep.runs) {
    Json values = Json::object();
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) values[a.name] = a.value;
    }
    runs.push_back({{"values", values},
                    {"method", run.method},
                    {run.adaptive ? "rtol" : "step", run.resolution},
                    {"delta_C", std::isfinite(run.delta_C) ? Json(run.delta_C) : Json(nullptr)},
                    {"verdict", run.verdict.empty() ? Json(nullptr) : Json(run.verdict)},
                    {"steps", run.steps},
                    {"rhs_evals", run.rhs_evaluations},
                    {"wall_seconds", run.wall_seconds}});
  }
  const Json j{{"model", model}, {"threads", sweep.workers.threads}, {"ranks", sweep.workers.ranks}, {"interrupted", sweep.interrupted}, {"runs", runs}};
  file.write(j.dump(2) + "\n");
}

}  // namespace energy_audit::cli
