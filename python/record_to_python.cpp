#include "record_to_python.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace energy_audit::python {

namespace py = pybind11;
using namespace pybind11::literals;
using Json = nlohmann::ordered_json;

namespace {

py::object convert(const Json& value, const std::set<std::string>& tables, const std::string& key);

/// A number of a numeric column: null and an absent key are NaN, the text "inf" is inf.
bool numeric(const Json* cell) {
  return cell == nullptr || cell->is_null() || cell->is_number() ||
         (cell->is_string() && cell->get<std::string>() == "inf");
}

double number_of(const Json* cell) {
  if (cell == nullptr || cell->is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (cell->is_string()) return std::numeric_limits<double>::infinity();
  return cell->get<double>();
}

/// An object array of `cells` converted, None where a cell is absent.
py::array object_column(const std::vector<const Json*>& cells, const std::set<std::string>& tables,
                        const std::string& key) {
  py::array column = py::module_::import("numpy").attr("full")(cells.size(), py::none(), "dtype"_a = "object");
  auto** slots = static_cast<PyObject**>(column.mutable_data());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == nullptr) continue;
    PyObject* previous = slots[i];
    slots[i] = convert(*cells[i], tables, key).release().ptr();
    Py_XDECREF(previous);
  }
  return column;
}

/// The column of `cells` (one per element of a table; nullptr where an element lacks the key).
py::object column(const std::vector<const Json*>& cells, const std::set<std::string>& tables, const std::string& key) {
  bool all_numeric = true, all_whole = true, all_bool = !cells.empty();
  for (const Json* cell : cells) {
    all_numeric = all_numeric && numeric(cell);
    all_whole = all_whole && cell != nullptr && cell->is_number_integer();
    all_bool = all_bool && cell != nullptr && cell->is_boolean();
  }
  if (all_bool) {
    py::array_t<bool> values(static_cast<py::ssize_t>(cells.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) values.mutable_at(i) = cells[i]->get<bool>();
    return values;
  }
  if (all_numeric && all_whole && !cells.empty()) {
    py::array_t<std::int64_t> values(static_cast<py::ssize_t>(cells.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) values.mutable_at(i) = cells[i]->get<std::int64_t>();
    return values;
  }
  if (all_numeric) {
    py::array_t<double> values(static_cast<py::ssize_t>(cells.size()));
    for (std::size_t i = 0; i < cells.size(); ++i) values.mutable_at(i) = number_of(cells[i]);
    return values;
  }
  return object_column(cells, tables, key);
}

/// A list of objects as a dict of columns, the keys in the order they first appear: an
/// energy_audit.results.Table, the dict that also converts to pandas.
py::dict table(const Json& rows, const std::set<std::string>& tables) {
  std::vector<std::string> keys;
  for (const Json& row : rows) {
    for (const auto& [key, value] : row.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  py::dict columns = py::module_::import("energy_audit.results").attr("Table")();
  for (const std::string& key : keys) {
    std::vector<const Json*> cells;
    for (const Json& row : rows) cells.push_back(row.contains(key) ? &row.at(key) : nullptr);
    columns[py::str(key)] = column(cells, tables, key);
  }
  return columns;
}

py::object convert(const Json& value, const std::set<std::string>& tables, const std::string& key) {
  if (value.is_object()) {
    py::dict dict;
    for (const auto& [name, item] : value.items()) dict[py::str(name)] = convert(item, tables, name);
    return dict;
  }
  if (value.is_array()) {
    if (tables.contains(key)) return table(value, tables);
    std::vector<const Json*> cells;
    for (const Json& item : value) cells.push_back(&item);
    if (cells.empty()) return py::array_t<double>(0);
    return column(cells, tables, key);
  }
  if (value.is_null()) return py::none();
  if (value.is_boolean()) return py::bool_(value.get<bool>());
  if (value.is_number_unsigned()) return py::int_(value.get<std::uint64_t>());
  if (value.is_number_integer()) return py::int_(value.get<std::int64_t>());
  if (value.is_number()) return py::float_(value.get<double>());
  return py::str(value.get<std::string>());
}

}  // namespace

py::object record_to_python(const Json& record, const std::set<std::string>& tables) {
  return convert(record, tables, "");
}

}  // namespace energy_audit::python
