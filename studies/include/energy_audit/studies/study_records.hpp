#pragma once
/// \file
/// The records of the studies' results as JSON objects: what `energy-audit sweep --json`,
/// `advise --json`, `diagnose --json` and `stability --json` write (docs/command-line.md) and what the Python
/// module returns as NumPy columns (docs/python.md). Numbers keep every bit; a value that is
/// absent or not finite is null, except where the record spells an infinite drift "inf".

#include <string>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/compare.hpp>
#include <energy_audit/studies/diagnose.hpp>
#include <energy_audit/studies/drift_ladder.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/stability_map.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#include <energy_audit/studies/sweep.hpp>

namespace energy_audit::studies {

/// A comparison: the model, its form, the runs planned, what ran them, whether it was stopped
/// early, and one object per row with the keys of the comparison CSV's columns (method, step,
/// rtol, delta_C, equation_residual, verdict, steps, rhs_evals, wall_seconds, observed_order;
/// null where the CSV leaves a cell empty).
nlohmann::ordered_json comparison_record(const std::string& model, Form form, const Comparison& comparison);

/// A sweep: the model, what ran it, whether it was stopped early, and one object per run.
nlohmann::ordered_json sweep_record(const std::string& model, const SweepResult& sweep);

/// A classification of a ladder of (resolution, δ_C) pairs: kind, order, plateau, plateau_from,
/// floor, floor_at, estimated_resolution, round_off_bound (each null where it does not apply),
/// all_meet_threshold, observed_orders (between neighbouring finished levels, coarsest first),
/// unfinished (levels left out), explanation.
nlohmann::ordered_json drift_classification_record(const DriftClassification& classification);

/// A diagnosis: the method, the threshold, one object per level of the ladder (resolution,
/// delta_C, observed_order to the next finer level, rhs_evals, end, finished), the kind ("step
/// error", "model error", "round-off", "within threshold", "undecided") and the rest of the
/// classification's record, the advisor's answer, the equations integrated and a model error's
/// evidence (model_error_evidence.hpp), the verdict line, what to do, what ran it.
nlohmann::ordered_json diagnosis_record(const std::string& model, const Diagnosis& diagnosis);

/// The advice: the targets, one object per method with its answer, the next larger step and
/// every probe, the recommended method, what ran the searches, whether they were stopped early.
nlohmann::ordered_json advice_record(const std::string& model, const AdviceSettings& settings, const Advice& advice);

/// A stability map: what ran it, the summaries of each method and step, and the runs of the map.
nlohmann::ordered_json stability_record(const std::string& model, const StabilityMap& map);

/// The work ledger of an audited run (work_ledger.hpp; docs/mathematics.md, the work ledger):
/// {"forces": {NAME: W [J]}, "explicit_time_work", "Z" (the integrator's, at the last step),
/// "ledger_Z" (W_explicit − Σ W), "residual_work" (C − C0), "suspect": {"force", "correlation",
/// "ratio"} or null, "suspect_min_correlation"}; null when the model names no forces.
nlohmann::ordered_json work_ledger_record(const Audit& audit);

}  // namespace energy_audit::studies
