#include <energy_audit/studies/history_rows.hpp>

#include <algorithm>
#include <exception>
#include <limits>

namespace energy_audit::studies {

SecondHalf second_half(const ModelEntry& model, Form form, const std::vector<std::string>& independent) {
  switch (form) {
    case Form::Hamilton: return {"p", model.coordinate_names};
    case Form::Maggi: return {"u", independent};
    case Form::Lagrange:
    case Form::Multipliers: break;
  }
  return {"v", model.coordinate_names};
}

namespace {

/// The names of the audit's columns: t, the coordinates, the second half (NAME_dot, p_NAME or
/// u_NAME), the energies, the multipliers and drifts; then the extra outputs.
std::vector<std::string> history_columns(const ModelEntry& model, Form form, const std::vector<std::string>& independent) {
  std::vector<std::string> columns{"t"};
  for (const std::string& name : model.coordinate_names) columns.push_back(name);
  const SecondHalf w = second_half(model, form, independent);
  for (const std::string& name : w.names) {
    columns.push_back(std::string(w.key) == "v" ? name + "_dot" : std::string(w.key) + "_" + name);
  }
  for (const char* name : History::energy_columns) columns.emplace_back(name);
  if (model.has_multipliers()) {
    for (const std::string& name : model.multiplier_names) columns.push_back(name);
    for (const char* name : History::drift_columns) columns.emplace_back(name);
  }
  // An extra output named like a column of the state (mechanism's p_x in Hamilton's form, where
  // p_x is the momentum of x) is written as extra_NAME, so that every column name is unique.
  const std::size_t standard_columns = columns.size();
  for (const std::string& name : model.extra_output_names) {
    const bool taken = std::find(columns.begin(), columns.begin() + static_cast<long>(standard_columns), name) !=
                       columns.begin() + static_cast<long>(standard_columns);
    columns.push_back(taken ? "extra_" + name : name);
  }
  return columns;
}

}  // namespace

HistoryRows::HistoryRows(const ModelEntry& model, const ModelSetup& setup, Form form,
                         const std::vector<std::string>& independent)
    : columns_(history_columns(model, form, independent)) {
  if (form == Form::Lagrange && model.acceleration_function) {
    accelerations_ = model.acceleration_function(setup);
    acceleration_values_.resize(model.coordinate_names.size());
    // After t, q and v: the columns a trajectory's samples have, in that order.
    auto position = columns_.begin() + static_cast<long>(1 + 2 * model.coordinate_names.size());
    for (const std::string& name : model.coordinate_names) position = columns_.insert(position, name + "_ddot") + 1;
  }
  if (model.extra_output_function) {
    extra_outputs_ = model.extra_output_function(setup, form, independent);
    extra_values_.resize(model.extra_output_names.size());
  }
}

void HistoryRows::append(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values) {
  const auto energies = row.begin() + static_cast<long>(layout.energy_offset());
  values.insert(values.end(), row.begin(), energies);
  if (accelerations_) {
    try {
      accelerations_(layout, row, acceleration_values_);
    } catch (const std::exception&) {  // a state the model's equations fail at (the run then ended there)
      std::fill(acceleration_values_.begin(), acceleration_values_.end(), std::numeric_limits<double>::quiet_NaN());
    }
    values.insert(values.end(), acceleration_values_.begin(), acceleration_values_.end());
  }
  values.insert(values.end(), energies, row.end());
  if (extra_outputs_) {
    extra_outputs_(layout, row, extra_values_);
    values.insert(values.end(), extra_values_.begin(), extra_values_.end());
  }
  ++rows_appended_;
  last_t_appended_ = row[0];
}

bool HistoryRows::append_last(const Audit& audit, std::vector<double>& values) {
  const std::span<const double> last = audit.last_row();
  if (last.empty() || (rows_appended_ > 0 && last[0] == last_t_appended_)) return false;
  append(audit.layout(), last, values);
  return true;
}

}  // namespace energy_audit::studies
