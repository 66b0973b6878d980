#pragma once
// What the command-line tests expect of the registry, from the studies library rather than
// written out. A unit of its own: the tests' `energy_audit(...)` would clash with the library's
// namespace of that name.
#include <string>
#include <vector>

/// The fixed-step methods, in the registry's order: compare's default --methods.
std::vector<std::string> registry_fixed_step_method_names();
