#pragma once
/// \file
/// What `energy-audit stability` prints and writes: for each method and step the linear
/// interval, rho(k) = 1, the operational boundaries per start and the verdicts the map found;
/// the map as CSV (one row per run) and JSON; the plot of verdicts against k and τ.

#include <ostream>
#include <string>

#include <energy_audit/studies/stability_map.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

void print_stability_map(std::ostream& out, const std::string& model, const StabilityMap& map);
void write_stability_csv(OutputFile& file, const StabilityMap& map);
void write_stability_json(OutputFile& file, const std::string& model, const StabilityMap& map);
/// One panel per method: the verdict of every run at (k, τ), both starts side by side, and the
/// linear limits z*/τ and −d/τ as lines; drawn by gnuplot (plots.hpp).
void plot_stability_map(OutputFile& png, const std::string& model, const StabilityMap& map);

}  // namespace energy_audit::cli
