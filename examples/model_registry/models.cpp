// The example models by name, in the order the command line's `list` prints them. Adding a model: put its
// header in examples/models/ and add its entry to the list of its family (models_*.cpp), or a new
// family's file here; each family compiles in a translation unit of its own.
#include "model_registry.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

const std::vector<ModelEntry>& model_registry() {
  static const std::vector<ModelEntry> models = [] {
    std::vector<ModelEntry> list;
    for (auto family : {crane_entries, mechanism_entries, crane3d_entries, container_entries, pendulum_entries}) {
      for (ModelEntry& entry : family()) list.push_back(std::move(entry));
    }
    return list;
  }();
  return models;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const ModelEntry& entry : model_registry()) names.push_back(entry.name);
  return names;
}

std::vector<std::string> multiplier_model_names() {
  std::vector<std::string> names;
  for (const ModelEntry& entry : model_registry()) {
    if (entry.has_multipliers()) names.push_back(entry.name);
  }
  return names;
}

const ModelEntry& find_model(const std::string& name) {
  std::vector<std::string> known;
  for (const ModelEntry& entry : model_registry()) {
    if (entry.name == name) return entry;
    known.push_back(entry.name);
  }
  throw SettingsError("MODEL: unknown model '" + name + "' (known: " + join(known) + ")");
}

}  // namespace energy_audit::examples
