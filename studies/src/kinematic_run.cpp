#include <energy_audit/studies/kinematic_run.hpp>

#include <algorithm>

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
  if (check_setup) check_setup(setup, settings.options);
  const Method& method = settings.method;
  std::vector<std::string> adaptive, usable;
  for (const Method& m : methods) {
    usable.push_back(m.name);
    if (m.adaptive()) adaptive.push_back(m.name);
  }
  if (method.runs_only_multiplier_models()) {
    throw SettingsError(settings.options.method + ": model " + name + " is kinematic (q' = w(q, t)); " + method.name +
                        " runs multiplier models: use a fixed-step method" +
                        (adaptive.empty() ? std::string() : " or " + join(adaptive)));
  }
  if (method.partitioned || std::find(usable.begin(), usable.end(), method.name) == usable.end()) {
    if (usable.empty()) {
      throw SettingsError(settings.options.method + ": model " + name + " lists no methods (KinematicEntry::methods)");
    }
    std::string choices = usable.back();
    if (usable.size() > 1) {
      choices = join(std::vector<std::string>(usable.begin(), usable.end() - 1)) + " or " + choices;
    }
    const std::string why = method.partitioned ? " updates velocities and positions apart" : " is not among its methods";
    throw SettingsError(settings.options.method + ": model " + name + " is kinematic (q' = w(q, t), no velocities); " +
                        method.name + why + ": use " + choices);
  }
  const double t_end = settings.t_end.value_or(interval.t_end);
  if (!(t_end > interval.t0)) {
    throw SettingsError(settings.options("t-end") + ": " + std::to_string(t_end) + " must be after the start, t = " + std::to_string(interval.t0));
  }
  if (!method.adaptive()) check_fixed_step(settings.options, settings.step, {interval.t0, t_end});
}

}  // namespace energy_audit::studies
