#include "option_groups.hpp"

#include <limits>

#include <energy_audit/studies/adaptive_setting_names.hpp>
#include <energy_audit/studies/methods.hpp>

#include "example_models.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {

void refuse_if_given(const CLI::Option* option, const std::string& why) {
  if (option->count() > 0) throw UsageError(option->get_name() + ": " + why);
}

std::set<std::string> given_options(const CLI::App& command) {
  std::set<std::string> given;
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() > 0 && name.starts_with("--")) given.insert(name.substr(2));
  }
  return given;
}

void ProgressOptions::add_to(CLI::App& command) {
  CLI::Option* quiet_option = command.add_flag("--quiet", quiet, "no progress line on stderr");
  command.add_flag("--progress", forced, "the progress line on stderr even when it is not a terminal")
      ->excludes(quiet_option);
}

std::string comma_separated(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

std::vector<std::string> all_model_names() {
  std::vector<std::string> names = model_names();
  for (const KinematicEntry& entry : kinematic_registry()) names.push_back(entry.name);
  return names;
}

std::vector<std::string> method_names() {
  return studies::method_names(examples::methods());
}

std::string methods_with(bool Method::*property) {
  std::vector<std::string> names;
  for (const Method& method : examples::methods()) {
    if (method.*property) names.push_back(method.name);
  }
  return join(names);
}

CLI::Validator known_method() {
  return CLI::Validator(
      [known = one_of(method_names())](std::string& text) {
        const std::string why = examples::unavailable_method(text);
        return why.empty() ? known(text) : why;
      },
      "");
}

void CommonOptions::add_to(CLI::App& command) {
  app = &command;
  command.add_option("MODEL", model, "model name (see `energy-audit list`)")->required()->check(one_of(all_model_names()));
  form_option = command.add_option("--form", form,
                                   "formulation: " + studies::form_names_by_model_kind() +
                                       "; default: the model's first (see `energy-audit list`)")
                    ->transform(choice(studies::form_choices()));
  command.add_option("--independent", independent,
                     "--form maggi: the independent velocities, comma-separated coordinate names "
                     "(default: the model's)")
      ->delimiter(',')
      ->type_name("NAMES");
  t_end_option = command.add_option("--t-end", t_end, "end of the interval (default: the model's)")
                     ->check(finite_number());
  command.add_option("--set", sets, "set a model parameter, NAME=VALUE (repeatable)")
      ->check(assignment())->take_all()->type_name("NAME=VALUE");
  command.add_option("--init", inits, "set an initial value, NAME=VALUE (repeatable)")
      ->check(assignment())->take_all()->type_name("NAME=VALUE");
  threshold_option = command.add_option("--threshold", threshold, "pass when delta_C <= X")
                         ->check(non_negative_number())->capture_default_str();
  drift_threshold_option =
      command.add_option("--drift-threshold", drift_threshold,
                         "multiplier models: pass when max |Phi| and max |G v + g| are <= X, in the constraints' units")
          ->check(non_negative_number())->capture_default_str();
  command.add_option("--stabilize", stabilize,
                     "multiplier models: " + studies::names_joined(studies::stabilization_names, "|") +
                         " (ggl on " + methods_with(&Method::takes_residual_form) + " only)")
      ->transform(choice(studies::stabilization_choices()))
      ->default_str("none");
  phase_option = command.add_option("--phase", phase,
                                    "models with an excitation in pieces (container-line): " +
                                        studies::names_joined(studies::phase_names, "|") +
                                        ", the piece each stage of a fixed step takes (default: right)")
                     ->transform(choice(studies::phase_choices()));
  command.add_option("--baumgarte", baumgarte, "Baumgarte ALPHA,BETA [1/s] for --stabilize baumgarte")
      ->delimiter(',')->check(non_negative_number())->type_name("ALPHA,BETA")->default_str("5,5");
  no_equation_check_option = command.add_flag(
      "--no-equation-check", no_equation_check,
      "models with hand-derived accelerations: do not check them against Lagrange's equations of T, V, f");
  equation_check_every_option =
      command.add_option("--equation-check-every", equation_check_every,
                         "check the equations at the first two states and every K-th step (1: every step)")
          ->check(positive_count(std::numeric_limits<std::size_t>::max()))->capture_default_str();
  equation_threshold_option =
      command.add_option("--equation-threshold", equation_threshold,
                         "pass when the equations' relative residual is <= X")
          ->check(non_negative_number())->capture_default_str();
  fail_on_verdict_option = command.add_flag("--fail-on-verdict", fail_on_verdict, "exit 3 when a verdict is not pass");
}

RunSettings CommonOptions::settings() const {
  RunSettings r;
  r.models_with_constraints = multiplier_model_names();
  if (form_option->count() > 0) r.form = form;
  r.independent = independent;
  if (t_end_option->count() > 0) r.t_end = t_end;
  if (phase_option->count() > 0) r.phase = phase;
  r.audit.threshold = threshold;
  r.audit.drift_threshold = drift_threshold;
  r.audit.equation_check_every = no_equation_check ? 0 : equation_check_every;
  r.audit.equation_threshold = equation_threshold;
  r.stabilization = stabilize;
  r.baumgarte = {baumgarte[0], baumgarte[1]};
  r.given = given_options(*app);
  return r;
}

void CommonOptions::check_applicable(const ModelEntry& entry) const { check_model_options_apply(entry, settings()); }

void AdaptiveOptions::add_to(CLI::App& command, bool with_rtol) {
  app = &command;
  std::vector<std::string> adaptive_names;
  for (const Method& method : examples::methods()) {
    if (method.adaptive()) adaptive_names.push_back(method.name);
  }
  const std::string adaptive_methods = join(adaptive_names);
  if (with_rtol) {
    command.add_option("--rtol", rtol, "relative tolerance, < 1 (" + adaptive_methods + ")")
        ->check(positive_number())->capture_default_str();
  }
  command.add_option("--atol", atol, "absolute tolerance (" + adaptive_methods + ")")
      ->check(positive_number())->capture_default_str();
  command.add_option("--max-steps", max_steps, "adaptive methods: most internal steps for the whole run")
      ->check(positive_count(std::numeric_limits<long>::max()))->capture_default_str();
  command.add_option("--z-as", z_as,
                     "adaptive methods: Z in the state (a residual for " + methods_with(&Method::takes_residual_form) +
                         ") or as a quadrature (" + methods_with(&Method::carries_quadrature) +
                         "): " + studies::names_joined(studies::z_mode_names, "|"))
      ->transform(choice(studies::z_mode_choices()))
      ->default_str("state");
  command.add_option("--iteration", iteration,
                     methods_with(&Method::chooses_iteration) + ": nonlinear iteration " +
                         studies::names_joined(studies::iteration_names, "|"))
      ->transform(choice(studies::iteration_choices()))
      ->default_str("newton");
  command.add_option("--initial-step", initial_step, "adaptive methods: first step (0: the solver's estimate)")
      ->check(non_negative_number())->capture_default_str();
  command.add_option("--max-step", max_step, "adaptive methods: largest step (0: unbounded)")
      ->check(non_negative_number())->capture_default_str();
}

studies::AdaptiveSettings AdaptiveOptions::options() const {
  studies::AdaptiveSettings o;
  o.rtol = rtol;
  o.atol = atol;
  o.max_steps = max_steps;
  o.z_mode = z_as;
  o.iteration = iteration;
  o.initial_step = initial_step;
  o.max_step = max_step;
  return o;
}

void AdaptiveOptions::check_applicable(const MethodsUsed& methods, bool at_given_step) const {
  check_method_options_apply(given_options(*app), OptionNames{}, methods, examples::methods(), at_given_step);
}

}  // namespace energy_audit::cli
