#pragma once
/// \file
/// What the command line prints and writes: the run summary, the JSON record, the history CSV
/// and the comparison table.

#include <ostream>
#include <string>
#include <vector>

#include "model_registry.hpp"
#include "run_model.hpp"

namespace energy_audit::cli {

void print_summary(std::ostream& out, const RunOutcome& run);
void write_json(const std::string& path, const ModelEntry& model, const RunOutcome& run);
/// Header t, coordinates by name, NAME_dot, T, T2, T1, T0, V, E, H, Z, C; one row per stored step.
void write_history_csv(const std::string& path, const ModelEntry& model, const RunOutcome& run);

/// One row of `compare`, with the observed order of δ_C against the previous run of its method
/// (with respect to the step, or to rtol for the adaptive methods).
struct ComparisonRow {
  RunOutcome run;
  double observed_order;  ///< NaN for a method's first run or when undefined
};

/// log(δ_prev / δ) / log(r_prev / r), NaN unless both δ are finite and > 0.
double observed_order(double resolution_prev, double delta_prev, double resolution, double delta);
void print_comparison(std::ostream& out, const std::vector<ComparisonRow>& rows);
void write_comparison_csv(const std::string& path, const std::vector<ComparisonRow>& rows);

}  // namespace energy_audit::cli
