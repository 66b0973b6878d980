#pragma once
/// \file
/// How δ_C falls along a ladder of steps (h, h/2, h/4, …) or tolerances (rtol, rtol/10, …), and
/// what that says: a step error (δ_C falls at the method's order), a model error (δ_C stops
/// falling far above what rounding can give: the equations of motion do work that T, V and the
/// forces do not account for), round-off (δ_C at a floor within rounding's bound, or rising below
/// it), a ladder within its threshold at every level, or undecided (not yet in the asymptotic
/// range). The classifier is pure: it takes (resolution, δ_C) pairs from any source — the
/// studies' diagnose (diagnose.hpp), the drop-in, audit_trajectory, or runs of one's own. The
/// rule is stated in docs/mathematics.md, "Step error, model error, round-off".

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace energy_audit::studies {

/// One level of the ladder: a run at `resolution` (a fixed step h, or an adaptive method's rtol).
struct DriftPoint {
  double resolution = 0;
  double delta_C = 0;
  bool finished = true;  ///< a run that did not cover its interval is no evidence and is left out
  /// Steps the run took (0: unknown; a fixed step then takes span / resolution, the expectation's
  /// span). It sets the round-off bound of this level, ε N.
  double steps = 0;
};

/// Steps assumed for a point whose step count is unknown and whose step the interval does not
/// turn into one: the most steps a fixed-step run may take (run_model.hpp's max_fixed_steps).
inline constexpr double unknown_step_count = 1e9;

/// What the method promises and what the classifier accepts.
struct DriftExpectation {
  double order = 4;        ///< fixed step: the method's order p; adaptive: the slope in log rtol (1)
  bool adaptive = false;   ///< an rtol ladder: tolerance proportionality, δ_C ∝ rtol, not an integer order
  double threshold = 1e-3; ///< the δ_C a run must meet
  /// Step error, a fixed step: the observed orders over the finest two intervals are at least
  /// order − margin; an rtol ladder: the least-squares slope over every level is. Default (0): 1
  /// for a fixed step, 0.5 for an rtol ladder.
  double margin = 0;
  /// Plateau: a slope whose magnitude is at most this is "not falling" (δ_C changes by less than
  /// a factor 2^0.3 ≈ 1.23 per halving of h, 10^0.3 ≈ 2 per tenth of rtol).
  double plateau_slope = 0.3;
  /// Round-off: a finer level whose δ_C is at least this times the floor is a rise.
  double rise_factor = 2;
  /// t1 − t0 of the runs (0: unknown): a fixed-step level without a step count takes span / h steps.
  double span = 0;

  double margin_in_effect() const { return margin > 0 ? margin : (adaptive ? 0.5 : 1.0); }
};

enum class DriftKind { StepError, ModelError, RoundOff, WithinThreshold, Undecided };
/// "step error", "model error", "round-off", "within threshold", "undecided"
const char* drift_kind_name(DriftKind kind);

/// The largest relative drift rounding alone can give at `point`: ε N, ε the double's machine
/// epsilon and N its steps (the point's, span / h for a fixed step of known span, otherwise
/// unknown_step_count) — every step's rounding of C adding up in one direction.
double round_off_bound(const DriftPoint& point, const DriftExpectation& expectation);

struct DriftClassification {
  DriftKind kind = DriftKind::Undecided;
  std::vector<DriftPoint> levels;  ///< the finished levels, coarsest first
  std::size_t unfinished = 0;      ///< levels left out (their runs did not finish)
  /// observed_orders[i]: log(δ_i / δ_{i+1}) / log(r_i / r_{i+1}) between levels i and i + 1
  /// (positive while δ_C falls as the resolution shrinks; with halved steps, log2 of the ratio).
  std::vector<double> observed_orders;
  /// Step error (and undecided): the order observed — the mean of the finest two observed orders
  /// (a fixed step), the least-squares slope over every level (an rtol ladder).
  std::optional<double> order;
  std::optional<double> plateau;    ///< model error: δ_C at the finest level of the plateau
  std::optional<double> plateau_from;  ///< model error: the coarsest resolution of the plateau
  std::optional<double> floor;      ///< round-off: the smallest δ_C
  std::optional<double> floor_at;   ///< round-off: its resolution
  /// Step error: the resolution where δ_C ∝ r^order from the finest level meets the threshold
  /// (an extrapolation; the study's diagnose verifies it with the advisor).
  std::optional<double> estimated_resolution;
  /// The round-off bound (round_off_bound) at the finest finished level, against which a floor
  /// or a plateau is read; absent with fewer than 3 finished levels.
  std::optional<double> round_off_bound;
  bool all_meet_threshold = false;  ///< every finished level's δ_C is at most the threshold
  std::string explanation;          ///< one line
};

/// Classifies the ladder `points` (any order; sorted coarsest first). Fewer than 3 finished
/// levels: undecided.
DriftClassification classify_drift_ladder(std::vector<DriftPoint> points, const DriftExpectation& expectation);

}  // namespace energy_audit::studies
