#include <energy_audit/studies/methods.hpp>

#include <tuple>

#include <energy_audit/steppers/explicit_runge_kutta.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {
namespace {

/// The tableau of an explicit Runge–Kutta stepper.
template <class Stepper>
struct TableauOf {};
template <auto tableau>
struct TableauOf<ExplicitRungeKutta<tableau>> {
  static constexpr auto value = tableau;
};

/// The entry of the fixed-step method M (a type of FixedStepMethods), the variant-th.
template <class M>
Method fixed_step_entry(std::size_t variant) {
  Method method{std::string(M::info.name), std::string(M::info.description), FixedStepFamily::name, variant};
  method.order = M::info.order;
  method.partitioned = M::info.partitioned;
  if constexpr (requires { TableauOf<typename M::Stepper>::value; }) {
    method.stability.emplace(TableauOf<typename M::Stepper>::value);
  }
  return method;
}

}  // namespace

const std::vector<Method>& fixed_step_methods() {
  static const std::vector<Method> methods = [] {
    std::vector<Method> list;
    std::apply([&list](auto... method) { (list.push_back(fixed_step_entry<decltype(method)>(list.size())), ...); },
               FixedStepMethods{});
    return list;
  }();
  return methods;
}

const Method& default_method() { return find_method(fixed_step_methods(), "rk4"); }

std::vector<std::string> method_names(const std::vector<Method>& methods) {
  std::vector<std::string> names;
  for (const Method& m : methods) names.push_back(m.name);
  return names;
}

std::vector<std::string> fixed_step_method_names(const std::vector<Method>& methods) {
  std::vector<std::string> names;
  for (const Method& m : methods) {
    if (!m.adaptive() && !m.needs_separable_model) names.push_back(m.name);
  }
  return names;
}

std::vector<std::string> stability_method_names(const std::vector<Method>& methods) {
  std::vector<std::string> names;
  for (const Method& m : methods) {
    if (m.stability) names.push_back(m.name);
  }
  return names;
}

const Method& find_method(const std::vector<Method>& methods, const std::string& name, const char* option) {
  for (const Method& m : methods) {
    if (m.name == name) return m;
  }
  throw SettingsError(std::string(option) + ": unknown method '" + name + "' (known: " + join(method_names(methods)) +
                      ")");
}

}  // namespace energy_audit::studies
