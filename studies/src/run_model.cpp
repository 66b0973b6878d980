#include <energy_audit/studies/run_model.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <sstream>
#include <utility>

#include <energy_audit/error.hpp>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

std::string OptionNames::operator()(std::string_view name) const {
  std::string spelled(name);
  if (!keywords) return "--" + spelled;
  std::replace(spelled.begin(), spelled.end(), '-', '_');
  return spelled;
}

ExtraOutputRecord::ExtraOutputRecord(std::vector<std::string> output_names)
    : names(std::move(output_names)),
      initial(names.size()),
      last(names.size()),
      max_abs_change(names.size(), 0.0) {}

void ExtraOutputRecord::observe(std::span<const double> values) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (states == 0) initial[k] = values[k];
    last[k] = values[k];
    // A NaN compares false: a non-finite value makes the change +inf for good.
    const double change = std::abs(values[k] - initial[k]);
    if (!(change <= max_abs_change[k])) {
      max_abs_change[k] = std::isnan(change) ? std::numeric_limits<double>::infinity() : change;
    }
  }
  ++states;
}

std::string RunOutcome::verdict() const {
  if (end != RunEnd::Finished) return run_end_name(end);
  return audit ? verdict_name(audit->verdict()) : "unaudited";
}

std::string RunOutcome::stop_description() const {
  std::ostringstream text;
  switch (end) {
    case RunEnd::Diverged: text << "diverged at t = " << t_diverged << " (last finite state at t = " << t_reached << ")"; break;
    case RunEnd::Interrupted: text << "interrupted at t = " << t_reached; break;
    case RunEnd::Error: text << "error: " << error; break;
    case RunEnd::Finished: break;
  }
  return text.str();
}

namespace {

void check_method_fits_model(const ModelEntry& model, const RunSettings& settings) {
  const std::string& method = settings.method.name;
  if (std::none_of(model.methods.begin(), model.methods.end(), [&](const Method& m) { return m.name == method; })) {
    throw SettingsError(settings.options.method + ": model " + model.name + " does not run " + method + " (it runs: " +
                        join(method_names(model.methods)) + ")");
  }
  if (settings.method.runs_only_multiplier_models() && !model.has_multipliers()) {
    const std::vector<std::string>& models = settings.models_with_constraints;
    throw SettingsError(settings.options.method + ": " + method + " cannot run model " + model.name +
                        ", which has no constraints (" + method +
                        (models.empty() ? " runs models with constraints)" : " runs: " + join(models) + ")"));
  }
  if (settings.method.needs_separable_model) {
    const Form form = settings.form.value_or(model.forms.front());
    if (!model.separable) {
      throw SettingsError(settings.options.method + ": " + method + " needs a separable model (T of the velocities "
                          "alone with a constant mass matrix, forces free of the velocities); model " + model.name +
                          " is not declared separable");
    }
    if (form != Form::Lagrange && form != Form::Hamilton) {
      throw SettingsError(settings.options.method + ": " + method + " integrates Lagrange's or Hamilton's form, not " +
                          form_name(form));
    }
  }
  if (settings.stabilization == Stabilization::None) return;
  const OptionNames& names = settings.options;
  if (!model.has_multipliers()) {
    throw SettingsError(names("stabilize") + ": model " + model.name + " has no constraints to stabilize");
  }
  if (settings.stabilization == Stabilization::Ggl && !settings.method.takes_residual_form) {
    std::vector<std::string> residual;
    for (const Method& m : model.methods) {
      if (m.takes_residual_form) residual.push_back(m.name);
    }
    throw SettingsError(names("stabilize") + ": ggl is a residual form for " +
                        (residual.empty() ? "a method that integrates residuals (model " + model.name + " runs none)"
                                          : names("method") + " " + join(residual)) +
                        ", not for " + method);
  }
  const Baumgarte& b = settings.baumgarte;
  if (!(b.alpha >= 0) || !(b.beta >= 0)) throw SettingsError(names("baumgarte") + ": alpha and beta must be >= 0");
  // The stabilization adds 2 alpha psi + beta^2 Phi: both factors must be finite numbers.
  if (!std::isfinite(2 * b.alpha) || !std::isfinite(b.beta * b.beta)) {
    throw SettingsError(names("baumgarte") + ": " + to_text(b.alpha) + "," + to_text(b.beta) +
                        " makes the stabilization term 2 alpha psi + beta^2 Phi overflow (2 alpha = " +
                        to_text(2 * b.alpha) + ", beta^2 = " + to_text(b.beta * b.beta) + ")");
  }
}

/// Maggi's form needs n − m distinct coordinates as its independent velocities, and no
/// stabilization (v = S u + s keeps ψ = 0 by construction).
void check_independent_velocities(const ModelEntry& model, const RunSettings& settings) {
  const OptionNames& option = settings.options;
  const std::string independent = option("independent");
  if (form_of(model, settings) != Form::Maggi) {
    if (!settings.independent.empty()) throw SettingsError(independent + ": applies to " + option("form") + " maggi only");
    return;
  }
  if (settings.stabilization != Stabilization::None) {
    throw SettingsError(option("stabilize") + ": " + stabilization_name(settings.stabilization) +
                        " applies to the multipliers form; Maggi's form keeps the velocity constraints exactly");
  }
  const std::vector<std::string>& names = independent_velocities_of(model, settings);
  const std::size_t wanted = model.coordinate_names.size() - model.multiplier_names.size();
  if (names.empty()) {
    throw SettingsError(independent + ": model " + model.name + " names no independent velocities; give " +
                        std::to_string(wanted) + " of " + join(model.coordinate_names));
  }
  if (names.size() != wanted) {
    throw SettingsError(independent + ": " + std::to_string(names.size()) + " given (" + join(names) + "); model " +
                        model.name + " needs " + std::to_string(wanted) + " (coordinates minus constraints) of " +
                        join(model.coordinate_names));
  }
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (std::find(model.coordinate_names.begin(), model.coordinate_names.end(), names[j]) == model.coordinate_names.end()) {
      throw SettingsError(independent + ": model " + model.name + " has no coordinate '" + names[j] + "' (it has: " +
                          join(model.coordinate_names) + ")");
    }
    if (std::find(names.begin(), names.begin() + static_cast<long>(j), names[j]) != names.begin() + static_cast<long>(j)) {
      throw SettingsError(independent + ": '" + names[j] + "' is named twice");
    }
  }
}

/// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return text;
}

/// Refuses a value of --set or --init that is not a finite number.
void check_finite(const std::vector<Assignment>& assignments, const std::string& option) {
  for (const Assignment& a : assignments) {
    if (!std::isfinite(a.value)) throw SettingsError(option + ": " + a.name + " = " + to_text(a.value) + " is not finite");
  }
}

}  // namespace

MethodsUsed methods_used(const Method& method) {
  return {!method.adaptive(), method.adaptive(), method.chooses_iteration, method.name};
}

MethodsUsed methods_used(const std::vector<Method>& methods, std::string names) {
  MethodsUsed used{false, false, false, std::move(names)};
  for (const Method& method : methods) {
    used.fixed_step = used.fixed_step || !method.adaptive();
    used.adaptive = used.adaptive || method.adaptive();
    used.adams = used.adams || method.chooses_iteration;
  }
  return used;
}

void check_lists_apply(const MethodsUsed& used, const OptionNames& names, bool steps_given, bool rtols_given) {
  if (!used.fixed_step && steps_given) {
    throw SettingsError(names.step + ": applies to the fixed-step methods, not to " + used.names);
  }
  if (!used.adaptive && rtols_given) {
    throw SettingsError(names.rtol + ": applies to the adaptive methods, not to " + used.names);
  }
}

std::vector<Method> methods_that_run(const ModelEntry& model, const ModelSetup& setup, const RunSettings& base) {
  std::vector<Method> methods;
  for (const Method& method : model.methods) {
    RunSettings trial = base;
    trial.method = method;
    try {
      check_settings(model, setup, trial);
      methods.push_back(method);
    } catch (const SettingsError&) {  // a method that does not run this model
    }
  }
  return methods;
}

void check_model_options_apply(const ModelEntry& model, const RunSettings& settings) {
  const OptionNames& option = settings.options;
  const auto refuse_if_given = [&](const char* name, const std::string& why) {
    if (settings.given.contains(name)) throw SettingsError(option(name) + ": " + why);
  };
  if (settings.stabilization != Stabilization::Baumgarte) {
    refuse_if_given("baumgarte", "applies with " + option("stabilize") + " baumgarte only");
  }
  if (!model.has_multipliers()) {
    refuse_if_given("drift-threshold", "model " + model.name + " has no constraints to drift");
  }
  const Form form = form_of(model, settings);
  if (!model.checks_equations(form)) {
    const std::string no_check =
        model.has_hand_accelerations
            ? std::string("in the ") + form_name(form) + " form the equations are derived from T, V and f: " +
                  "nothing hand-derived to check"
            : "model " + model.name +
                  " has no hand-derived accelerations to check (its accelerations come from T, V and f)";
    for (const char* name : {"no-equation-check", "equation-check-every", "equation-threshold"}) {
      refuse_if_given(name, no_check);
    }
  }
  if (settings.given.contains("no-equation-check")) {
    const std::string why = "has nothing to act on with " + option("no-equation-check");
    refuse_if_given("equation-check-every", why);
    refuse_if_given("equation-threshold", why);
  }
}

