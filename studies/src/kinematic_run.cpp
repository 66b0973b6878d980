#include "kinematic_run.hpp"

#include <chrono>
#include <exception>
#include <utility>

#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/stability_polynomial.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/transverse_multiplier.hpp>

#include "ellipse.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// The ellipse with --set c, k applied, and its start with --init x, y.
struct EllipseSetup {
  examples::Ellipse model;
  Eigen::Vector2d start{1.0, 0.0};
};

EllipseSetup ellipse_setup(const ModelSetup& setup) {
  EllipseSetup s;
  for (const Assignment& a : setup.parameters) {
    if (a.name == "c") {
      s.model.c = a.value;
    } else if (a.name == "k") {
      s.model.k = a.value;
    } else {
      throw UsageError("--set: model ellipse has no parameter '" + a.name + "' (parameters: c, k)");
    }
  }
  for (const Assignment& a : setup.initial_values) {
    if (a.name == "x") {
      s.start[0] = a.value;
    } else if (a.name == "y") {
      s.start[1] = a.value;
    } else {
      throw UsageError("--init: model ellipse has no initial value '" + a.name + "' (initial values: x, y)");
    }
  }
  return s;
}

/// The tableau behind an explicit Runge–Kutta method of the list, for its stability polynomial.
StabilityPolynomial stability_polynomial(const Method& method) {
  const std::string_view name = method.fixed_step.info().name;
  if (name == "euler") return StabilityPolynomial(euler_tableau());
  if (name == "rk2") return StabilityPolynomial(heun_tableau());
  if (name == "rk3") return StabilityPolynomial(kutta3_tableau());
  if (name == "rk4") return StabilityPolynomial(rk4_tableau());
  if (name == "rkg") return StabilityPolynomial(gill_tableau());
  throw UsageError("method " + method.name + " is not an explicit Runge-Kutta method: it has no stability polynomial");
}

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

KinematicOutcome run_ellipse(const ModelSetup& setup, const KinematicSettings& settings) {
  const EllipseSetup s = ellipse_setup(setup);
  const KinematicSystem<examples::Ellipse> system(s.model);
  KinematicOutcome outcome;
  outcome.model = "ellipse";
  outcome.method = settings.method;
  outcome.step = settings.step;
  outcome.cvodes = settings.cvodes;
  outcome.interval = {0.0, settings.t_end.value_or(20.0)};
  outcome.parameters = {{"c", s.model.c}, {"k", s.model.k}};
  outcome.initial_values = {{"x", s.start[0]}, {"y", s.start[1]}};
  outcome.coordinate_names = {"x", "y"};
  outcome.t_reached = outcome.interval.t0;
  Vector q = s.start;
  StopRequest stop;
  KinematicObserver<KinematicSystem<examples::Ellipse>> observer{system, outcome, settings, stop};
  const auto started = std::chrono::steady_clock::now();
  // The results count as the run goes, so that a run an exception ends keeps what it computed.
  sun::CvodesResult adaptive_result;
  IntegrationResult fixed_step_result;
  const auto take_counts = [&] {
    if (settings.method.adaptive()) {
      outcome.steps = static_cast<std::size_t>(adaptive_result.counters.steps);
      outcome.rhs_evaluations = static_cast<std::size_t>(adaptive_result.counters.rhs_evaluations +
                                                         adaptive_result.counters.jacobian_rhs_evaluations);
      outcome.t_reached = adaptive_result.t_reached;
    } else {
      outcome.steps = fixed_step_result.steps;
      outcome.rhs_evaluations = fixed_step_result.rhs_evaluations;
      outcome.t_reached = fixed_step_result.t_reached;
    }
  };
  try {
    if (settings.method.adaptive()) {
      sun::CvodesOptions options = settings.cvodes;
      options.method = settings.method.multistep;
      outcome.cvodes = options;
      sun::integrate_cvodes(adaptive_result, system, q, outcome.interval.t0, outcome.interval.t_end, observer,
                            options, &stop);
      outcome.end = adaptive_result.end;
    } else {
      FixedStepper stepper(settings.method.fixed_step);
      integrate_const(fixed_step_result, stepper, system, q, outcome.interval.t0, outcome.interval.t_end,
                      settings.step, observer, &stop);
      outcome.end = fixed_step_result.end;
      if (settings.multiplier_points > 0) {
        outcome.transverse_multiplier =
            transverse_multiplier(stepper, system, settings.step, outcome.interval.t0,
                                  examples::Ellipse::constraint_points(settings.multiplier_points));
      }
    }
    take_counts();
  } catch (const std::exception& e) {
    take_counts();
    outcome.end = RunEnd::Error;
    outcome.error = e.what();
  }
  if (observer.left_bound && outcome.end == RunEnd::Interrupted) outcome.end = RunEnd::Diverged;
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return outcome;
}

}  // namespace

