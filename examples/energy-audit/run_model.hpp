#pragma once
/// \file
/// One run: a model and a method (a fixed step, or CVODES tolerances), watched by the audit.

#include <optional>
#include <string>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/sundials/cvodes_options.hpp>
#include <energy_audit/sundials/solver_counters.hpp>

#include "methods.hpp"
#include "model_registry.hpp"

namespace energy_audit::cli {

/// Constraint stabilization for multiplier models.
enum class Stabilization { None, Baumgarte, Ggl };
const char* stabilization_name(Stabilization s);

/// Limits that keep a run from taking hours or all memory: a usage error, not a hang.
inline constexpr double max_fixed_steps = 1e9;
inline constexpr double max_history_bytes = 2e9;

/// The names of the options that set a run's fields, for messages (compare takes lists).
struct OptionNames {
  std::string method = "--method";
  std::string step = "--step";
  std::string rtol = "--rtol";
};

struct RunSettings {
  Method method = find_method("rk4");
  double step = 1e-3;                 ///< fixed-step methods
  sun::CvodesOptions cvodes;          ///< adaptive methods (its `method` is taken from `method`)
  Stabilization stabilization = Stabilization::None;
  Baumgarte baumgarte{5.0, 5.0};      ///< used with Stabilization::Baumgarte
  std::optional<double> t_end;        ///< the model's own when absent
  AuditOptions audit;
  bool audited = true;  ///< false: y = [q, v], no Ż, no observer (overhead measurements)
  OptionNames options;  ///< named in usage errors
};

struct RunOutcome {
  std::string model;
  Method method;
  double step = 0;             ///< fixed-step methods
  sun::CvodesOptions cvodes;   ///< adaptive methods (rtol, atol, max steps, Z mode also for idas)
  Stabilization stabilization = Stabilization::None;
  Baumgarte baumgarte;
  Interval interval;
  std::vector<Assignment> parameters;
  std::size_t steps = 0;       ///< accepted steps
  std::size_t rhs_evaluations = 0;
  std::optional<sun::SolverCounters> solver_counters;  ///< adaptive methods
  std::optional<Audit> audit;  ///< absent when the run was not audited
  double wall_seconds = 0;
  std::optional<double> diverged_at;  ///< a fixed-step state became non-finite there
  std::string error;                  ///< any other run-time failure, with SUNDIALS' flag and t

  /// "pass", "fail", "diverged", "error", or "unaudited".
  std::string verdict() const;
  bool finished() const { return !diverged_at && error.empty(); }
  /// The parameter a compare table varies: the step, or the relative tolerance.
  double resolution() const { return method.adaptive() ? cvodes.rtol : step; }
};

/// Checks the settings against the model and returns the interval; throws UsageError naming
/// the option at fault, before anything runs.
Interval check_settings(const ModelEntry& model, const RunSettings& settings);

/// Checks the settings against the model (UsageError), then integrates. A run-time failure
/// does not throw: it is kept in `diverged_at` or `error` with the history computed so far.
RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings);

}  // namespace energy_audit::cli
