#include "model_options.hpp"

#include <pybind11/stl.h>

#include <set>

#include <energy_audit/studies/adaptive_setting_names.hpp>

#include "model_registry.hpp"

namespace energy_audit::python {

namespace py = pybind11;
namespace studies = energy_audit::studies;

namespace {

/// Casts the keyword `name`'s value to T, leaving `field` absent for None; TypeError otherwise.
template <class T, class Field>
void take(const py::kwargs& keywords, const char* function, const char* name, const char* what, Field& field) {
  if (!keywords.contains(name)) return;
  const py::handle value = keywords[name];
  if (value.is_none()) return;
  try {
    field = value.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(function) + "(): " + name + " must be " + what + ", not " +
                         std::string(py::str(value.get_type().attr("__name__"))));
  }
}

}  // namespace

ModelOptions ModelOptions::from_keywords(const py::kwargs& keywords, const char* function, bool with_threshold) {
  std::set<std::string> known{"atol",      "max_steps", "z_as",      "iteration",       "initial_step",
                              "max_step",  "t_end",     "form",      "independent",     "drift_threshold",
                              "stabilize", "baumgarte", "phase",     "equation_check_every", "equation_threshold"};
  if (with_threshold) known.insert("threshold");
  for (const auto& [key, value] : keywords) {
    const std::string name = py::str(key);
    if (!known.contains(name)) {
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" + name + "'");
    }
  }
  ModelOptions o;
  take<double>(keywords, function, "atol", "a number", o.atol);
  take<long>(keywords, function, "max_steps", "an integer", o.max_steps);
  take<std::string>(keywords, function, "z_as", "a str", o.z_as);
  take<std::string>(keywords, function, "iteration", "a str", o.iteration);
  take<double>(keywords, function, "initial_step", "a number", o.initial_step);
  take<double>(keywords, function, "max_step", "a number", o.max_step);
  take<double>(keywords, function, "t_end", "a number", o.t_end);
  take<std::string>(keywords, function, "form", "a str", o.form);
  take<std::vector<std::string>>(keywords, function, "independent", "a list of str", o.independent);
  take<double>(keywords, function, "threshold", "a number", o.threshold);
  take<double>(keywords, function, "drift_threshold", "a number", o.drift_threshold);
  take<std::string>(keywords, function, "stabilize", "a str", o.stabilize);
  take<std::pair<double, double>>(keywords, function, "baumgarte", "a pair (alpha, beta)", o.baumgarte);
  take<std::string>(keywords, function, "phase", "a str", o.phase);
  take<std::size_t>(keywords, function, "equation_check_every", "an integer >= 0", o.equation_check_every);
  take<double>(keywords, function, "equation_threshold", "a number", o.equation_threshold);
  return o;
}

void ModelOptions::apply_to(studies::RunSettings& settings) const {
  settings.models_with_constraints = examples::multiplier_model_names();
  // Takes an option that was given, and notes it under the command line's name.
  const auto take_given = [&settings](const char* name, const auto& option, auto& field) {
    if (!option) return;
    settings.given.insert(name);
    field = *option;
  };
  take_given("atol", atol, settings.adaptive.atol);
  take_given("max-steps", max_steps, settings.adaptive.max_steps);
  take_given("initial-step", initial_step, settings.adaptive.initial_step);
  take_given("max-step", max_step, settings.adaptive.max_step);
  take_given("drift-threshold", drift_threshold, settings.audit.drift_threshold);
  take_given("equation-check-every", equation_check_every, settings.audit.equation_check_every);
  take_given("equation-threshold", equation_threshold, settings.audit.equation_threshold);
  if (z_as) {
    settings.given.insert("z-as");
    settings.adaptive.z_mode =
        choose("z_as", *z_as, choices_by_name(studies::z_mode_choices()));
  }
  if (iteration) {
    settings.given.insert("iteration");
    settings.adaptive.iteration = choose("iteration", *iteration, choices_by_name(studies::iteration_choices()));
  }
  if (baumgarte) {
    settings.given.insert("baumgarte");
    settings.baumgarte = {baumgarte->first, baumgarte->second};
  }
  settings.t_end = t_end;
  settings.independent = independent;
  settings.audit.threshold = threshold;
  if (phase) {
    settings.phase =
        choose("phase", *phase, choices_by_name(studies::phase_choices()));
  }
  if (form) {
    settings.form = choose("form", *form, choices_by_name(studies::form_choices()));
  }
  settings.stabilization = choose("stabilize", stabilize, choices_by_name(studies::stabilization_choices()));
}

std::vector<studies::Assignment> assignments(const std::map<std::string, double>& values) {
  std::vector<studies::Assignment> list;
  for (const auto& [name, value] : values) list.emplace_back(name, value);
  return list;
}

}  // namespace energy_audit::python
