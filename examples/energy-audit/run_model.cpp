#include "run_model.hpp"

#include <chrono>
#include <cmath>
#include <sstream>

#include <energy_audit/error.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>

#include "usage_error.hpp"

namespace energy_audit::cli {

std::string RunOutcome::verdict() const {
  if (diverged_at) return "diverged";
  if (!error.empty()) return "error";
  if (!audit) return "unaudited";
  return audit->passed() ? "pass" : "fail";
}

const char* stabilization_name(Stabilization s) {
  switch (s) {
    case Stabilization::Baumgarte: return "baumgarte";
    case Stabilization::Ggl: return "ggl";
    case Stabilization::None: break;
  }
  return "none";
}

namespace {

void check_method_fits_model(const ModelEntry& model, const RunSettings& settings) {
  const std::string& method = settings.method.name;
  if (settings.method.runs_only_multiplier_models() && !model.has_multipliers()) {
    throw UsageError(settings.options.method + ": " + method + " cannot run model " + model.name +
                     ", which has no constraints (" + method + " runs: " + join(multiplier_model_names()) + ")");
  }
  if (settings.stabilization == Stabilization::None) return;
  if (!model.has_multipliers()) {
    throw UsageError(std::string("--stabilize: model ") + model.name + " has no constraints to stabilize");
  }
  if (settings.stabilization == Stabilization::Ggl && settings.method.kind != MethodKind::Idas) {
    throw UsageError("--stabilize: ggl is a residual form for --method idas, not for " + method);
  }
  if (!(settings.baumgarte.alpha >= 0) || !(settings.baumgarte.beta >= 0)) {
    throw UsageError("--baumgarte: alpha and beta must be >= 0");
  }
}

/// Refuses a history too large to keep in memory, before the run rather than after hours.
void check_history_size(const ModelEntry& model, const RunSettings& settings, double samples) {
  const std::size_t every = settings.audit.store_every;
  if (!settings.audited || every == 0) return;
  const std::size_t n = model.coordinate_names.size(), m = model.multiplier_names.size();
  const double row_bytes = 8.0 * static_cast<double>(1 + 2 * n + 9 + m + (m > 0 ? 2 : 0));
  const double bytes = (samples / static_cast<double>(every) + 1) * row_bytes;
  if (bytes > max_history_bytes) {
    throw UsageError("--every: keeping every " + std::to_string(every) + " of up to " + to_text(samples) +
                     " steps would take " + to_text(bytes / 1e9) + " GB; keep fewer rows with a larger --every");
  }
}

}  // namespace

Interval check_settings(const ModelEntry& model, const RunSettings& settings) {
  check_method_fits_model(model, settings);
  Interval interval = model.interval;
  if (settings.t_end) {
    if (!std::isfinite(*settings.t_end) || !(*settings.t_end > interval.t0)) {
      throw UsageError("--t-end: " + to_text(*settings.t_end) + " must be finite and > t0 = " +
                       to_text(interval.t0));
    }
    interval.t_end = *settings.t_end;
  }
  if (!(settings.audit.threshold >= 0)) {
    throw UsageError("--threshold: " + to_text(settings.audit.threshold) + " must be >= 0");
  }
  const double span = interval.t_end - interval.t0;
  if (settings.method.adaptive()) {
    const sun::CvodesOptions& o = settings.cvodes;
    const std::string& rtol = settings.options.rtol;
    if (!(o.rtol > 0)) throw UsageError(rtol + ": " + to_text(o.rtol) + " must be > 0");
    if (!(o.atol > 0)) throw UsageError("--atol: " + to_text(o.atol) + " must be > 0");
    if (!(o.max_steps > 0)) throw UsageError("--max-steps: must be > 0");
    if (!(o.initial_step >= 0)) throw UsageError("--initial-step: " + to_text(o.initial_step) + " must be >= 0");
    if (!(o.max_step >= 0)) throw UsageError("--max-step: " + to_text(o.max_step) + " must be >= 0");
    if (o.max_step > 0 && span / o.max_step > static_cast<double>(o.max_steps)) {
      throw UsageError("--max-step: " + to_text(o.max_step) + " needs more than --max-steps = " +
                       std::to_string(o.max_steps) + " steps to cover [" + to_text(interval.t0) + ", " +
                       to_text(interval.t_end) + "]");
    }
    check_history_size(model, settings, static_cast<double>(o.max_steps));
    return interval;
  }
  const std::string& step_option = settings.options.step;
  const double h = settings.step;
  if (!std::isfinite(h) || !(h > 0)) throw UsageError(step_option + ": " + to_text(h) + " must be > 0");
  if (h > span) {
    throw UsageError(step_option + ": " + to_text(h) + " is longer than the interval [" + to_text(interval.t0) +
                     ", " + to_text(interval.t_end) + "]");
  }
  const double steps = std::ceil(span / h);
  if (steps > max_fixed_steps) {
    throw UsageError(step_option + ": " + to_text(h) + " gives " + to_text(steps) + " steps over [" +
                     to_text(interval.t0) + ", " + to_text(interval.t_end) + "], more than " +
                     to_text(max_fixed_steps));
  }
  check_history_size(model, settings, steps);
  return interval;
}

namespace {

void run_fixed_step(RunOutcome& outcome, const ModelInstance& instance, const RunSettings& settings) {
  FixedStepper stepper(settings.method.fixed_step);
  Vector y = instance.initial_state;
  IntegrationResult result;
  if (outcome.audit) {
    result = integrate_const(stepper, *instance.system, y, outcome.interval.t0, outcome.interval.t_end,
                             settings.step, watch(*instance.system, *outcome.audit));
  } else {
    result = integrate_const(stepper, *instance.system, y, outcome.interval.t0, outcome.interval.t_end,
                             settings.step);
  }
  outcome.steps = result.steps;
  outcome.rhs_evaluations = result.rhs_evaluations;
  if (result.diverged) outcome.diverged_at = result.t_diverged;
}

void record_counters(RunOutcome& outcome, const sun::SolverCounters& counters) {
  outcome.solver_counters = counters;
  outcome.steps = static_cast<std::size_t>(counters.steps);
  outcome.rhs_evaluations = static_cast<std::size_t>(counters.rhs_evaluations + counters.jacobian_rhs_evaluations);
}

void run_cvodes(RunOutcome& outcome, const ModelInstance& instance, const RunSettings& settings) {
  sun::CvodesOptions options = settings.cvodes;
  options.method = settings.method.multistep;
  if (!outcome.audit) options.z_mode = sun::ZMode::State;  // nothing to carry: y = [q, v]
  outcome.cvodes = options;
  Vector y = instance.initial_state;
  try {
    sun::CvodesResult result;
    if (outcome.audit) {
      result = sun::integrate_cvodes(*instance.system, y, outcome.interval.t0, outcome.interval.t_end,
                                     watch(*instance.system, *outcome.audit), options);
    } else {
      result = sun::integrate_cvodes(*instance.system, y, outcome.interval.t0, outcome.interval.t_end,
                                     NoObserver{}, options);
    }
    record_counters(outcome, result.counters);
  } catch (const sun::CvodesFailure& failure) {
    record_counters(outcome, failure.counters());
    throw;
  }
}

void run_idas(RunOutcome& outcome, const ModelInstance& instance, const RunSettings& settings) {
  sun::IdasOptions options;
  options.rtol = settings.cvodes.rtol;
  options.atol = settings.cvodes.atol;
  options.max_steps = settings.cvodes.max_steps;
  options.initial_step = settings.cvodes.initial_step;
  options.max_step = settings.cvodes.max_step;
  options.z_mode = outcome.audit ? settings.cvodes.z_mode : sun::ZMode::State;
  options.quadrature_error_control = settings.cvodes.quadrature_error_control;
  options.form = settings.stabilization == Stabilization::Ggl ? sun::DaeForm::Ggl : sun::DaeForm::Index1;
  if (settings.stabilization == Stabilization::Baumgarte) options.baumgarte = settings.baumgarte;
  outcome.cvodes.z_mode = options.z_mode;
  Vector y = instance.initial_state;
  const AnyMultiplierSystem& system = *instance.multiplier_system;
  try {
    sun::IdasResult result;
    if (outcome.audit) {
      result = sun::integrate_idas(system, y, outcome.interval.t0, outcome.interval.t_end, watch(system, *outcome.audit),
                                   options);
    } else {
      result = sun::integrate_idas(system, y, outcome.interval.t0, outcome.interval.t_end, NoObserver{}, options);
    }
    record_counters(outcome, result.counters);
  } catch (const sun::IdasFailure& failure) {
    record_counters(outcome, failure.counters());
    throw;
  }
}

}  // namespace

RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings) {
  RunOutcome outcome;
  outcome.model = model.name;
  outcome.method = settings.method;
  outcome.step = settings.step;
  outcome.cvodes = settings.cvodes;
  outcome.stabilization = settings.stabilization;
  outcome.baumgarte = settings.baumgarte;
  outcome.interval = check_settings(model, settings);

  ModelSetup effective = setup;
  if (settings.stabilization == Stabilization::Baumgarte) effective.baumgarte = settings.baumgarte;
  effective.energy_flow = settings.audited ? EnergyFlow::Carried : EnergyFlow::Off;
  const ModelInstance instance = model.instantiate(effective);
  outcome.parameters = instance.parameters;
  if (settings.audited) outcome.audit.emplace(settings.audit);

  const auto start = std::chrono::steady_clock::now();
  try {
    if (settings.method.kind == MethodKind::Idas) {
      run_idas(outcome, instance, settings);
    } else if (settings.method.kind == MethodKind::Cvodes) {
      run_cvodes(outcome, instance, settings);
    } else {
      run_fixed_step(outcome, instance, settings);
    }
  } catch (const std::exception& e) {  // the model's own exceptions end the run the same way
    outcome.error = e.what();
    if (!settings.method.adaptive() && outcome.audit && outcome.audit->accepted_steps() > 0) {
      outcome.steps = outcome.audit->accepted_steps() - 1;  // keep what was done
    }
  }
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

}  // namespace energy_audit::cli
