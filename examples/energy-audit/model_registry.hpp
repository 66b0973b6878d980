#pragma once
/// \file
/// The models the command line knows by name. An entry turns a DescribedModel into a runnable
/// system with the user's --set and --init applied; `models.cpp` lists the entries.

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <optional>

#include <energy_audit/any_multiplier_system.hpp>
#include <energy_audit/any_system.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/multiplier_system.hpp>

#include "usage_error.hpp"

namespace energy_audit::cli {

/// What the user changed: --set, --init, and whether Z is carried.
struct ModelSetup {
  std::vector<Assignment> parameters;
  std::vector<Assignment> initial_values;
  EnergyFlow energy_flow = EnergyFlow::Carried;
  std::optional<Baumgarte> baumgarte;  ///< multiplier models, index-1 form
};

/// A model ready to integrate.
struct ModelInstance {
  std::unique_ptr<AnySystem> system;
  const AnyMultiplierSystem* multiplier_system = nullptr;  ///< `system` again, for multiplier models
  Vector initial_state;
  Interval interval;
  std::vector<Assignment> parameters;  ///< values in effect, in the model's order
};

struct ModelEntry {
  std::string name;
  std::string description;
  std::vector<std::string> coordinate_names;
  std::vector<std::string> parameter_names;
  std::vector<std::string> initial_value_names;
  std::vector<std::string> multiplier_names;  ///< empty unless a multiplier model
  Interval interval;

  bool has_multipliers() const { return !multiplier_names.empty(); }
  std::function<ModelInstance(const ModelSetup&)> instantiate;  ///< throws UsageError
};

namespace detail {

template <class Members>
std::vector<std::string> names_of(const Members& members) {
  std::vector<std::string> names;
  for (const auto& m : members) names.emplace_back(m.name);
  return names;
}

template <class M, class Members>
void assign(M& model, const Members& members, const Assignment& a, const char* option,
            const std::string& model_name) {
  const auto it = std::find_if(members.begin(), members.end(),
                               [&](const auto& m) { return m.name == a.name; });
  if (it == members.end()) {
    throw UsageError(std::string(option) + ": model " + model_name + " has no '" + a.name + "' (it has: " +
                     join(names_of(members)) + ")");
  }
  if (!within_domain(it->domain, a.value)) {
    throw UsageError(std::string(option) + ": " + a.name + " = " + to_text(a.value) + " must be " +
                     domain_text(it->domain));
  }
  model.*(it->member) = a.value;
}

}  // namespace detail

/// The entry for model M under `name`; a Lagrange model takes its accelerations from `source`,
/// a multiplier model always from its saddle-point system.
template <DescribedModel M>
ModelEntry make_entry(std::string name, std::string description,
                      AccelerationSource source = LagrangeSystem<M>::default_source()) {
  ModelEntry entry;
  entry.name = name;
  entry.description = std::move(description);
  for (auto c : M::coordinate_names()) entry.coordinate_names.emplace_back(c);
  entry.parameter_names = detail::names_of(M::parameters());
  entry.initial_value_names = detail::names_of(M::initial_values());
  entry.interval = M::interval;
  if constexpr (MultiplierModel<M>) {
    if constexpr (requires { M::multiplier_names(); }) {
      for (auto multiplier : M::multiplier_names()) entry.multiplier_names.emplace_back(multiplier);
    } else {
      for (int k = 1; k <= M::constraints; ++k) entry.multiplier_names.push_back("lambda" + std::to_string(k));
    }
  }
  entry.instantiate = [name, source](const ModelSetup& setup) {
    M model;
    for (const Assignment& a : setup.parameters) detail::assign(model, M::parameters(), a, "--set", name);
    for (const Assignment& a : setup.initial_values) {
      detail::assign(model, M::initial_values(), a, "--init", name);
    }
    ModelInstance instance;
    for (const auto& p : M::parameters()) instance.parameters.push_back({std::string(p.name), model.*(p.member)});
    const InitialState<M::dofs> start = model.initial_state();
    instance.interval = M::interval;
    if constexpr (MultiplierModel<M>) {
      MultiplierSystem<M> system(model, setup.baumgarte, setup.energy_flow);
      instance.initial_state = system.initial_state(start.q, start.v);
      auto any = make_any_multiplier_system(std::move(system));
      instance.multiplier_system = any.get();
      instance.system = std::move(any);
    } else {
      LagrangeSystem<M> system(model, source, setup.energy_flow);
      instance.initial_state = system.initial_state(start.q, start.v);
      instance.system = make_any_system(std::move(system));
    }
    return instance;
  };
  return entry;
}

/// Every model, in the order of models.cpp.
const std::vector<ModelEntry>& model_registry();
/// The names of the models with constraints, in registry order (the models idas runs).
std::vector<std::string> multiplier_model_names();
/// The model called `name`; throws UsageError naming the known ones.
const ModelEntry& find_model(const std::string& name);

}  // namespace energy_audit::cli
