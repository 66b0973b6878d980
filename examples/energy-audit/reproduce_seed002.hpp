#pragma once
/// \file
/// `energy-audit reproduce seed002`: seed 002's trolley crane (`crane`, the paper's parameters and
/// start) run as the paper runs it, with Euler–Cromer and RK2 (Heun) at h = 1e-3 over t = 0…5 s,
/// beside the same two methods at h/2 (the observed orders) and an rk4 reference at h/10. Prints
/// the runs' work, data and δ_C, then each of the paper's claims with what the runs show.

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "output_file.hpp"
#include "reproduce_seed001.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

/// One run of seed 002's crane, with its deviation from the reference run.
struct Seed002Run {
  std::string method;
  double step = 0;
  /// The values one step writes in the paper's scheme (its eqs. 21 and 22): Euler–Cromer ÿ, ẏ
  /// and y of x1 and φ (6), RK2 y1…y4 and the increments k11…k42 (12); 0 for the reference.
  std::size_t values_per_step = 0;
  RunOutcome run;
  double max_error_x1 = 0;   ///< sup_t |x1 − x1 of the reference| [m], NaN when not compared
  double max_error_phi = 0;  ///< sup_t |φ − φ of the reference| [rad], NaN when not compared

  double delta_C() const;
  /// steps × values_per_step: the values the paper's scheme writes over the whole run.
  std::size_t stored_values() const { return run.steps * values_per_step; }
};

struct Seed002Reproduction {
  /// euler-cromer and rk2 at h = 1e-3, the same at 5e-4, then the rk4 reference at 1e-4.
  std::vector<Seed002Run> runs;
  std::vector<ClaimCheck> claims;
  bool finished = false;  ///< every run finished (the claims are checked only then)
};

/// Runs seed 002's crane as the paper does, and checks its claims; stops before the next run
/// when `stop` is requested.
Seed002Reproduction reproduce_seed002(const StopRequest* stop);

void print_seed002(std::ostream& out, const Seed002Reproduction& reproduction);
/// The table of runs, one row per run.
void write_seed002_csv(OutputFile& file, const Seed002Reproduction& reproduction);
/// The runs and the claims.
void write_seed002_json(OutputFile& file, const Seed002Reproduction& reproduction);

/// The file names of the figures drawn into `directory`: fig2.png ... fig5.png.
std::vector<std::string> seed002_figure_paths(const std::string& directory);
/// Draws seed 002's figures 2–5 (trolley position, its phase portrait, crane angle, its phase
/// portrait) with both methods at h = 1e-3, one OutputFile per path, each committed once drawn.
void plot_seed002_figures(const std::vector<std::string>& paths, const Seed002Reproduction& reproduction);

}  // namespace energy_audit::cli
