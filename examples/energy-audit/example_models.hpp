#pragma once
/// \file
/// The example models the command line runs by name (model_registry.hpp, kinematic_models.hpp)
/// and their methods (example_methods.hpp), in the command line's namespace.

#include "kinematic_models.hpp"
#include "model_registry.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;
using examples::find_kinematic_model;
using examples::check_table;
using examples::find_method;
using examples::find_model;
using examples::kinematic_registry;
using examples::method_at_fixed_step;
using examples::model_names;
using examples::model_registry;
using examples::multiplier_model_names;

}  // namespace energy_audit::cli