void check_method_options_apply(const std::set<std::string>& given, const OptionNames& names,
                                const MethodsUsed& methods, const std::vector<Method>& offered, bool at_given_step) {
  const auto offered_names = [&offered](bool (*applies)(const Method&)) {
    std::vector<std::string> list;
    for (const Method& method : offered) {
      if (applies(method)) list.push_back(method.name);
    }
    return list;
  };
  if (!methods.fixed_step && given.contains("step")) {
    const std::vector<std::string> also =
        at_given_step ? offered_names([](const Method& m) { return m.takes_fixed_step; }) : std::vector<std::string>();
    throw SettingsError(names.step + ": applies to the fixed-step methods" +
                        (also.empty() ? std::string() : " and to " + listed(also)) + ", not to " + methods.names +
                        " (it takes " + names.rtol + ")");
  }
  if (!methods.adaptive) {
    const std::vector<std::string> adaptive = offered_names([](const Method& m) { return m.adaptive(); });
    for (const char* name : {"rtol", "atol", "max-steps", "z-as", "iteration", "initial-step", "max-step"}) {
      if (given.contains(name)) {
        throw SettingsError(names(name) + ": applies to the adaptive methods" +
                            (adaptive.empty() ? std::string() : " " + listed(adaptive)) + ", not to " + methods.names);
      }
    }
  }
  if (!methods.adams && given.contains("iteration")) {
    const std::vector<std::string> iterating = offered_names([](const Method& m) { return m.chooses_iteration; });
    throw SettingsError(names("iteration") + ": applies to " +
                        (iterating.empty() ? std::string("the methods that choose their iteration") : listed(iterating)) +
                        " only, not to " + methods.names);
  }
}

bool runs_at_given_step(const Method& method, const std::set<std::string>& given, const OptionNames& names) {
  if (!method.adaptive() || !method.takes_fixed_step || !given.contains("step")) return false;
  for (const char* name : {"rtol", "atol", "max-steps", "initial-step", "max-step"}) {
    if (given.contains(name)) {
      throw SettingsError(names(name) + ": " + method.name + " at a fixed step (" + names.step + ") takes no " +
                          "tolerances or step bounds; leave out " + names.step + " for its adaptive steps");
    }
  }
  return true;
}

Form form_of(const ModelEntry& model, const RunSettings& settings) {
  return settings.form.value_or(model.forms.front());
}

const std::vector<std::string>& independent_velocities_of(const ModelEntry& model, const RunSettings& settings) {
  return settings.independent.empty() ? model.independent_velocities : settings.independent;
}

