#pragma once
/// \file
/// One run: a model, a method and a step, watched by the audit.

#include <optional>
#include <string>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "model_registry.hpp"

namespace energy_audit::cli {

struct RunSettings {
  FixedStepMethod method = FixedStepMethod::Rk4;
  double step = 1e-3;
  std::optional<double> t_end;  ///< the model's own when absent
  AuditOptions audit;
  bool audited = true;  ///< false: y = [q, v], no Ż, no observer (overhead measurements)
};

struct RunOutcome {
  std::string model;
  std::string method;
  double step = 0;
  Interval interval;
  std::vector<Assignment> parameters;
  IntegrationResult integration;
  std::optional<Audit> audit;  ///< absent when the run was not audited
  double wall_seconds = 0;
  std::string error;           ///< a run-time failure other than divergence

  /// "pass", "fail", "diverged", "error", or "unaudited".
  std::string verdict() const;
  bool finished() const { return !integration.diverged && error.empty(); }
};

/// Checks the settings against the model (UsageError), then integrates. A run-time failure
/// does not throw: it is kept in `error` together with the history computed so far.
RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings);

}  // namespace energy_audit::cli
