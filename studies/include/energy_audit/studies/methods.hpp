#pragma once
/// \file
/// Every integration method the studies offer: the native fixed-step ones and the
/// adaptive SUNDIALS ones. A method is one entry: its name, its stepper or solver, and what the
/// studies ask of it (its order, its stability polynomial, the options it takes).

#include <optional>
#include <string>
#include <vector>

#include <energy_audit/stability_polynomial.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/sundials/cvodes_options.hpp>

namespace energy_audit::studies {

enum class MethodKind { FixedStep, Cvodes, Idas };

struct Method {
  std::string name;
  std::string description;
  MethodKind kind = MethodKind::FixedStep;
  FixedStepMethod fixed_step = FixedStepMethod::of<methods::Rk4>();  ///< for the native fixed-step methods
  sun::Multistep multistep = sun::Multistep::Bdf;     ///< for the CVODES methods
  int order = 0;  ///< of the global error in h, for the fixed-step methods (0: an adaptive method)
  /// R(z) of an explicit Runge–Kutta method, from its tableau (the stability map's linear
  /// theory); absent for the other methods.
  std::optional<StabilityPolynomial> stability;
  /// Whether the choice of the nonlinear iteration (Newton or fixed point) applies: cvode-adams.
  bool chooses_iteration = false;

  bool adaptive() const { return kind != MethodKind::FixedStep; }
  /// IDAS needs a residual (multiplier) model; the other methods run every model.
  bool runs_only_multiplier_models() const { return kind == MethodKind::Idas; }
};

/// Fixed-step methods first, then cvode-bdf, cvode-adams and idas.
const std::vector<Method>& all_methods();
/// The fixed-step methods' names, in the list's order: compare's default --methods.
std::vector<std::string> fixed_step_method_names();
/// The names of the methods with a stability polynomial, in the list's order: those a stability
/// map runs.
std::vector<std::string> stability_method_names();
/// The method called `name`; throws SettingsError naming the known ones (`option` names the flag).
const Method& find_method(const std::string& name, const char* option = "--method");

}  // namespace energy_audit::studies
