#pragma once
// The Python module's `run` and its result, RunResult (run_binding.cpp).
#include <pybind11/pybind11.h>

namespace energy_audit::python {

/// Adds RunResult and run() to the module `m`.
void add_run_function(pybind11::module_& m);

}  // namespace energy_audit::python
