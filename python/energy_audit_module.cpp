// The Python module `energy_audit`: its exceptions, the names of the models and methods, and the
// functions of run_binding.cpp (run), trajectory_binding.cpp (audit_trajectory) and
// study_bindings.cpp (the studies).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <exception>
#include <string>
#include <vector>

#include <energy_audit/error.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/settings_error.hpp>

#include "model_registry.hpp"
#include "run_binding.hpp"
#include "study_bindings.hpp"
#include "trajectory_binding.hpp"

namespace py = pybind11;
namespace ea = energy_audit;
namespace studies = energy_audit::studies;
namespace examples = energy_audit::examples;
namespace python = energy_audit::python;

PYBIND11_MODULE(_energy_audit, m) {
  m.doc() = "EnergyAudit: is this numerical solution of the equations of motion trustworthy? "
            "Tracks C = H + Z, constant on exact solutions, and judges its relative drift delta_C.";
  m.attr("__version__") = ENERGY_AUDIT_VERSION;
  // Bad arguments are ValueError (UsageError: the command line's usage errors); a computation
  // that fails at run time (energy_audit::Error: a mass matrix that is not positive definite, a
  // solver's failure, no static equilibrium) is AuditError, a RuntimeError. The message is the
  // library's one line. A run that fails once started is reported by its RunResult instead.
  py::register_exception<studies::SettingsError>(m, "UsageError", PyExc_ValueError).doc() =
      "An argument the command line would refuse as a usage error; the message names it as Python spells it.";
  py::register_exception<ea::Error>(m, "AuditError", PyExc_RuntimeError).doc() =
      "A computation of the audit failed at run time (a mass matrix that is not positive definite, a "
      "solver's failure, no static equilibrium); the message is the library's.";
  // Registered after AuditError's, so tried before it: InvalidArgument is an Error too.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ea::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("models", [] { return examples::model_names(); }, "the names of the models");
  m.def("methods", [] {
    std::vector<std::string> names;
    for (const studies::Method& method : examples::methods()) names.push_back(method.name);
    return names;
  }, "the names of the methods");

  python::add_run_function(m);
  python::add_trajectory_audit_class(m);
  python::add_study_functions(m);
  python::add_audit_trajectory_function(m);
}
