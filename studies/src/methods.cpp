#include <energy_audit/studies/methods.hpp>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

const std::vector<Method>& all_methods() {
  static const std::vector<Method> methods = [] {
    std::vector<Method> list;
    for (const FixedStepMethod m : FixedStepMethod::all()) {
      list.push_back({std::string(m.info().name), std::string(m.info().description), MethodKind::FixedStep, m});
    }
    list.push_back({"cvode-bdf", "CVODES BDF, variable order 1-5, Newton with a dense linear solver",
                    MethodKind::Cvodes, FixedStepMethod::of<methods::Rk4>(), sun::Multistep::Bdf});
    list.push_back({"cvode-adams", "CVODES Adams-Moulton, variable order 1-12, Newton or fixed point",
                    MethodKind::Cvodes, FixedStepMethod::of<methods::Rk4>(), sun::Multistep::Adams});
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

const Method& find_method(const std::string& name, const char* option) {
  std::vector<std::string> known;
  for (const Method& m : all_methods()) {
    if (m.name == name) return m;
    known.push_back(m.name);
  }
  throw SettingsError(std::string(option) + ": unknown method '" + name + "' (known: " + join(known) + ")");
}

}  // namespace energy_audit::studies
