#include <energy_audit/studies/model_catalog.hpp>

#include <atomic>

namespace energy_audit::studies {
namespace {

std::atomic<const std::vector<ModelEntry>*> catalog{nullptr};

}  // namespace

void register_model_catalog(const std::vector<ModelEntry>& models) { catalog.store(&models); }

std::vector<std::string> catalog_multiplier_model_names() {
  std::vector<std::string> names;
  if (const std::vector<ModelEntry>* models = catalog.load()) {
    for (const ModelEntry& entry : *models) {
      if (entry.has_multipliers()) names.push_back(entry.name);
    }
  }
  return names;
}

}  // namespace energy_audit::studies
