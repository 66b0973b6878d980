#include "kinematic_models.hpp"

#include <Eigen/Core>

#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/transverse_multiplier.hpp>
#include <energy_audit/studies/settings_error.hpp>

#include "ellipse.hpp"
#include "example_methods.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;
namespace {

/// The ellipse with --set c, k applied, and its start with --init x, y.
struct EllipseSetup {
  examples::Ellipse model;
  Eigen::Vector2d start{1.0, 0.0};
};

EllipseSetup ellipse_setup(const ModelSetup& setup, const OptionNames& names = {}) {
  EllipseSetup s;
  for (const Assignment& a : setup.parameters) {
    if (a.name == "c") {
      s.model.c = a.value;
    } else if (a.name == "k") {
      s.model.k = a.value;
    } else {
      throw SettingsError(names("set") + ": model ellipse has no parameter '" + a.name + "' (parameters: c, k)");
    }
  }
  for (const Assignment& a : setup.initial_values) {
    if (a.name == "x") {
      s.start[0] = a.value;
    } else if (a.name == "y") {
      s.start[1] = a.value;
    } else {
      throw SettingsError(names("init") + ": model ellipse has no initial value '" + a.name + "' (initial values: x, y)");
    }
  }
  return s;
}

KinematicOutcome run_ellipse(const ModelSetup& setup, const KinematicSettings& settings) {
  const EllipseSetup s = ellipse_setup(setup);
  KinematicOutcome outcome;
  outcome.model = "ellipse";
  outcome.interval = {0.0, settings.t_end.value_or(20.0)};
  outcome.parameters = {{"c", s.model.c}, {"k", s.model.k}};
  outcome.initial_values = {{"x", s.start[0]}, {"y", s.start[1]}};
  outcome.coordinate_names = {"x", "y"};
  return run_kinematic<ExampleMethodFamilies>(s.model, s.start, std::move(outcome), settings);
}

}  // namespace

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
    ellipse.methods = kinematic_methods<ExampleMethodFamilies>();
    ellipse.check_setup = [](const ModelSetup& setup, const OptionNames& names) { ellipse_setup(setup, names); };
    ellipse.run = run_ellipse;
    ellipse.linear_interval = [](const ModelSetup& setup, const Method& method, double tau) {
      const EllipseSetup s = ellipse_setup(setup);
      const StabilityPolynomial R = stability_polynomial(method);
      return LinearInterval{R.real_stability_limit() / tau, -R.rotation_growth(s.model.rotation_rate() * tau) / tau};
    };
    ellipse.transverse_multiplier = [](const ModelSetup& setup, const Method& method, double tau, int points) {
      const EllipseSetup s = ellipse_setup(setup);
      const KinematicSystem<examples::Ellipse> system(s.model);
      FixedStepper stepper(FixedStepFamily::fixed_step_method(method));
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

}  // namespace energy_audit::examples
