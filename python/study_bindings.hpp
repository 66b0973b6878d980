#pragma once
/// \file
/// The studies in Python: energy_audit.compare, sweep, advise and stability call the studies
/// library as the command line's commands do, with the commands' options as keyword arguments
/// and the same checks, and return the record the command line writes (study_records.hpp) as
/// NumPy columns (record_to_python.hpp).

#include <pybind11/pybind11.h>

namespace energy_audit::python {

/// Adds compare, sweep, advise and stability to the module `m`.
void add_study_functions(pybind11::module_& m);

}  // namespace energy_audit::python
