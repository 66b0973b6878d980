#pragma once
/// \file
/// A sweep (`energy-audit sweep`): one model over the Cartesian product of parameter values,
/// initial values, methods and steps (rtols for the adaptive methods), each run audited, the runs
/// on a pool of threads or across the ranks of a group (run_pool.hpp) with every result at its
/// own index: the table equals a serial run's, run by run.

#include <string>
#include <vector>

#include <energy_audit/studies/assignment.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::studies {

struct SweepPlan {
  std::vector<AssignmentList> parameters, initial_values;  ///< each NAME with the values it takes
  std::vector<Method> methods;
  std::vector<double> steps, rtols;
  RunSettings base;  ///< the options common to every run
};

struct SweepRun {
  std::vector<Assignment> parameters, initial_values;  ///< this run's values of the swept names
  std::string method;
  double resolution = 0;  ///< h, or rtol
  bool adaptive = false;
  double delta_C = 0;
  std::string verdict;  ///< empty: not run (interrupted before it)
  std::size_t steps = 0, rhs_evaluations = 0;
  double wall_seconds = 0;
};

struct SweepResult {
  std::vector<SweepRun> runs;
  Workers workers;  ///< what ran them
  bool interrupted = false;
  std::string equations;  ///< the equations every run integrates (integrated_equations)
};

/// The runs of the plan, each checked (check_settings) before the first starts: a usage error
/// names the option at fault.
std::vector<SweepRun> plan_runs(const ModelEntry& model, const SweepPlan& plan);
/// Runs them on `pool`; stops starting runs once plan.base.stop is requested.
SweepResult run_sweep(const ModelEntry& model, const SweepPlan& plan, std::vector<SweepRun> runs,
                      const RunPool& pool);

}  // namespace energy_audit::studies
