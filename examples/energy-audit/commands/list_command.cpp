#include "list_command.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <energy_audit/studies/methods.hpp>

#include "example_models.hpp"

namespace energy_audit::cli {
namespace {

/// `list`: the models (audited and kinematic) and the methods, one name column for both.
int list_command() {
  // One name column for models and methods, as wide as the longest name.
  int width = 0;
  for (const ModelEntry& model : model_registry()) width = std::max(width, static_cast<int>(model.name.size()));
  for (const Method& m : examples::methods()) width = std::max(width, static_cast<int>(m.name.size()));
  std::printf("Models (forms: the default first; own: the form runs the model's own hand-derived equations, which "
              "the equation check measures; derived: the form derives its equations from T, V and f):\n");
  for (const ModelEntry& model : model_registry()) {
    std::vector<std::string> forms;
    for (const Form f : model.forms) {
      forms.emplace_back(std::string(form_name(f)) + (model.checks_equations(f) ? " (own)" : " (derived)"));
    }
    std::printf("  %-*s %s; forms: %s\n", width, model.name.c_str(), model.description.c_str(), join(forms).c_str());
  }
  std::printf("\nKinematic models (q' = w(q, t), audited by their constraint drift; run, stability):\n");
  for (const KinematicEntry& model : kinematic_registry()) {
    std::printf("  %-*s %s\n", width, model.name.c_str(), model.description.c_str());
  }
  const std::string multiplier_models = join(multiplier_model_names());
  std::vector<std::string> separable;
  for (const ModelEntry& model : model_registry()) {
    if (model.separable) separable.push_back(model.name);
  }
  const std::string separable_models = join(separable) + " (separable; lagrange and hamilton forms)";
  std::printf("\nMethods (fixed step: --step; adaptive: --rtol, --atol):\n");
  std::vector<std::string> residual_form;
  for (const Method& m : examples::methods()) {
    const std::string runs = m.runs_only_multiplier_models() ? multiplier_models
                             : m.needs_separable_model       ? separable_models
                             : m.partitioned                 ? "all models but the kinematic ones"
                                                             : "all models";
    std::printf("  %-*s %s; runs: %s\n", width, m.name.c_str(), m.description.c_str(), runs.c_str());
    if (m.takes_residual_form) residual_form.push_back(m.name);
  }
  std::printf("\nMultiplier models take --stabilize none|baumgarte (every method) or ggl (%s).\n",
              join(residual_form).c_str());
  return exit_finished;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("list", "list the models and the methods");
  return {command, [](const MpiSession&) { return list_command(); }, false};
}

}  // namespace energy_audit::cli
