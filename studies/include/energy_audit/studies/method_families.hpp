#pragma once
/// \file
/// The method families a model entry is compiled for (method_family.hpp): their methods, in the
/// families' order, and the run of any of them, dispatched to the family the method belongs to.

#include <stdexcept>
#include <string>
#include <vector>

#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>

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

  /// Calls run(family) with the family of `method`, as a value of that type (MethodFamily types
  /// are empty tags). Throws std::invalid_argument when none of the families has it.
  template <class Run>
  static void dispatch(const Method& method, Run&& run) {
    const bool ran = ((belongs_to<Families>(method) ? (run(Families{}), true) : false) || ...);
    if (!ran) throw std::invalid_argument("method " + method.name + " is not among the methods compiled for this run");
  }
};

}  // namespace energy_audit::studies
