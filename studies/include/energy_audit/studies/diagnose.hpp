#pragma once
/// \file
/// Diagnose (`energy-audit diagnose`): one method run at a ladder of steps h, h/2, h/4, … (an
/// adaptive method at rtol, rtol/10, …), the ladder's δ_C read by the drift ladder's classifier
/// (drift_ladder.hpp) — step error, model error, round-off, within the threshold, or not yet
/// decided — and, for a step error or a ladder within the threshold, the step (rtol) that meets
/// the threshold found by the advisor's search (step_advisor.hpp). An equation check that fails
/// at the finest level is a model error whatever the ladder shows. A model error carries what
/// the finest level's run knows of it (model_error_evidence.hpp). The ladder's runs are
/// independent and run on the pool (threads, or the ranks of an MPI job).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/drift_ladder.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/step_advisor.hpp>

namespace energy_audit::studies {

struct DiagnoseSettings {
  /// The method, and the ladder's first level: base.step (a fixed-step method) or
  /// base.adaptive.rtol (an adaptive one); the threshold is base.audit.threshold.
  RunSettings base;
  std::size_t levels = 5;  ///< at least 3: the classifier needs two observed orders
  bool advise = true;      ///< a step error: search the step that meets the threshold
};

struct Diagnosis {
  std::string method;
  bool adaptive = false;
  int order = 0;          ///< the method's order (0: adaptive)
  double threshold = 0;   ///< δ_C
  /// The ladder's runs, coarsest first, each a probe of the advisor's (probe_run); a level not run
  /// (interrupted before it) has its resolution and an empty `end`.
  std::vector<Probe> levels;
  DriftClassification classification;
  std::optional<MethodAdvice> advice;  ///< a step error or a ladder within the threshold: the advisor's search
  std::string equations;               ///< the equations integrated (integrated_equations)
  /// A model error: what the finest finished level's run knows of it.
  std::optional<ModelErrorEvidence> evidence;
  Workers workers;
  bool interrupted = false;
  /// One line: the classification's, with the advisor's answer and its warning.
  std::string verdict() const;
  /// What to do about it (docs/command-line.md, diagnose), one sentence.
  std::string what_to_do() const;
};

/// Throws SettingsError for settings a run of the ladder refuses (its coarsest and its finest
/// level are checked), for fewer than 3 levels, and for relaxation (it holds C at round-off
/// whatever the step, so δ_C no longer measures the step's error).
void check_diagnosis(const ModelEntry& model, const ModelSetup& setup, const DiagnoseSettings& settings);

/// The ladder of `settings`, checked (check_diagnosis), run on `pool`, classified.
Diagnosis diagnose(const ModelEntry& model, const ModelSetup& setup, const DiagnoseSettings& settings,
                   const RunPool& pool);


}  // namespace energy_audit::studies
