#include "run_model.hpp"

#include <chrono>
#include <cmath>
#include <sstream>

#include <energy_audit/error.hpp>

namespace energy_audit::cli {

std::string RunOutcome::verdict() const {
  if (integration.diverged) return "diverged";
  if (!error.empty()) return "error";
  if (!audit) return "unaudited";
  return audit->passed() ? "pass" : "fail";
}

namespace {

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

Interval checked_interval(const ModelEntry& model, const RunSettings& settings) {
  Interval interval = model.interval;
  if (settings.t_end) {
    if (!std::isfinite(*settings.t_end) || !(*settings.t_end > interval.t0)) {
      throw UsageError("--t-end: " + number(*settings.t_end) + " must be finite and > t0 = " +
                       number(interval.t0));
    }
    interval.t_end = *settings.t_end;
  }
  const double h = settings.step;
  if (!std::isfinite(h) || !(h > 0)) throw UsageError("--step: " + number(h) + " must be > 0");
  if (h > interval.t_end - interval.t0) {
    throw UsageError("--step: " + number(h) + " is longer than the interval [" + number(interval.t0) +
                     ", " + number(interval.t_end) + "]");
  }
  if (!(settings.audit.threshold >= 0)) {
    throw UsageError("--threshold: " + number(settings.audit.threshold) + " must be >= 0");
  }
  return interval;
}

}  // namespace

RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings) {
  RunOutcome outcome;
  outcome.model = model.name;
  outcome.method = std::string(info(settings.method).name);
  outcome.step = settings.step;
  outcome.interval = checked_interval(model, settings);

  ModelSetup effective = setup;
  effective.energy_flow = settings.audited ? EnergyFlow::Carried : EnergyFlow::Off;
  ModelInstance instance = model.instantiate(effective);
  outcome.parameters = instance.parameters;
  if (settings.audited) outcome.audit.emplace(settings.audit);

  FixedStepper stepper(settings.method);
  Vector y = instance.initial_state;
  const auto start = std::chrono::steady_clock::now();
  try {
    if (outcome.audit) {
      outcome.integration = integrate_const(stepper, *instance.system, y, outcome.interval.t0,
                                            outcome.interval.t_end, settings.step,
                                            watch(*instance.system, *outcome.audit));
    } else {
      outcome.integration = integrate_const(stepper, *instance.system, y, outcome.interval.t0,
                                            outcome.interval.t_end, settings.step);
    }
  } catch (const energy_audit::Error& e) {
    outcome.error = e.what();
    if (outcome.audit && outcome.audit->accepted_steps() > 0) {  // keep what was done
      outcome.integration.steps = outcome.audit->accepted_steps() - 1;
      outcome.integration.t_reached = outcome.audit->last_row().front();
    }
  }
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

}  // namespace energy_audit::cli
