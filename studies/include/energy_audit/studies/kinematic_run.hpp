#pragma once
/// \file
/// The command line's kinematic models (seed 001): first-order systems q̇ = w(q, t) that keep
/// their constraints by the pseudo-inverse (kinematic_system.hpp), audited by the drift of their
/// constraints (constraint_drift_audit.hpp) instead of C. One run, and the linear theory of
/// a fixed-step method on them (stability_polynomial.hpp).

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <energy_audit/constraint_drift_audit.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/sundials/cvodes_options.hpp>

#include "methods.hpp"
#include "run_model.hpp"

namespace energy_audit::cli {

struct KinematicSettings {
  Method method = find_method("rk4");
  double step = 1e-3;         ///< fixed-step methods
  sun::CvodesOptions cvodes;  ///< adaptive methods
  std::optional<double> t_end;
  bool keep_history = false;  ///< keep (t, q, f) of every state, for --csv
  /// Points on the constraint at which the transverse multiplier is averaged (fixed-step
  /// methods; 0: not computed).
  int multiplier_points = 4096;
  /// Ends the run, as diverged, after the first state with ‖f‖ above this (or not finite): the
  /// operational boundary search needs only to know that ‖f‖ left 1.
  double stop_above = INFINITY;
  const StopRequest* stop = nullptr;
  OptionNames options;
};

struct KinematicOutcome {
  std::string model;
  Method method;
  double step = 0;
  sun::CvodesOptions cvodes;
  Interval interval;
  std::vector<Assignment> parameters;      ///< the values in effect, in the model's order
  std::vector<Assignment> initial_values;  ///< the start
  ConstraintDriftAudit drift;
  std::optional<double> transverse_multiplier;  ///< rho, fixed-step methods with one constraint
  std::size_t steps = 0;
  std::size_t rhs_evaluations = 0;
  double wall_seconds = 0;
  RunEnd end = RunEnd::Finished;
  double t_reached = 0;
  std::string error;  ///< RunEnd::Error
  std::vector<std::string> coordinate_names;
  std::vector<double> history;  ///< with keep_history: rows (t, q_1..q_n, |f|)

  bool finished() const { return end == RunEnd::Finished; }
  /// "unstable", "drifting", "neutral" or "stable"; "error" or "interrupted" when the run did not
  /// get to its end for those reasons (a diverged run is "unstable").
  std::string verdict() const;
};

/// The linear theory of one fixed-step method on a kinematic model: the interval of gains
/// z*/τ < k < −d/τ in which a small constraint error does not grow (MODELS.md, ellipse).
struct LinearInterval {
  double lower = 0;  ///< z*/τ
  double upper = 0;  ///< −d/τ, d = |R(i w)|² − 1 with w the model's rotation per step
};

struct KinematicEntry {
  std::string name;
  std::string description;
  std::vector<std::string> coordinate_names;
  std::vector<std::string> parameter_names;
  std::vector<std::string> initial_value_names;
  /// The named starts of a stability map (the first is the default of run).
  std::vector<std::pair<std::string, std::vector<Assignment>>> starts;
  Interval interval;
  /// Checks --set and --init (UsageError naming an unknown name), and the method: the kinematic
  /// models run on the explicit fixed-step methods and CVODES.
  void check(const ModelSetup& setup, const KinematicSettings& settings) const;
  /// Runs the model; a failure ends the run as RunEnd::Error, it does not throw.
  std::function<KinematicOutcome(const ModelSetup&, const KinematicSettings&)> run;
  /// The linear interval of a fixed-step method at step tau for the model with `setup`.
  std::function<LinearInterval(const ModelSetup&, const Method&, double tau)> linear_interval;
  /// The transverse multiplier of one fixed step of `method` (MODELS.md), for the model with `setup`.
  std::function<double(const ModelSetup&, const Method&, double tau, int points)> transverse_multiplier;
};

/// The kinematic models, by name.
const std::vector<KinematicEntry>& kinematic_registry();
/// The model called `name`, or null when it is not a kinematic model.
const KinematicEntry* find_kinematic_model(const std::string& name);

}  // namespace energy_audit::cli
