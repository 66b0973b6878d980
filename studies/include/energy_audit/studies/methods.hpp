#pragma once
/// \file
/// Every integration method the studies offer: the native fixed-step ones and the
/// adaptive SUNDIALS ones.

#include <optional>
#include <string>
#include <vector>

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

  bool adaptive() const { return kind != MethodKind::FixedStep; }
  /// IDAS needs a residual (multiplier) model; the other methods run every model.
  bool runs_only_multiplier_models() const { return kind == MethodKind::Idas; }
};

/// Fixed-step methods first, then cvode-bdf, cvode-adams and idas.
const std::vector<Method>& all_methods();
/// The fixed-step methods' names, in the list's order: compare's default --methods.
std::vector<std::string> fixed_step_method_names();
/// The method called `name`; throws SettingsError naming the known ones (`option` names the flag).
const Method& find_method(const std::string& name, const char* option = "--method");

}  // namespace energy_audit::studies
