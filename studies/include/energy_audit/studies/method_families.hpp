#pragma once
/// \file
/// The method families a model entry is compiled for (method_family.hpp): their methods, in the
/// families' order, and the run of any of them, dispatched to the family the method belongs to.

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

template <MethodFamily... Families>
struct MethodFamilies {
  /// Every family's methods, in the families' order.
  static const std::vector<Method>& methods() {
    static const std::vector<Method> list = [] {
      std::vector<Method> all;
      (all.insert(all.end(), Families::methods().begin(), Families::methods().end()), ...);
      return all;
    }();
    return list;
  }

  /// The method called `name`; throws SettingsError naming the known ones.
  static const Method& find(const std::string& name, const char* option = "--method") {
    return find_method(methods(), name, option);
  }

  /// Why this build does not offer the method called `name`, which a family knows of (a method
  /// of a solver the build lacks, or one its version does not have): the first answer of the
  /// families that say (`unavailable(name)`). Empty when none does.
  static std::string unavailable(const std::string& name) {
    std::string why;
    ((why.empty() ? void(why = unavailable_of<Families>(name)) : void()), ...);
    return why;
  }

  /// `method` as it runs with a step given: the fixed-step variant its family gives
  /// (`at_fixed_step(method, table, relax)`) of a method that takes a fixed step or always runs
  /// at one (Method::takes_fixed_step, needs_separable_model), of the order of its table `table`;
  /// any other method as it is.
  static Method at_fixed_step(const Method& method, const std::string& table, bool relax = false) {
    Method result = method;
    if (method.takes_fixed_step || method.needs_separable_model) {
      dispatch(method, [&](auto family) {
        using Family = decltype(family);
        if constexpr (requires { Family::at_fixed_step(method, table, relax); }) {
          result = Family::at_fixed_step(method, table, relax);
        }
      });
    }
    return result;
  }

  /// Refuses a table (`option`) that `method` cannot take: its family's check_table when it has
  /// one; for a method of a family without tables, the check of the first family that has one
  /// (which refuses a method not its own, naming its methods). Throws SettingsError; an empty
  /// table is every method's default.
  static void check_table(const Method& method, const std::string& table, bool adaptive, const std::string& option) {
    if (table.empty()) return;
    if (!owner_check(method, [&](auto family) {
          using Family = decltype(family);
          if constexpr (requires { Family::check_table(method, table, adaptive, option); }) {
            Family::check_table(method, table, adaptive, option);
            return true;
          }
          return false;
        })) {
      throw SettingsError(option + ": no method of this build takes a table, not " + method.name);
    }
  }

  /// Refuses relaxation (`option`) where `method` has none, as check_table does for tables.
  static void check_relax(const Method& method, const std::string& table, bool relax, const std::string& option,
                          const std::string& table_option) {
    if (!relax) return;
    if (!owner_check(method, [&](auto family) {
          using Family = decltype(family);
          if constexpr (requires { Family::check_relax(method, table, option, table_option); }) {
            Family::check_relax(method, table, option, table_option);
            return true;
          }
          return false;
        })) {
      throw SettingsError(option + ": no method of this build relaxes its steps, not " + method.name);
    }
  }

  /// What the families whose methods take a table (`table_help()`) say of it, for help; joined by
  /// "; ", empty when no family has tables.
  static std::string table_help() { return joined_help({table_help_of<Families>()...}); }

  /// What the families whose methods relax their steps (`relax_help()`) say of it, as table_help.
  static std::string relax_help() { return joined_help({relax_help_of<Families>()...}); }

  /// Calls run(family) with the family of `method`, as a value of that type (MethodFamily types
  /// are empty tags). Throws std::invalid_argument when none of the families has it.
  template <class Run>
  static void dispatch(const Method& method, Run&& run) {
    const bool ran = (run_if_owner<Families>(method, run) || ...);
    if (!ran) throw std::invalid_argument("method " + method.name + " is not among the methods compiled for this run");
  }

 private:
  template <class Family>
  static std::string table_help_of() {
    if constexpr (requires { Family::table_help(); }) return Family::table_help();
    return {};
  }

  template <class Family>
  static std::string relax_help_of() {
    if constexpr (requires { Family::relax_help(); }) return Family::relax_help();
    return {};
  }

  /// The texts that are not empty, joined by "; ".
  static std::string joined_help(std::initializer_list<std::string> texts) {
    std::string help;
    for (const std::string& text : texts) {
      if (text.empty()) continue;
      if (!help.empty()) help += "; ";
      help += text;
    }
    return help;
  }

  template <class Family, class Run>
  static bool run_if_owner(const Method& method, Run& run) {
    if constexpr (OffersNoMethods<Family>) {
      return false;
    } else {
      if (!belongs_to<Family>(method)) return false;
      run(Family{});
      return true;
    }
  }

  template <class Family>
  static std::string unavailable_of(const std::string& name) {
    if constexpr (requires { Family::unavailable(name); }) return Family::unavailable(name);
    return {};
  }

  /// Runs `check(family)` (true when the family has the check) with the family of `method`; when
  /// that family has none, with the first family that has. False when no family has it.
  template <class Check>
  static bool owner_check(const Method& method, Check&& check) {
    if (((belongs_to<Families>(method) && check(Families{})) || ...)) return true;
    return ((!belongs_to<Families>(method) && check(Families{})) || ...);
  }
};

}  // namespace energy_audit::studies
