#pragma once
/// \file
/// Advise (`energy-audit advise`): for each method, the largest fixed step (for an adaptive method, the
/// loosest rtol) whose run meets a target — δ_C ≤ target and, for a multiplier model, max ‖Φ‖
/// and max ‖ψ‖ ≤ the drift target — over the model's interval, and the cheapest method.
///
/// The search brackets the answer on log h: from a start it multiplies the step by 4 while runs
/// meet the target (or divides it by 4 until one does), then halves the bracket in log h until
/// its ends are within 5 % of each other; the answer is the largest step seen to meet the target,
/// a run made, so it is verified. When shrinking the step stops lowering δ_C (a quarter of the
/// step gives more than half of δ_C) before the target is met, the target lies below the
/// round-off floor, and the advisor says so instead of searching on; only runs that finished
/// tell that: past a run that diverged, failed or was cut short the search shrinks on, down to
/// its smallest step (the interval / 1e7, rtol 1e-13). A δ_C that stops falling is round-off
/// only within rounding's bound ε N (drift_ladder.hpp's round_off_bound); far above it no step
/// removes it, and the advisor says that the model is at fault instead. The answer is rounded
/// down to two significant digits and that step run, so the value printed is the value run
/// (when the rounded step misses the target, the answer stays the unrounded step that met it, and
/// δ_C is not monotone there). When a step smaller than
/// the answer was seen to miss the target (or a larger one to meet it), δ_C is not monotone in h
/// near the answer, and the advisor says that too.

#include <optional>
#include <string>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::studies {

struct AdviceSettings {
  double target = 1e-6;        ///< δ_C
  double drift_target = 1e-6;  ///< multiplier models: max ‖Φ‖ and max ‖ψ‖ (0 for the others)
  RunSettings base;            ///< everything but the method and its step or rtol
  double smallest_step = 0;    ///< below it the search gives up (0: the interval / 1e7)
};

/// What one probe run gave.
struct Probe {
  double resolution = 0;  ///< h, or rtol
  double delta_C = 0;
  bool meets = false;
  std::size_t rhs_evaluations = 0;
  double wall_seconds = 0;
  std::string end;     ///< the run's verdict word ("pass", "fail", "diverged", ...); empty: not run
  bool finished = false;  ///< the run covered its interval (its δ_C says something about h)
  std::string missed;  ///< what missed the target: "delta_C", "the constraint drift", ...; empty when met
  std::size_t steps = 0;  ///< accepted steps
  ModelErrorEvidence evidence;  ///< which equations ran, and what the run knows of a model error
};

struct MethodAdvice {
  std::string method;
  bool adaptive = false;
  std::optional<Probe> answer;  ///< the largest step (loosest rtol) that met the target
  std::optional<Probe> next;    ///< the smallest larger one that missed it (the bracket's other end)
  bool round_off_floor = false;  ///< no step met the target: δ_C stopped falling above it, within rounding's bound
  /// No step met the target: δ_C stopped falling far above rounding's bound (a model error).
  bool model_error = false;
  bool not_monotone = false;
  std::string note;              ///< why there is no answer, or what was not monotone
  std::vector<Probe> probes;     ///< every run made, in order

  /// The resolutions of the probes that ended as `end` ("diverged", "error", "interrupted").
  std::vector<double> probes_ending(const std::string& end) const;
};

struct Advice {
  std::vector<MethodAdvice> methods;
  std::optional<std::size_t> recommended;  ///< the index of the cheapest answer (fewest rhs evaluations)
  Workers workers;                          ///< what ran the searches
  bool interrupted = false;
  std::string equations;  ///< the equations every run integrates (integrated_equations)
};

/// The run of `method` at `resolution` (h, or rtol) with the settings' base, and whether it meets
/// the targets: one probe of a search, and one level of a diagnosis's ladder (diagnose.hpp).
Probe probe_run(const ModelEntry& model, const ModelSetup& setup, const Method& method, double resolution,
                const AdviceSettings& settings);

/// `value` (> 0) rounded down to two significant digits: the largest double of the form
/// m × 10^e (10 ≤ m ≤ 99, as decimal text) that is at most `value`.
double two_significant_digits_down(double value);

/// The methods' searches, one per method, on `pool`.
Advice advise(const ModelEntry& model, const ModelSetup& setup, const std::vector<Method>& methods,
              const AdviceSettings& settings, const RunPool& pool);

/// MethodAdvice as JSON, for the searches to travel between ranks.
/// Probe as JSON, for the probes and a diagnosis's levels to travel between ranks.
void to_json(nlohmann::json& json, const Probe& probe);
void from_json(const nlohmann::json& json, Probe& probe);

void to_json(nlohmann::json& json, const MethodAdvice& advice);
void from_json(const nlohmann::json& json, MethodAdvice& advice);

}  // namespace energy_audit::studies
