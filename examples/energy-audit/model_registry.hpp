#pragma once
/// \file
/// The models the command line knows by name: the example models' entries (model_entry.hpp),
/// `models_*.cpp` list the entries, `models.cpp` the families.

#include <string>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>

#include "usage_error.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

/// The model families, listed by models.cpp in this order: the trolley cranes (models_crane.cpp),
/// the mechanisms (models_mechanism.cpp), the crane3d models (models_crane3d.cpp) and the
/// container models (models_container.cpp).
std::vector<ModelEntry> crane_entries();
std::vector<ModelEntry> mechanism_entries();
std::vector<ModelEntry> crane3d_entries();
std::vector<ModelEntry> container_entries();

/// Every model, in the order of models.cpp.
const std::vector<ModelEntry>& model_registry();
/// The names of every model, in registry order.
std::vector<std::string> model_names();
/// The names of the models with constraints, in registry order (the models idas runs).
std::vector<std::string> multiplier_model_names();
/// The model called `name`; throws UsageError naming the known ones.
const ModelEntry& find_model(const std::string& name);

}  // namespace energy_audit::cli
