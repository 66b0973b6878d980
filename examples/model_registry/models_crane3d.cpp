// The crane3d entries of the model registry, in a translation unit of their own: an entry
// compiles every integrator and form for its model type, and the 6-DOF crane's nested automatic
// differentiation makes these the longest to compile; they build in parallel with the other
// families. One model type per twin serves both cases (make_entry's prototype).

#include "crane3d.hpp"
#include "model_registry.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

std::vector<ModelEntry> crane3d_entries() {
  return {
      make_entry<Crane3d, ExampleMethodFamilies>("crane3d", "3D truck crane of seed 000, slewing and luffing, from static equilibrium"),
      make_entry<Crane3d, ExampleMethodFamilies>("crane3d-drop", "3D truck crane of seed 000, dropped onto unstretched pad springs",
                                                 Crane3d(Crane3dStart::Drop)),
      make_entry<Crane3dWrong, ExampleMethodFamilies>("crane3d-wrong", "3D truck crane with one sign flipped (gravity in psi), from equilibrium"),
      make_entry<Crane3dWrong, ExampleMethodFamilies>("crane3d-wrong-drop", "3D truck crane with one sign flipped (gravity in psi), dropped",
                                                      Crane3dWrong(Crane3dStart::Drop)),
  };
}

}  // namespace energy_audit::examples
