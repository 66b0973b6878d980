#pragma once
/// \file
/// compare: one model over several methods, each over its steps (rtols for the
/// adaptive methods), every run audited; the runs on a pool of threads or across MPI ranks
/// (run_pool.hpp) with every result at its own index, so the rows equal a serial run's, run by
/// run; each row with the observed order of δ_C against the run of its method before it.

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::studies {

/// What compare runs: each method over `steps` (fixed-step methods) or `rtols` (adaptive
/// methods), in this order, with the settings of `base` otherwise.
struct ComparisonPlan {
  std::vector<Method> methods;
  std::vector<double> steps, rtols;
  RunSettings base;           ///< the options common to every run; base.stop ends the study early
  bool drift_curves = false;  ///< record each run's |C(t) − C(t0)| (ComparisonRow::drift_curve)
};

/// One row of a comparison: what a run gave, as it travels from the thread or rank that ran it,
/// with the observed order of δ_C against the previous run of its method (with respect to the
/// step, or to rtol for the adaptive methods).
struct ComparisonRow {
  std::string method;
  bool adaptive = false;
  double step = 0, rtol = 0;
  std::optional<double> delta_C;            ///< absent: the run was not audited
  std::optional<double> equation_residual;  ///< absent: the equations were not checked
  std::string verdict;                      ///< empty: the run did not start (interrupted before it)
  std::size_t steps = 0, rhs_evaluations = 0;
  double wall_seconds = 0;
  bool finished = false;
  std::string stop_description;                        ///< where an unfinished run stopped
  std::vector<std::pair<double, double>> drift_curve;  ///< with ComparisonPlan::drift_curves: |C − C(t0)| against t
  /// When δ_C is above its threshold: the time |C − C(t0)| first exceeded it and the end of the
  /// step over which it grew fastest (Audit::time_first_above_threshold, time_of_fastest_growth).
  std::optional<double> dC_first_above_threshold, dC_fastest_growth_at;
  double observed_order = std::numeric_limits<double>::quiet_NaN();  ///< NaN for a method's first run or when undefined

  /// The step, or rtol.
  double resolution() const { return adaptive ? rtol : step; }
};

/// The rows of a comparison and what ran them.
struct Comparison {
  std::vector<ComparisonRow> rows;  ///< the runs that started, in the plan's order
  std::size_t planned = 0;          ///< the runs of the plan: more than rows.size() when stopped early
  Workers workers;
  std::string equations;  ///< the equations every run integrates (integrated_equations)
};

/// The settings of every run of the plan, in order, each checked (check_settings) before the
/// first starts: a usage error names the option at fault as plan.base.options spells it.
std::vector<RunSettings> comparison_runs(const ModelEntry& model, const ModelSetup& setup, const ComparisonPlan& plan);

/// Runs the plan (comparison_runs) on `pool`, counted on its progress line; stops starting runs
/// once plan.base.stop is requested.
Comparison compare(const ModelEntry& model, const ModelSetup& setup, const ComparisonPlan& plan, const RunPool& pool);

/// The row of a run (without its observed order, which needs the run before it).
ComparisonRow comparison_row(const RunOutcome& run);
/// Each row's observed order against the row before it when both are finished runs of one method.
void set_observed_orders(std::vector<ComparisonRow>& rows);
/// log(δ_prev / δ) / log(r_prev / r), NaN unless both δ are finite and > 0.
double observed_order(double resolution_prev, double delta_prev, double resolution, double delta);

/// ComparisonRow as JSON, for the rows to travel between ranks.
void to_json(nlohmann::json& json, const ComparisonRow& row);
void from_json(const nlohmann::json& json, ComparisonRow& row);

}  // namespace energy_audit::studies
