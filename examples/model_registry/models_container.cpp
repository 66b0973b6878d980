// The container entries of the model registry, in a translation unit of their own: each entry
// compiles the multiplier, Maggi and IDAS forms of a 6-coordinate model with nested automatic
// differentiation, and they build in parallel with the other families.

#include "container.hpp"
#include "model_registry.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

std::vector<ModelEntry> container_entries() {
  return {
      make_entry<ContainerLine, ExampleMethodFamilies>("container-line", "seed 000's container on a rope whose end moves on a line (rheonomic constraint)"),
      make_entry<ContainerCircle, ExampleMethodFamilies>("container-circle", "seed 000's container on a rope whose end moves on a circle"),
      make_entry<ContainerLineWrong, ExampleMethodFamilies>("container-line-wrong", "container-line with the sign of dV/dphi flipped in its equations"),
      make_entry<ContainerCircleWrong, ExampleMethodFamilies>("container-circle-wrong", "container-circle with the sign of dV/dphi flipped in its equations"),
  };
}

}  // namespace energy_audit::examples
