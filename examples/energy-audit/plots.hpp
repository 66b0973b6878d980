#pragma once
/// \file
/// Plots of a comparison, drawn by gnuplot (Debian package gnuplot-nox) as PNG files.

#include <string>
#include <vector>

#include "report.hpp"

namespace energy_audit::cli {

/// Work–precision diagram: δ_C against right-hand-side evaluations, log–log, one line per method.
void plot_work_precision(const std::string& png_path, const std::string& model,
                         const std::vector<ComparisonRow>& rows);

/// |C(t) − C(t0)| of every run that kept a history, log scale, one line per run.
void plot_control_drift(const std::string& png_path, const std::string& model,
                        const std::vector<ComparisonRow>& rows);

}  // namespace energy_audit::cli
