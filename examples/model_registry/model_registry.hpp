#pragma once
/// \file
/// The example models by name, as the command line and the Python module run them: their entries
/// (model_entry.hpp), compiled for the example methods (example_methods.hpp); `models_*.cpp` list
/// the entries, `models.cpp` the families.

#include <string>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/settings_error.hpp>

#include "example_methods.hpp"

namespace energy_audit::examples {

/// The model families, listed by models.cpp in this order: the trolley cranes (models_crane.cpp),
/// the mechanisms (models_mechanism.cpp), the crane3d models (models_crane3d.cpp), the
/// container models (models_container.cpp) and the driven pendulums (models_pendulum.cpp).
std::vector<studies::ModelEntry> crane_entries();
std::vector<studies::ModelEntry> mechanism_entries();
std::vector<studies::ModelEntry> crane3d_entries();
std::vector<studies::ModelEntry> container_entries();
std::vector<studies::ModelEntry> pendulum_entries();

/// Every model, in the order of models.cpp.
const std::vector<studies::ModelEntry>& model_registry();
/// The names of every model, in registry order.
std::vector<std::string> model_names();
/// The names of the models with constraints, in registry order (the models idas runs).
std::vector<std::string> multiplier_model_names();
/// The model called `name`; throws SettingsError naming the known ones.
const studies::ModelEntry& find_model(const std::string& name);

}  // namespace energy_audit::examples
