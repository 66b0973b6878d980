#pragma once
/// \file
/// The models a program offers by name, for the messages that point to other models: a method
/// that runs only multiplier models, refused for a model without constraints, names the catalog's
/// multiplier models. A program registers its catalog once (the command line: its example
/// models); without one the message names none.

#include <string>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>

namespace energy_audit::studies {

/// Registers `models`, which must outlive every study.
void register_model_catalog(const std::vector<ModelEntry>& models);
/// The names of the catalog's models with constraints, in its order; empty without a catalog.
std::vector<std::string> catalog_multiplier_model_names();

}  // namespace energy_audit::studies
