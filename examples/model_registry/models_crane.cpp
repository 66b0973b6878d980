// The trolley-crane entries of the model registry (seed 002), in a translation unit of their own:
// an entry compiles every integrator and form for its model type, so the registry's model
// families compile in parallel.

#include "crane.hpp"
#include "crane_dae.hpp"
#include "model_registry.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

std::vector<ModelEntry> crane_entries() {
  return {
      make_entry<Crane, ExampleMethodFamilies>("crane", "trolley crane of seed 002 with its hand-derived eq. 19"),
      make_entry<Crane, ExampleMethodFamilies>("crane-derived", "trolley crane, accelerations derived from T, V, f",
                                               AccelerationSource::Derived),
      make_entry<CraneWrong, ExampleMethodFamilies>("crane-wrong", "trolley crane with one sign flipped in eq. 19"),
      make_entry<CraneDamperMissing, ExampleMethodFamilies>(
          "crane-damper-missing", "trolley crane whose damper eq. 19 keeps but its forces f leave out"),
      make_entry<CraneDae, ExampleMethodFamilies>("crane-dae", "trolley crane in absolute coordinates, 2 constraints, multipliers F_Ax, F_Ay"),
  };
}

}  // namespace energy_audit::examples
