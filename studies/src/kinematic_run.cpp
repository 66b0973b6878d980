#include <energy_audit/studies/kinematic_run.hpp>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

StabilityPolynomial stability_polynomial(const Method& method) {
  if (method.stability) return *method.stability;
  throw SettingsError("method " + method.name + " is not an explicit Runge-Kutta method: it has no stability polynomial");
}

std::string KinematicOutcome::verdict() const {
  if (end == RunEnd::Error || end == RunEnd::Interrupted) return run_end_name(end);
  return std::string(to_string(drift.verdict(transverse_multiplier)));
}

void KinematicEntry::check(const ModelSetup& setup, const KinematicSettings& settings) const {
  if (check_setup) check_setup(setup);
  const Method& method = settings.method;
  if (method.kind == MethodKind::Idas) {
    throw SettingsError(settings.options.method + ": model " + name +
                        " is kinematic (q' = w(q, t)); idas runs multiplier models: use a fixed-step method or cvode-bdf, "
                        "cvode-adams");
  }
  if (method.kind == MethodKind::FixedStep && method.fixed_step.info().partitioned) {
    throw SettingsError(settings.options.method + ": model " + name + " is kinematic (q' = w(q, t), no velocities); " +
                        method.name + " updates velocities and positions apart: use euler, rk2, rk3, rk4, rkg, cvode-bdf "
                        "or cvode-adams");
  }
  const double t_end = settings.t_end.value_or(interval.t_end);
  if (!(t_end > interval.t0)) {
    throw SettingsError("--t-end: " + std::to_string(t_end) + " must be after the start, t = " + std::to_string(interval.t0));
  }
  if (!method.adaptive()) check_fixed_step(settings.options, settings.step, {interval.t0, t_end});
}

}  // namespace energy_audit::studies
