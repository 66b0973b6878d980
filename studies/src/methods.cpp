#include <energy_audit/studies/methods.hpp>

#include <tuple>

#include <energy_audit/steppers/explicit_runge_kutta.hpp>
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

/// The entry of the fixed-step method M (a type of FixedStepMethods).
template <class M>
Method fixed_step_entry() {
  Method method{std::string(M::info.name), std::string(M::info.description), MethodKind::FixedStep,
                FixedStepMethod::of<M>()};
  method.order = M::info.order;
  if constexpr (requires { TableauOf<typename M::Stepper>::value; }) {
    method.stability.emplace(TableauOf<typename M::Stepper>::value);
  }
  return method;
}

}  // namespace

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods = [] {
    std::vector<Method> list;
    std::apply([&list](auto... method) { (list.push_back(fixed_step_entry<decltype(method)>()), ...); },
               FixedStepMethods{});
    list.push_back({"cvode-bdf", "CVODES BDF, variable order 1-5, Newton with a dense linear solver",
                    MethodKind::Cvodes, FixedStepMethod::of<methods::Rk4>(), sun::Multistep::Bdf});
    list.push_back({"cvode-adams", "CVODES Adams-Moulton, variable order 1-12, Newton or fixed point",
                    MethodKind::Cvodes, FixedStepMethod::of<methods::Rk4>(), sun::Multistep::Adams});
    list.back().chooses_iteration = true;
    list.push_back({"idas", "IDAS BDF on the residual form of a multiplier model (index 1 or GGL)",
                    MethodKind::Idas});
    return list;
  }();
  return methods;
}

std::vector<std::string> fixed_step_method_names() {
  std::vector<std::string> names;
  for (const FixedStepMethod m : FixedStepMethod::all()) names.emplace_back(m.info().name);
  return names;
}

std::vector<std::string> stability_method_names() {
  std::vector<std::string> names;
  for (const Method& m : all_methods()) {
    if (m.stability) names.push_back(m.name);
  }
  return names;
}

const Method& find_method(const std::string& name, const char* option) {
  std::vector<std::string> known;
  for (const Method& m : all_methods()) {
    if (m.name == name) return m;
    known.push_back(m.name);
  }
  throw SettingsError(std::string(option) + ": unknown method '" + name + "' (known: " + join(known) + ")");
}

}  // namespace energy_audit::studies
