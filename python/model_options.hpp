#pragma once
/// \file
/// The options of an audited model's runs that `run` and the studies (compare, sweep, advise)
/// share, as keyword arguments: the model's form and interval, the audit's thresholds, the
/// stabilization and the adaptive methods' options. One left out (None) is absent and the
/// command line's default applies, so that one given where it has no effect is refused as on
/// the command line, in Python's names (OptionNames::keyword_arguments()).

#include <pybind11/pybind11.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::python {

struct ModelOptions {
  std::optional<double> atol;
  std::optional<long> max_steps;
  std::optional<std::string> z_as, iteration;
  std::optional<double> initial_step, max_step, t_end;
  std::optional<std::string> form;
  std::vector<std::string> independent;
  double threshold = 1e-3;
  std::optional<double> drift_threshold;
  std::string stabilize = "none";
  std::optional<std::pair<double, double>> baumgarte;
  std::optional<std::string> phase;
  std::optional<std::size_t> equation_check_every;  ///< 0: never
  std::optional<double> equation_threshold;

  /// The options among a study's keyword arguments; `threshold` is one of them when
  /// `with_threshold` (advise judges by its target instead). TypeError for another keyword or
  /// a value of the wrong type, naming `function` and the keyword.
  static ModelOptions from_keywords(const pybind11::kwargs& keywords, const char* function, bool with_threshold);

  /// Sets these options on `settings` and notes the ones given (settings.given, by the command
  /// line's names); SettingsError for a choice that is none of its names.
  void apply_to(studies::RunSettings& settings) const;
};

/// A front end's (name, value) choices (studies::form_choices, ...) keyed by name.
template <class Enum>
std::map<std::string, Enum> choices_by_name(const std::vector<std::pair<std::string, Enum>>& choices) {
  return {choices.begin(), choices.end()};
}

/// The value of `choices` named `text`; SettingsError naming the argument otherwise (the names
/// listed in alphabetical order).
template <class Enum>
Enum choose(const char* argument, const std::string& text, const std::map<std::string, Enum>& choices) {
  const auto found = choices.find(text);
  if (found != choices.end()) return found->second;
  std::string names;
  for (const auto& [name, value] : choices) names += (names.empty() ? "" : ", ") + name;
  throw studies::SettingsError(std::string(argument) + ": '" + text + "' is none of " + names);
}

/// {name: value} as the studies' assignments, in the order of the names.
std::vector<studies::Assignment> assignments(const std::map<std::string, double>& values);

}  // namespace energy_audit::python