Interval check_settings(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings) {
  const OptionNames& option = settings.options;
  if (settings.form && std::find(model.forms.begin(), model.forms.end(), *settings.form) == model.forms.end()) {
    std::vector<std::string> names;
    for (const Form f : model.forms) names.emplace_back(form_name(f));
    throw SettingsError(option("form") + ": model " + model.name + " has no form " + form_name(*settings.form) +
                        " (its forms: " + join(names) + ")");
  }
  check_method_fits_model(model, settings);
  check_independent_velocities(model, settings);
  if (settings.relax) {
    const Form form = settings.form.value_or(model.forms.front());
    if (!model.has_energy_gradient || form == Form::Maggi) {
      throw SettingsError(option("relax") + ": relaxation needs H(y) without t: a scleronomic model's lagrange, "
                          "hamilton or multipliers form, not model " + model.name + " in form " + form_name(form));
    }
  }
  if (settings.phase && !model.has_phase) {
    throw SettingsError(option("phase") + ": model " + model.name + " has no excitation given in pieces");
  }
  if (settings.phase == PiecePhase::Midpoint && settings.method.adaptive()) {
    throw SettingsError(option("phase") + ": midpoint applies to the fixed-step methods; " + settings.method.name +
                        " stops and restarts at the jumps instead");
  }
  check_finite(setup.parameters, option("set"));
  check_finite(setup.initial_values, option("init"));
  model.check_setup(setup, option);
  Interval interval = model.interval;
  if (settings.t_end) {
    if (!std::isfinite(*settings.t_end) || !(*settings.t_end > interval.t0)) {
      throw SettingsError(option("t-end") + ": " + to_text(*settings.t_end) + " must be finite and > t0 = " +
                          to_text(interval.t0));
    }
    interval.t_end = *settings.t_end;
  }
  if (!(settings.audit.threshold >= 0) || !std::isfinite(settings.audit.threshold)) {
    throw SettingsError(option("threshold") + ": " + to_text(settings.audit.threshold) + " must be finite and >= 0");
  }
  if (!(settings.audit.drift_threshold >= 0) || !std::isfinite(settings.audit.drift_threshold)) {
    throw SettingsError(option("drift-threshold") + ": " + to_text(settings.audit.drift_threshold) +
                        " must be finite and >= 0");
  }
  if (!(settings.audit.equation_threshold >= 0) || !std::isfinite(settings.audit.equation_threshold)) {
    throw SettingsError(option("equation-threshold") + ": " + to_text(settings.audit.equation_threshold) +
                        " must be finite and >= 0");
  }
  const double span = interval.t_end - interval.t0;
  if (settings.method.interval_problem) {
    if (const std::string problem = settings.method.interval_problem(interval.t0, interval.t_end); !problem.empty()) {
      throw SettingsError(option("t-end") + ": " + problem);
    }
  }
  if (settings.method.adaptive()) {
    const AdaptiveSettings& o = settings.adaptive;
    const std::string& rtol = settings.options.rtol;
    if (!(o.rtol > 0) || !std::isfinite(o.rtol)) throw SettingsError(rtol + ": " + to_text(o.rtol) + " must be finite and > 0");
    // An error estimate of 1 or more relative to the state passes any step: the run would take
    // steps as large as max-step allows and report whatever they give.
    if (o.rtol >= 1) throw SettingsError(rtol + ": " + to_text(o.rtol) + " must be < 1 (a relative tolerance)");
    if (!(o.atol > 0) || !std::isfinite(o.atol)) {
      throw SettingsError(option("atol") + ": " + to_text(o.atol) + " must be finite and > 0");
    }
    if (!(o.max_steps > 0)) throw SettingsError(option("max-steps") + ": must be > 0");
    if (!(o.initial_step >= 0) || !std::isfinite(o.initial_step)) {
      throw SettingsError(option("initial-step") + ": " + to_text(o.initial_step) + " must be finite and >= 0");
    }
    if (!(o.max_step >= 0) || !std::isfinite(o.max_step)) {
      throw SettingsError(option("max-step") + ": " + to_text(o.max_step) + " must be finite and >= 0");
    }
    if (o.max_step > 0 && span / o.max_step > static_cast<double>(o.max_steps)) {
      throw SettingsError(option("max-step") + ": " + to_text(o.max_step) + " needs more than " + option("max-steps") +
                          " = " + std::to_string(o.max_steps) + " steps to cover [" + to_text(interval.t0) + ", " +
                          to_text(interval.t_end) + "]");
    }
    return interval;
  }
  check_fixed_step(settings.options, settings.step, interval);
  return interval;
}

void check_fixed_step(const OptionNames& options, double step, const Interval& interval) {
  const std::string& option = options.step;
  const double span = interval.t_end - interval.t0;
  if (!std::isfinite(step) || !(step > 0)) throw SettingsError(option + ": " + to_text(step) + " must be > 0");
  if (step > span) {
    throw SettingsError(option + ": " + to_text(step) + " is longer than the interval [" + to_text(interval.t0) +
                        ", " + to_text(interval.t_end) + "]");
  }
  const double steps = std::ceil(span / step);
  if (steps > max_fixed_steps) {
    throw SettingsError(option + ": " + to_text(step) + " gives " + to_text(steps) + " steps over [" +
                        to_text(interval.t0) + ", " + to_text(interval.t_end) + "], more than " +
                        to_text(max_fixed_steps) + "; take a larger step or a shorter " + options("t-end"));
  }
}

RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings) {
  RunOutcome outcome;
  outcome.model = model.name;
  outcome.form = form_of(model, settings);
  if (form_traits(outcome.form).second_half_names == SecondHalfNames::IndependentVelocities) {
    outcome.independent = independent_velocities_of(model, settings);
  }
  outcome.method = settings.method;
  outcome.step = settings.step;
  outcome.adaptive = settings.adaptive;
  outcome.stabilization = settings.stabilization;
  outcome.baumgarte = settings.baumgarte;
  outcome.interval = check_settings(model, setup, settings);
  outcome.t_reached = outcome.interval.t0;
  if (settings.audited) outcome.audit.emplace(settings.audit);

  const auto start = std::chrono::steady_clock::now();
  try {
    model.run(setup, settings, outcome);
  } catch (const std::exception& e) {  // building the system failed (a model's declaration, say)
    outcome.end = RunEnd::Error;
    outcome.error = e.what();
  }
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcome.audit) outcome.audit->flush_history();  // the rows not yet handed to the sink
  return outcome;
}

}  // namespace energy_audit::studies
