#include <energy_audit/studies/history_rows.hpp>

#include <algorithm>
#include <exception>
#include <limits>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

SecondHalf second_half(const ModelEntry& model, Form form, const std::vector<std::string>& independent) {
  const FormTraits& traits = form_traits(form);
  if (traits.second_half_names == SecondHalfNames::IndependentVelocities) return {traits.second_half, independent};
  return {traits.second_half, model.coordinate_names};
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

/// Calls `function` into `values`; NaN in every value where the model fails at the row's state
/// (a run that failed there ended at that state).
void evaluate_at_row(const ExtraOutputFunction& function, const HistoryLayout& layout, std::span<const double> row,
                     std::vector<double>& values) {
  try {
    function(layout, row, values);
  } catch (const std::exception&) {
    std::fill(values.begin(), values.end(), std::numeric_limits<double>::quiet_NaN());
  }
}

}  // namespace

void check_diagnosis_columns(const ModelEntry& model, Form form, const DiagnosisColumns& columns,
                             const OptionNames& names) {
  if (columns.equation_residuals && !(model.checks_equations(form) && model.equation_residual_function)) {
    throw SettingsError(names("equation-columns") + ": model " + model.name + " in the " + form_name(form) +
                        " form has no equation check (only hand-derived accelerations and equation errors are checked)");
  }
  if (columns.work_ledger && !model.force_power_function) {
    throw SettingsError(names("ledger-columns") + ": model " + model.name + " names no forces (see docs/mathematics.md, the work ledger)");
  }
}

HistoryRows::HistoryRows(const ModelEntry& model, const ModelSetup& setup, Form form,
                         const std::vector<std::string>& independent, const DiagnosisColumns& diagnosis,
                         const OptionNames& names)
    : columns_(history_columns(model, form, independent)) {
  check_diagnosis_columns(model, form, diagnosis, names);
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
  if (diagnosis.equation_residuals) {
    equation_residuals_ = model.equation_residual_function(setup, form, independent);
    equation_values_.resize(model.coordinate_names.size());
    for (const std::string& name : model.coordinate_names) columns_.push_back("eq_" + name);
  }
  if (diagnosis.work_ledger) {
    force_powers_ = model.force_power_function(setup, form, independent);
    const std::size_t forces = model.force_names.size();
    power_values_.resize(forces);
    works_.assign(forces, 0.0);
    previous_powers_.assign(forces, 0.0);
    for (const char* prefix : {"P_", "W_"}) {
      for (const std::string& name : model.force_names) columns_.push_back(prefix + name);
    }
    columns_.emplace_back("dC_dt");
  }
}

void HistoryRows::append(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values) {
  const auto energies = row.begin() + static_cast<long>(layout.energy_offset());
  values.insert(values.end(), row.begin(), energies);
  if (accelerations_) {
    evaluate_at_row(accelerations_, layout, row, acceleration_values_);
    values.insert(values.end(), acceleration_values_.begin(), acceleration_values_.end());
  }
  values.insert(values.end(), energies, row.end());
  if (extra_outputs_) {
    extra_outputs_(layout, row, extra_values_);
    values.insert(values.end(), extra_values_.begin(), extra_values_.end());
  }
  if (equation_residuals_) {
    evaluate_at_row(equation_residuals_, layout, row, equation_values_);
    values.insert(values.end(), equation_values_.begin(), equation_values_.end());
  }
  if (force_powers_) append_ledger(layout, row, values);
  ++rows_appended_;
  last_t_appended_ = row[0];
}

void HistoryRows::append_ledger(const HistoryLayout& layout, std::span<const double> row, std::vector<double>& values) {
  evaluate_at_row(force_powers_, layout, row, power_values_);
  const double t = row[0], C = row[layout.multiplier_offset() - 1];
  double C_rate = std::numeric_limits<double>::quiet_NaN();
  if (rows_appended_ > 0) {
    const double h = t - last_t_appended_;
    for (std::size_t k = 0; k < works_.size(); ++k) works_[k] += 0.5 * h * (previous_powers_[k] + power_values_[k]);
    if (h > 0) C_rate = (C - previous_C_) / h;
  }
  values.insert(values.end(), power_values_.begin(), power_values_.end());
  values.insert(values.end(), works_.begin(), works_.end());
  values.push_back(C_rate);
  previous_powers_ = power_values_;
  previous_C_ = C;
}

bool HistoryRows::append_last(const Audit& audit, std::vector<double>& values) {
  const std::span<const double> last = audit.last_row();
  if (last.empty() || (rows_appended_ > 0 && last[0] == last_t_appended_)) return false;
  append(audit.layout(), last, values);
  return true;
}

}  // namespace energy_audit::studies
