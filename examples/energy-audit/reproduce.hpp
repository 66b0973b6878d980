#pragma once
/// \file
/// `energy-audit reproduce seed000`: the rows of seed 000's Table 1 that a model here corresponds
/// to, run with the paper's method and step where it gives them, beside the paper's δ_C. The
/// models are never adjusted to meet a number: where the paper is silent (a step, a path, which
/// sign was flipped) the row says so.

#include <cmath>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

/// One run that corresponds to a row (or rows) of the paper's table.
struct PaperRun {
  std::string_view items;    ///< Table 1's item numbers
  std::string_view figures;  ///< the paper's figures of this run
  std::string_view model;
  Form form;
  std::string_view method;
  double step;
  std::string_view paper_delta_C;  ///< as the paper prints it
  double paper_value;              ///< NaN when the paper's value cannot be attributed to this run
  std::string_view note;           ///< where the paper is silent or inconsistent, and what was chosen
};

/// The runs of seed 000's Table 1, in the table's figure order.
const std::vector<PaperRun>& seed000_runs();

struct ReproducedRun {
  PaperRun paper;
  RunOutcome run;  ///< with its whole history
  /// The paper's verdict (δ_C ≤ 1e-3) when its value is attributable, else empty.
  std::string paper_verdict() const;
  /// The row's note, with "verdicts differ" first when they do.
  std::string note() const;
};

/// Runs every PaperRun, stopping before the next one when `stop` is requested.
std::vector<ReproducedRun> reproduce(const std::vector<PaperRun>& runs, const StopRequest* stop);

void print_reproduction(std::ostream& out, const std::vector<ReproducedRun>& rows);
void write_reproduction_csv(OutputFile& file, const std::vector<ReproducedRun>& rows);
void write_reproduction_json(OutputFile& file, const std::vector<ReproducedRun>& rows);

/// The file names of the figures drawn into `directory`: fig2.png ... fig8.png.
std::vector<std::string> seed000_figure_paths(const std::string& directory);
/// Draws the C(t), E(t), Z(t) panels of seed 000's figures 2–8 from the runs' histories (gnuplot),
/// one OutputFile per path of seed000_figure_paths, each committed once drawn.
void plot_seed000_figures(const std::vector<std::string>& paths, const std::vector<ReproducedRun>& rows);

}  // namespace energy_audit::cli
