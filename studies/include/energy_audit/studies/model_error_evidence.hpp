#pragma once
/// \file
/// What one run knows about a model error, in the words a diagnosis reports it: which equations
/// were integrated (the model's own, hand-derived, or derived from T, V and f), the equations of
/// the equation check above its threshold by coordinate name, when |C − C0| first crossed the
/// δ_C threshold, and the named force whose power has dC/dt's shape (the work ledger's suspect).
/// `run` prints the same facts (docs/command-line.md); a diagnosis carries them from its levels.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {

struct ModelEntry;

/// The name of coordinate i's equation: the model's name for the coordinate, q[i] without one.
std::string coordinate_name(const ModelEntry& model, std::size_t i);

/// Which equations a model integrates in `form`, for a line of text: "the model's hand-derived
/// accelerations", "Lagrange's equations derived from T, V and f", ... (integrated_equations).
std::string integrated_equations(const ModelEntry& model, Form form);

/// One equation of the equation check above its threshold.
struct FailingEquation {
  std::string coordinate;          ///< the coordinate's name (q[i] where the model names none)
  double relative_residual = 0;
  double first_above_threshold = 0;  ///< t
};

/// The named force whose power has dC/dt's shape (WorkLedger::suspect).
struct SuspectForceRecord {
  std::string force;
  double correlation = 0;
  double ratio = 0;  ///< dC/dt ≈ ratio × the force's power
};

struct ModelErrorEvidence {
  std::string equations;  ///< integrated_equations of the run's form
  bool equations_checked = false;  ///< whether the equation check ran (the model's own equations)
  double equation_residual = 0;    ///< the check's relative residual (equations_checked)
  double equation_threshold = 0;
  std::vector<FailingEquation> failing_equations;  ///< above the threshold, the largest first
  /// When |C − C0| first rose above threshold × the energy scale; absent while it has not.
  std::optional<double> first_above_threshold;
  /// Models with a work ledger, when δ_C is above its threshold: C − C0 at the end [J], the work
  /// T, V and the named forces do not account for.
  std::optional<double> residual_work;
  std::optional<SuspectForceRecord> suspect;  ///< with residual_work: the force that explains it, if one does

  bool equation_check_failed() const { return !failing_equations.empty(); }
};

/// The evidence of `run` (an audited run of `model`; an unaudited one gives the equations only).
ModelErrorEvidence model_error_evidence(const ModelEntry& model, const RunOutcome& run);

/// One line: the failing equations with their residuals, the first crossing, the suspect force;
/// empty when there is nothing to tell.
std::string evidence_text(const ModelErrorEvidence& evidence);

void to_json(nlohmann::json& json, const ModelErrorEvidence& evidence);
void from_json(const nlohmann::json& json, ModelErrorEvidence& evidence);

}  // namespace energy_audit::studies
