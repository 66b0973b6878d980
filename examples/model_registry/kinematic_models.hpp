#pragma once
/// \file
/// The kinematic example models (seed 001's ellipse), entries of the studies' kinematic
/// runs (kinematic_run.hpp).

#include <string>
#include <vector>

#include <energy_audit/studies/kinematic_run.hpp>

namespace energy_audit::examples {

/// The kinematic models, by name.
const std::vector<studies::KinematicEntry>& kinematic_registry();
/// The model called `name`, or null when it is not a kinematic model.
const studies::KinematicEntry* find_kinematic_model(const std::string& name);

}  // namespace energy_audit::examples
