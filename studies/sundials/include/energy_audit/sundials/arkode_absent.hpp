#pragma once
/// \file
/// ARKODE's place among the method families where the SUNDIALS found has no ARKODE: a family
/// without methods that says why its methods, their tables and relaxation are not offered.

#include <string>
#include <vector>

#include <sundials/sundials_config.h>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::sun {

struct ArkodeAbsent {
  static constexpr const char* name = "arkode";
  using offers_no_methods = void;

  static const std::vector<studies::Method>& methods() {
    static const std::vector<studies::Method> none;
    return none;
  }

  /// Why ARKODE's methods are not offered; empty for any other name.
  static std::string unavailable(const std::string& method_name) {
    if (method_name != "arkode-erk" && method_name != "arkode-dirk" && method_name != "arkode-sprk") return {};
    return method_name + " needs ARKODE, which the SUNDIALS found (" SUNDIALS_VERSION ") does not have";
  }

  static std::string table_help() { return "arkode-erk, arkode-dirk, which need ARKODE: a Butcher table"; }
  static std::string relax_help() { return "arkode-erk, arkode-dirk, which need ARKODE: ARKODE's relaxation"; }

  static void check_table(const studies::Method&, const std::string&, bool, const std::string& option) {
    throw studies::SettingsError(option + ": " + only_with_arkode);
  }

  static void check_relax(const studies::Method&, const std::string&, const std::string& option, const std::string&) {
    throw studies::SettingsError(option + ": " + only_with_arkode);
  }

 private:
  static constexpr const char* only_with_arkode = "applies to arkode-erk and arkode-dirk only, which need ARKODE";
};

}  // namespace energy_audit::sun
