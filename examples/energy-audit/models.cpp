// The models the command line knows. Adding a model: put its header in examples/models/ (it is
// included through all_models.hpp, generated from that directory) and add one line here.
#include "all_models.hpp"
#include "model_registry.hpp"

namespace energy_audit::cli {

const std::vector<ModelEntry>& model_registry() {
  using namespace energy_audit::examples;
  static const std::vector<ModelEntry> models = [] {
    std::vector<ModelEntry> list{
        make_entry<Crane>("crane", "trolley crane of seed 002 with its hand-derived eq. 19"),
        make_entry<Crane>("crane-derived", "trolley crane, accelerations derived from T, V, f",
                          AccelerationSource::Derived),
        make_entry<CraneWrong>("crane-wrong", "trolley crane with one sign flipped in eq. 19"),
        make_entry<CraneDae>("crane-dae", "trolley crane in absolute coordinates, 2 constraints, multipliers F_Ax, F_Ay"),
        make_entry<Mechanism>("mechanism", "seed 000's slider with a driven body and a pendulum, beta(t) = sin 5t (rheonomic)"),
        make_entry<MechanismWrong>("mechanism-wrong", "mechanism with the sign of m3 l sin(gamma) cos(gamma) gamma_dot^2 flipped"),
        make_entry<MechanismWrong2>("mechanism-wrong2", "mechanism with the sign of MT h beta_dot^2 cos(gamma - beta) flipped"),
    };
    for (ModelEntry& entry : crane3d_entries()) list.push_back(std::move(entry));
    for (ModelEntry& entry : container_entries()) list.push_back(std::move(entry));
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
  throw UsageError("MODEL: unknown model '" + name + "' (known: " + join(known) + ")");
}

}  // namespace energy_audit::cli
