#pragma once
/// \file
/// A study's JSON record (study_records.hpp) as Python data with the same keys and nesting: an
/// object is a dict, and a list of objects under one of `tables`' keys a table, a dict of
/// columns (NumPy arrays, one entry per element; energy_audit.results.Table, whose to_pandas()
/// makes a DataFrame of it). A column of numbers is float64 (a null there,
/// or a key an element lacks, is NaN; "inf" is inf), int64 when every entry is a whole number,
/// bool when every entry is a bool; any other column is an object array (str, None, dict, ...).
/// Any other list is one column so made (a list of numbers: a float64 array).

#include <pybind11/pybind11.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace energy_audit::python {

pybind11::object record_to_python(const nlohmann::ordered_json& record, const std::set<std::string>& tables);

}  // namespace energy_audit::python
