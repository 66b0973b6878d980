#include <energy_audit/studies/sweep.hpp>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>

namespace energy_audit::studies {
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
  settings.method = find_method(plan.methods, run.method);
  (run.adaptive ? settings.adaptive.rtol : settings.step) = run.resolution;
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
  result.equations = integrated_equations(model, form_of(model, plan.base));
  return result;
}

}  // namespace energy_audit::studies
