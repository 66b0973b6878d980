// The Python module's `audit_trajectory`: the audit of samples (t, q, v, a) computed elsewhere,
// with the user's T, V and power as Python functions (trajectory_audit.hpp), and its result,
// TrajectoryAudit.
#include "trajectory_binding.hpp"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <energy_audit/error.hpp>
#include <energy_audit/trajectory_audit.hpp>

#include "drift_text.hpp"

namespace py = pybind11;
namespace ea = energy_audit;

namespace {

/// An array-like argument of samples (a NumPy array, a list, ...), taken as it is and checked by
/// real_samples; help() names it as NumPy's typing does.
struct SampleArray {
  py::object values;
};

}  // namespace

namespace pybind11::detail {
template <>
struct type_caster<SampleArray> {
  PYBIND11_TYPE_CASTER(SampleArray, const_name("numpy.typing.ArrayLike"));
  bool load(handle source, bool) {
    value.values = reinterpret_borrow<object>(source);
    return true;
  }
};
}  // namespace pybind11::detail

namespace {

/// `samples` as a C-ordered float64 array: integers and floats are taken, complex numbers, bools,
/// strings and objects that are not real numbers are a TypeError naming the argument, a ragged
/// list a ValueError.
py::array_t<double, py::array::c_style> real_samples(const SampleArray& samples, const char* name) {
  py::array array;
  try {
    array = py::module_::import("numpy").attr("asarray")(samples.values);
  } catch (const py::error_already_set& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    throw ea::InvalidArgument(std::string(name) + " is not an array of samples: " + py::str(e.value()).cast<std::string>());
  }
  const char kind = array.dtype().kind();
  if (kind == 'O') {
    try {
      array = array.attr("astype")("float64");
    } catch (const py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
      throw py::type_error(std::string(name) + " holds objects that are not real numbers");
    }
  } else if (kind != 'i' && kind != 'u' && kind != 'f') {
    throw py::type_error(std::string(name) + " must hold real numbers, not " +
                         py::str(array.dtype()).cast<std::string>() +
                         (kind == 'c' ? " (the audit takes the real q, v and a)" : ""));
  }
  return py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
}

/// The shape of an array as NumPy writes it: "(41,)", "(41, 2)".
std::string shape_text(const py::array& values) {
  std::string text = "(";
  for (py::ssize_t k = 0; k < values.ndim(); ++k) {
    text += (k == 0 ? "" : ", ") + std::to_string(values.shape(k));
  }
  return text + (values.ndim() == 1 ? ",)" : ")");
}

/// A vector or matrix of samples as the n × N samples (one column per time); `shape` receives its
/// shape as the caller gave it.
ea::Matrix samples_matrix(const SampleArray& samples, py::ssize_t count, const char* name, std::string& shape) {
  const py::array_t<double, py::array::c_style> values = real_samples(samples, name);
  shape = shape_text(values);
  if (values.ndim() == 1) {
    if (values.shape(0) != count) {
      throw ea::InvalidArgument(std::string(name) + " has " + std::to_string(values.shape(0)) + " samples, t has " +
                                std::to_string(count));
    }
    ea::Matrix m(1, count);
    for (py::ssize_t i = 0; i < count; ++i) m(0, i) = values.at(i);
    return m;
  }
  if (values.ndim() != 2 || values.shape(0) != count || values.shape(1) < 1) {
    throw ea::InvalidArgument(std::string(name) + " has shape " + shape + "; it must be (N,) or (N, n) with N = len(t) = " +
                              std::to_string(count) + " and n >= 1");
  }
  ea::Matrix m(values.shape(1), count);
  for (py::ssize_t i = 0; i < count; ++i) {
    for (py::ssize_t j = 0; j < values.shape(1); ++j) m(j, i) = values.at(i, j);
  }
  return m;
}

/// What a user's energy or power function returned, as a number: TypeError when it is none
/// (a str, an array of several values), ValueError when it is not finite, naming the function
/// (`what`, its call as the docstring writes it) and the time.
double returned_number(const py::object& value, const char* what, double time) {
  const double number = PyFloat_AsDouble(value.ptr());
  if (number == -1.0 && PyErr_Occurred() != nullptr) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + " returned " +
                         py::str(value.get_type().attr("__name__")).cast<std::string>() + ", not a number (at t = " +
                         ea::to_text(time) + ")");
  }
  if (!std::isfinite(number)) {
    throw ea::InvalidArgument(std::string(what) + " is " + ea::to_text(number) + " at t = " + ea::to_text(time));
  }
  return number;
}

