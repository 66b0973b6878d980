// The mechanism entries of the model registry (seed 000's slider with a driven body and a
// pendulum), in a translation unit of their own, as models_crane.cpp.

#include "mechanism.hpp"
#include "model_registry.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

std::vector<ModelEntry> mechanism_entries() {
  return {
      make_entry<Mechanism, ExampleMethodFamilies>("mechanism", "seed 000's slider with a driven body and a pendulum, beta(t) = sin 5t (rheonomic)"),
      make_entry<MechanismWrong, ExampleMethodFamilies>("mechanism-wrong", "mechanism with the sign of m3 l sin(gamma) cos(gamma) gamma_dot^2 flipped"),
      make_entry<MechanismWrong2, ExampleMethodFamilies>("mechanism-wrong2", "mechanism with the sign of MT h beta_dot^2 cos(gamma - beta) flipped"),
  };
}

}  // namespace energy_audit::examples
