#pragma once
/// \file
/// The methods the example models run: the studies' fixed-step methods, then CVODES and IDAS from
/// the SUNDIALS plugin (EnergyAudit::studies_sundials), and ARKODE where the SUNDIALS found has
/// it (EnergyAudit::arkode), each a method family (energy_audit/studies/method_family.hpp).

#include <string>
#include <vector>

#include <sundials/sundials_config.h>

#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/sundials/cvodes_methods.hpp>
#include <energy_audit/sundials/idas_methods.hpp>
#ifdef ENERGY_AUDIT_WITH_ARKODE
#include <energy_audit/sundials/arkode_methods.hpp>
#endif

namespace energy_audit::examples {

#ifdef ENERGY_AUDIT_WITH_ARKODE
using ExampleMethodFamilies =
    studies::MethodFamilies<studies::FixedStepFamily, sun::CvodesMethods, sun::IdasMethods, sun::ArkodeMethods>;
#else
using ExampleMethodFamilies = studies::MethodFamilies<studies::FixedStepFamily, sun::CvodesMethods, sun::IdasMethods>;
#endif

/// Every method, fixed-step first, then cvode-bdf, cvode-adams and idas, then arkode-erk and
/// arkode-dirk where ARKODE was found, and arkode-sprk with SUNDIALS 7.
inline const std::vector<studies::Method>& methods() { return ExampleMethodFamilies::methods(); }

/// Why energy-audit, as built, does not offer the method called `name` that it knows of: the
/// ARKODE methods without ARKODE, arkode-sprk where ARKODE has no SPRKStep for it (the plugin's
/// arkode_sprk_problem). Empty for any other name.
inline std::string unavailable_method(const std::string& name) {
#ifdef ENERGY_AUDIT_WITH_ARKODE
  if (name == "arkode-sprk" && !sun::arkode_has_sprk) return sun::arkode_sprk_problem();
#else
  if (name == "arkode-erk" || name == "arkode-dirk" || name == "arkode-sprk") {
    return name + " needs ARKODE, which the SUNDIALS found (" SUNDIALS_VERSION ") does not have";
  }
#endif
  return {};
}

/// The method called `name`; throws SettingsError naming the known ones, or saying why a method
/// energy-audit knows of is not offered (`option` names the flag).
inline const studies::Method& find_method(const std::string& name, const char* option = "--method") {
  if (const std::string why = unavailable_method(name); !why.empty()) throw studies::SettingsError(option + (": " + why));
  return ExampleMethodFamilies::find(name, option);
}

/// `method` as it runs with `step` given: the fixed-step variant of an adaptive method that takes
/// a fixed step (Method::takes_fixed_step), of the order of its Butcher table `table` (arkode-erk,
/// arkode-dirk; empty: its default, or with `relax` its relaxation default), arkode-sprk of the
/// order of its method `table`; any other method as it is.
inline studies::Method method_at_fixed_step(const studies::Method& method, [[maybe_unused]] const std::string& table,
                                            [[maybe_unused]] bool relax = false) {
#ifdef ENERGY_AUDIT_WITH_ARKODE
  if ((method.takes_fixed_step || method.needs_separable_model) && studies::belongs_to<sun::ArkodeMethods>(method)) {
    return sun::ArkodeMethods::at_fixed_step(method, table, relax);
  }
#endif
  return method;
}

/// Refuses a Butcher table (`option`) for a method other than the ARKODE methods, one
/// ARKODE does not have for the method (naming its tables), and for adaptive steps one without an
/// embedded method; throws SettingsError. An empty table: the method's default.
inline void check_table([[maybe_unused]] const studies::Method& method, const std::string& table,
                        [[maybe_unused]] bool adaptive, const std::string& option = "--table") {
  if (table.empty()) return;
#ifdef ENERGY_AUDIT_WITH_ARKODE
  sun::ArkodeMethods::check_table(method, table, adaptive, option);
#else
  throw studies::SettingsError(option + ": applies to arkode-erk and arkode-dirk only, which need ARKODE");
#endif
}

/// Refuses relaxation (`option`) where SUNDIALS has none (below 6.6, naming the version found),
/// for a method other than arkode-erk and arkode-dirk, and with a Butcher table (`table`, given
/// as `table_option`) that relaxation cannot take; throws SettingsError.
inline void check_relax([[maybe_unused]] const studies::Method& method, [[maybe_unused]] const std::string& table,
                        bool relax, const std::string& option = "--relax",
                        [[maybe_unused]] const std::string& table_option = "--table") {
  if (!relax) return;
#ifdef ENERGY_AUDIT_WITH_ARKODE
  sun::ArkodeMethods::check_relax(method, table, option, table_option);
#else
  throw studies::SettingsError(option + ": applies to arkode-erk and arkode-dirk only, which need ARKODE");
#endif
}

}  // namespace energy_audit::examples
