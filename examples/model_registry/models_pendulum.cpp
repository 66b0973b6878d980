// The driven pendulum entries of the model registry (separable: arkode-sprk runs them), in a
// translation unit of their own, as models_crane.cpp.

#include "model_registry.hpp"
#include "pendulum.hpp"

namespace energy_audit::examples {

using namespace energy_audit::studies;

std::vector<ModelEntry> pendulum_entries() {
  return {
      make_entry<Pendulum, ExampleMethodFamilies>(
          "pendulum", "driven pendulum, torque A cos(omega t) at the pivot (separable)"),
      make_entry<PendulumWrong, ExampleMethodFamilies>(
          "pendulum-wrong", "driven pendulum with the drive's sign flipped in its accelerations"),
  };
}

}  // namespace energy_audit::examples