py::array_t<double> as_array(const ea::Vector& x) { return py::array_t<double>(x.size(), x.data()); }

/// The time and the energy columns of an audit's history (history.hpp), one array each.
py::dict energy_history(const ea::Audit& audit) {
  const ea::History& history = audit.history();
  const auto rows = static_cast<py::ssize_t>(history.rows());
  std::vector<std::pair<std::string, std::size_t>> columns{{"t", 0}};
  for (std::size_t k = 0; k < ea::History::energy_column_count; ++k) {
    columns.emplace_back(ea::History::energy_columns[k], history.layout().energy_offset() + k);
  }
  py::dict arrays;
  for (const auto& [name, index] : columns) {
    py::array_t<double> values(rows);
    for (py::ssize_t i = 0; i < rows; ++i) values.mutable_at(i) = history.row(static_cast<std::size_t>(i))[index];
    arrays[py::str(name)] = values;
  }
  return arrays;
}

constexpr const char* audit_trajectory_doc = R"(Audits samples of a trajectory computed elsewhere.

t: the N sample times, finite and increasing. q, v, a: positions, velocities and accelerations,
  of shape (N,) or (N, n), finite.
T(q, v, t), V(q, t): the kinetic and the potential energy [J], q and v NumPy vectors.
power(q, v, t): v.f, the power of the non-potential forces [W] (default none).
dT_dt(q, v, t), dV_dt(q, t): the explicit time derivatives of T and V, required when they depend
  on t (a T or V seen to change with t at fixed q and v without its rate raises ValueError).
threshold: pass when delta_C <= threshold (1e-3).

t, q, v, a take integers and floats; complex numbers, bools, strings and other objects raise
TypeError, samples that are not finite, shapes that do not match or times that do not increase
ValueError. A function that returns no number raises TypeError, one that returns nan or inf
ValueError; an exception raised by one of them reaches the caller as itself.

Z comes from 4-point Gauss quadrature on the cubic Hermite interpolants of each interval (error
O(h^4) in the sampling interval h). Returns a TrajectoryAudit, whose history holds t and the
energies at every sample (plot() draws C(t) - C(t0) and the running delta_C from it).)";

}  // namespace

void energy_audit::python::add_trajectory_audit_class(py::module_& m) {
  py::class_<ea::Audit>(m, "TrajectoryAudit", "What audit_trajectory() returns")
      .def_property_readonly("delta_C", &ea::Audit::relative_drift,
                             "sup |C - C0| / sup max(|E|, |T|, |V|) over the samples")
      .def_property_readonly(
          "verdict", [](const ea::Audit& a) { return std::string(ea::verdict_name(a.verdict())); },
          "\"pass\" when delta_C <= threshold, else \"fail\"")
      .def_property_readonly("passed", &ea::Audit::passed, "verdict == \"pass\"")
      .def_property_readonly("max_abs_dC", &ea::Audit::max_abs_drift, "sup |C - C0| [J]")
      .def_property_readonly("t_max_abs_dC", &ea::Audit::time_of_max_drift, "the time of sup |C - C0|")
      .def_property_readonly("energy_scale", &ea::Audit::energy_scale, "sup max(|E|, |T|, |V|) [J], delta_C's scale")
      .def_property_readonly("C0", &ea::Audit::initial_control, "C = H + Z at the first sample [J]")
      .def_property_readonly("threshold", &ea::Audit::threshold, "the pass threshold of delta_C")
      .def_property_readonly("dC_first_above_threshold", &ea::Audit::time_first_above_threshold,
                             "the first t at which |C - C0| > threshold x the energy scale so far; NaN when at none")
      .def_property_readonly("dC_fastest_growth_at", &ea::Audit::time_of_fastest_growth,
                             "the end of the interval over which |C - C0| rose fastest per unit time; NaN when it never rose")
      .def_property_readonly("history", &energy_history,
                             "{t, T, T2, T1, T0, V, E, H, Z, C}: arrays with one entry per sample")
      .def("__repr__", [](const ea::Audit& a) {
        return "<TrajectoryAudit: delta_C = " + energy_audit::python::drift_text(a.relative_drift()) + ", " + ea::verdict_name(a.verdict()) +
               ">";
      });
}

