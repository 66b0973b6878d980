#pragma once
/// \file
/// The methods the example models run: the studies' fixed-step methods, then the SUNDIALS
/// families of this build (CVODES, IDAS, and ARKODE where the SUNDIALS found has it), each a
/// method family (energy_audit/studies/method_family.hpp). What only some methods take (a Butcher
/// table, relaxation, a given step) is each family's to check.

#include <string>
#include <vector>

#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/sundials/sundials_families.hpp>

namespace energy_audit::examples {

using ExampleMethodFamilies = sun::WithSundialsFamilies<studies::FixedStepFamily>;

/// Every method, fixed-step first, then cvode-bdf, cvode-adams and idas, then arkode-erk and
/// arkode-dirk where ARKODE was found, and arkode-sprk with SUNDIALS 7.
inline const std::vector<studies::Method>& methods() { return ExampleMethodFamilies::methods(); }

/// Why energy-audit, as built, does not offer the method called `name` that a family knows of.
/// Empty for any other name.
inline std::string unavailable_method(const std::string& name) { return ExampleMethodFamilies::unavailable(name); }

/// The method called `name`; throws SettingsError naming the known ones, or saying why a method
/// energy-audit knows of is not offered (`option` names the flag).
inline const studies::Method& find_method(const std::string& name, const char* option = "--method") {
  if (const std::string why = unavailable_method(name); !why.empty()) throw studies::SettingsError(option + (": " + why));
  return ExampleMethodFamilies::find(name, option);
}

/// `method` as it runs with a step given (MethodFamilies::at_fixed_step).
inline studies::Method method_at_fixed_step(const studies::Method& method, const std::string& table, bool relax = false) {
  return ExampleMethodFamilies::at_fixed_step(method, table, relax);
}

/// What --table and --relax mean for the methods that take them (MethodFamilies::table_help,
/// relax_help): for help.
inline std::string table_help() { return ExampleMethodFamilies::table_help(); }
inline std::string relax_help() { return ExampleMethodFamilies::relax_help(); }

/// Refuses a table (`option`) that `method` cannot take (MethodFamilies::check_table); an empty
/// table is the method's default.
inline void check_table(const studies::Method& method, const std::string& table, bool adaptive,
                        const std::string& option = "--table") {
  ExampleMethodFamilies::check_table(method, table, adaptive, option);
}

/// Refuses relaxation (`option`) where `method` has none (MethodFamilies::check_relax).
inline void check_relax(const studies::Method& method, const std::string& table, bool relax,
                        const std::string& option = "--relax", const std::string& table_option = "--table") {
  ExampleMethodFamilies::check_relax(method, table, relax, option, table_option);
}

}  // namespace energy_audit::examples
