#pragma once
/// \file
/// The methods the example models run: the studies' fixed-step methods, then CVODES and IDAS from
/// the SUNDIALS plugin (EnergyAudit::studies_sundials), each a method family
/// (energy_audit/studies/method_family.hpp).

#include <string>
#include <vector>

#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/sundials/cvodes_methods.hpp>
#include <energy_audit/sundials/idas_methods.hpp>

namespace energy_audit::examples {

using ExampleMethodFamilies = studies::MethodFamilies<studies::FixedStepFamily, sun::CvodesMethods, sun::IdasMethods>;

/// Every method, fixed-step first, then cvode-bdf, cvode-adams and idas.
inline const std::vector<studies::Method>& methods() { return ExampleMethodFamilies::methods(); }
/// The method called `name`; throws SettingsError naming the known ones (`option` names the flag).
inline const studies::Method& find_method(const std::string& name, const char* option = "--method") {
  return ExampleMethodFamilies::find(name, option);
}

}  // namespace energy_audit::examples
