#pragma once
/// \file
/// Kinematic models (seed 001): first-order systems q̇ = w(q, t) that keep their constraints by
/// the pseudo-inverse (kinematic_system.hpp), audited by the drift of their constraints
/// (constraint_drift_audit.hpp) instead of C. Their entry, one run (run_kinematic, by the method
/// families that have a run_kinematic: method_family.hpp), and the linear theory of a fixed-step
/// method on them (stability_polynomial.hpp).

#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <energy_audit/constraint_drift_audit.hpp>
#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/stability_polynomial.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/adaptive_settings.hpp>

#include <energy_audit/studies/integrator_counts.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {

struct KinematicSettings {
  Method method = default_method();
  double step = 1e-3;         ///< fixed-step methods
  AdaptiveSettings adaptive;  ///< adaptive methods
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
  AdaptiveSettings adaptive;
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
/// z*/τ < k < −d/τ in which a small constraint error does not grow (docs/models.md, the ellipse).
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
  /// The methods its run is compiled for (those of its method families that run kinematic models,
  /// kinematic_methods<Families>()); required: check() refuses every method of an entry without.
  std::vector<Method> methods;
  /// Checks the parameter and initial values: throws SettingsError naming an unknown name and the
  /// option as `names` spells it.
  std::function<void(const ModelSetup&, const OptionNames& names)> check_setup;
  /// Checks the setup (check_setup) and the method: one of `methods` that runs kinematic models.
  void check(const ModelSetup& setup, const KinematicSettings& settings) const;
  /// Runs the model; a failure ends the run as RunEnd::Error, it does not throw.
  std::function<KinematicOutcome(const ModelSetup&, const KinematicSettings&)> run;
  /// The linear interval of a fixed-step method at step tau for the model with `setup`.
  std::function<LinearInterval(const ModelSetup&, const Method&, double tau)> linear_interval;
  /// The transverse multiplier of one fixed step of `method` for the model with `setup`.
  std::function<double(const ModelSetup&, const Method&, double tau, int points)> transverse_multiplier;
};

/// The stability polynomial of an explicit Runge–Kutta method of the list; throws SettingsError
/// for any other method.
StabilityPolynomial stability_polynomial(const Method& method);

namespace detail {

/// Records ‖f‖ into the drift audit and, when kept, the state rows.
/// Stops the run (through `stop`, the integrator's request) once ‖f‖ leaves settings.stop_above
/// or the user's request comes.
template <class System>
struct KinematicObserver {
  const System& system;
  KinematicOutcome& outcome;
  const KinematicSettings& settings;
  StopRequest& stop;
  bool left_bound = false;
  void begin_run(double t0, double t1) { outcome.drift.begin_run(t0, t1); }
  void operator()(const ConstVectorRef& q, double t) {
    const double drift = system.constraint_values(q, t).norm();
    outcome.drift.record(t, drift);
    if (!(drift <= settings.stop_above)) {
      left_bound = true;
      stop.request();
    }
    if (stop_requested(settings.stop)) stop.request();
    if (settings.keep_history) {
      outcome.history.push_back(t);
      for (Index i = 0; i < q.size(); ++i) outcome.history.push_back(q[i]);
      outcome.history.push_back(drift);
    }
  }
  void end_run(RunEnd end, double t) { outcome.drift.end_run(end, t); }
};

}  // namespace detail

/// Runs integrate(result), a kinematic model's integration that counts into `result` as it goes,
/// and records how it ended, its counts and the time it reached, also when it fails (the failure
/// propagates: run_kinematic records it). A family's run_kinematic calls it.
template <class Result, class Integrate>
void run_kinematic_integrator(KinematicOutcome& outcome, Integrate&& integrate) {
  Result result;
  const auto take_counts = [&] {
    const IntegratorCounts counts = counts_of(result);
    outcome.steps = counts.steps;
    outcome.rhs_evaluations = counts.rhs_evaluations;
    outcome.t_reached = result.t_reached;
  };
  try {
    integrate(result);
  } catch (...) {
    take_counts();
    throw;
  }
  outcome.end = result.end;
  take_counts();
}

/// The methods of Families that run kinematic models (Method::runs_kinematic_models): a family
/// whose methods qualify defines run_kinematic (method_family.hpp); without it their runs end as
/// RunEnd::Error.
template <class Families>
std::vector<Method> kinematic_methods() {
  std::vector<Method> methods;
  for (const Method& m : Families::methods()) {
    if (m.runs_kinematic_models()) methods.push_back(m);
  }
  return methods;
}

/// Runs the kinematic model `model` from `start` with `settings`, by the family of Families that
/// settings.method belongs to, on `outcome` filled with what the entry knows (model, interval,
/// parameters, initial values, coordinate names). A failure ends the run as RunEnd::Error, it
/// does not throw.
template <class Families, class Model>
KinematicOutcome run_kinematic(const Model& model, Vector start, KinematicOutcome outcome,
                               const KinematicSettings& settings) {
  const KinematicSystem<Model> system(model);
  outcome.method = settings.method;
  outcome.step = settings.step;
  outcome.adaptive = settings.adaptive;
  outcome.t_reached = outcome.interval.t0;
  Vector q = std::move(start);
  StopRequest stop;
  detail::KinematicObserver<KinematicSystem<Model>> observer{system, outcome, settings, stop};
  const auto started = std::chrono::steady_clock::now();
  try {
    Families::dispatch(settings.method, [&](auto family) {
      using Family = decltype(family);
      if constexpr (requires { &Family::template run_kinematic<Model, decltype(observer)>; }) {
        Family::run_kinematic(outcome, system, q, observer, settings, stop);
      } else {
        throw std::invalid_argument("method " + settings.method.name + " does not run kinematic models");
      }
    });
  } catch (const std::exception& e) {
    outcome.end = RunEnd::Error;
    outcome.error = e.what();
  }
  if (observer.left_bound && outcome.end == RunEnd::Interrupted) outcome.end = RunEnd::Diverged;
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return outcome;
}

}  // namespace energy_audit::studies