std::string KinematicOutcome::verdict() const {
  if (end == RunEnd::Error) return "error";
  if (end == RunEnd::Interrupted) return "interrupted";
  return std::string(to_string(drift.verdict(transverse_multiplier)));
}

void KinematicEntry::check(const ModelSetup& setup, const KinematicSettings& settings) const {
  if (name == "ellipse") ellipse_setup(setup);
  const Method& method = settings.method;
  if (method.kind == MethodKind::Idas) {
    throw UsageError(settings.options.method + ": model " + name +
                     " is kinematic (q' = w(q, t)); idas runs multiplier models: use a fixed-step method or cvode-bdf, "
                     "cvode-adams");
  }
  if (method.kind == MethodKind::FixedStep && method.fixed_step.info().partitioned) {
    throw UsageError(settings.options.method + ": model " + name + " is kinematic (q' = w(q, t), no velocities); " +
                     method.name + " updates velocities and positions apart: use euler, rk2, rk3, rk4, rkg, cvode-bdf "
                     "or cvode-adams");
  }
  const double t_end = settings.t_end.value_or(interval.t_end);
  if (!(t_end > interval.t0)) {
    throw UsageError("--t-end: " + std::to_string(t_end) + " must be after the start, t = " + std::to_string(interval.t0));
  }
  if (!method.adaptive()) check_fixed_step(settings.options, settings.step, {interval.t0, t_end});
}

const std::vector<KinematicEntry>& kinematic_registry() {
  static const std::vector<KinematicEntry> models = [] {
    KinematicEntry ellipse;
    ellipse.name = "ellipse";
    ellipse.description = "seed 001's point kept on 9x^2 + y^2 = 9 by the pseudo-inverse, gain k (kinematic)";
    ellipse.coordinate_names = {"x", "y"};
    ellipse.parameter_names = {"c", "k"};
    ellipse.initial_value_names = {"x", "y"};
    ellipse.starts = {{"on_constraint", {{"x", 1.0}, {"y", 0.0}}}, {"perturbed", {{"x", 1.05}, {"y", 0.0}}}};
    ellipse.interval = {0.0, 20.0};
    ellipse.run = run_ellipse;
    ellipse.linear_interval = [](const ModelSetup& setup, const Method& method, double tau) {
      const EllipseSetup s = ellipse_setup(setup);
      const StabilityPolynomial R = stability_polynomial(method);
      return LinearInterval{R.real_stability_limit() / tau, -R.rotation_growth(s.model.rotation_rate() * tau) / tau};
    };
    ellipse.transverse_multiplier = [](const ModelSetup& setup, const Method& method, double tau, int points) {
      const EllipseSetup s = ellipse_setup(setup);
      const KinematicSystem<examples::Ellipse> system(s.model);
      FixedStepper stepper(method.fixed_step);
      return energy_audit::transverse_multiplier(stepper, system, tau, 0.0, examples::Ellipse::constraint_points(points));
    };
    return std::vector<KinematicEntry>{ellipse};
  }();
  return models;
}

const KinematicEntry* find_kinematic_model(const std::string& name) {
  for (const KinematicEntry& entry : kinematic_registry()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace energy_audit::cli
