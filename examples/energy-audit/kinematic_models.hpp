#pragma once
/// \file
/// The command line's kinematic models (seed 001's ellipse), entries of the studies' kinematic
/// runs (kinematic_run.hpp).

#include <string>
#include <vector>

#include <energy_audit/studies/kinematic_run.hpp>

namespace energy_audit::cli {

using namespace energy_audit::studies;

/// The kinematic models, by name.
const std::vector<KinematicEntry>& kinematic_registry();
/// The model called `name`, or null when it is not a kinematic model.
const KinematicEntry* find_kinematic_model(const std::string& name);

}  // namespace energy_audit::cli
