#pragma once
// The Python module's `audit_trajectory` and its result, TrajectoryAudit (trajectory_binding.cpp).
#include <pybind11/pybind11.h>

namespace energy_audit::python {

/// Adds TrajectoryAudit to the module `m`: before the study functions, whose diagnose takes a
/// list of them and names the type in its signature.
void add_trajectory_audit_class(pybind11::module_& m);
/// Adds audit_trajectory() to the module `m`.
void add_audit_trajectory_function(pybind11::module_& m);

}  // namespace energy_audit::python