void energy_audit::python::add_audit_trajectory_function(py::module_& m) {
  m.def(
      "audit_trajectory",
      [](const SampleArray& times, const SampleArray& positions, const SampleArray& velocities,
         const SampleArray& accelerations, const py::function& T, const py::function& V,
         const std::optional<py::function>& power, const std::optional<py::function>& dT_dt,
         const std::optional<py::function>& dV_dt, double threshold) {
        const py::array_t<double, py::array::c_style> t = real_samples(times, "t");
        if (t.ndim() != 1) throw ea::InvalidArgument("t must be one-dimensional");
        const py::ssize_t count = t.shape(0);
        std::string q_shape, v_shape, a_shape;
        ea::TrajectorySamples samples{ea::Vector(count), samples_matrix(positions, count, "q", q_shape),
                                      samples_matrix(velocities, count, "v", v_shape),
                                      samples_matrix(accelerations, count, "a", a_shape)};
        // One coordinate count n for the three, said in the (N, n) layout they were given in.
        if (samples.v.rows() != samples.q.rows() || samples.a.rows() != samples.q.rows()) {
          throw ea::InvalidArgument("q, v and a must have one shape, (N,) or (N, n); they are " + q_shape + ", " +
                                    v_shape + " and " + a_shape);
        }
        for (py::ssize_t i = 0; i < count; ++i) samples.t[i] = t.at(i);
        // The user's functions are called here, on this thread: an exception they raise reaches
        // the caller as itself (pybind11's error_already_set carries it through the audit).
        ea::TrajectoryEnergies e;
        e.kinetic_energy = [T](const ea::Vector& q, const ea::Vector& v, double time) {
          return returned_number(T(as_array(q), as_array(v), time), "T(q, v, t)", time);
        };
        e.potential_energy = [V](const ea::Vector& q, double time) {
          return returned_number(V(as_array(q), time), "V(q, t)", time);
        };
        if (power) {
          e.nonpotential_power = [f = *power](const ea::Vector& q, const ea::Vector& v, double time) {
            return returned_number(f(as_array(q), as_array(v), time), "power(q, v, t)", time);
          };
        }
        if (dT_dt) {
          e.kinetic_energy_rate = [f = *dT_dt](const ea::Vector& q, const ea::Vector& v, double time) {
            return returned_number(f(as_array(q), as_array(v), time), "dT_dt(q, v, t)", time);
          };
        }
        if (dV_dt) {
          e.potential_energy_rate = [f = *dV_dt](const ea::Vector& q, double time) {
            return returned_number(f(as_array(q), time), "dV_dt(q, t)", time);
          };
        }
        ea::AuditOptions options;
        options.threshold = threshold;
        options.store_every = 1;  // the history of C that plot() draws: one row per sample
        return ea::audit_trajectory(samples, e, options);
      },
      py::arg("t"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("T"), py::arg("V"), py::arg("power") = py::none(),
      py::arg("dT_dt") = py::none(), py::arg("dV_dt") = py::none(), py::arg("threshold") = 1e-3,
      audit_trajectory_doc);
}
