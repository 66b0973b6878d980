#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/studies/adaptive_setting_names.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>
#include <energy_audit/studies/study_records.hpp>
#include <energy_audit/studies/transferable.hpp>

#include "number_text.hpp"

namespace energy_audit::cli {
namespace {

using Json = nlohmann::ordered_json;

Json counters_json(const energy_audit::SolverCounters& c) {
  Json j;
  j["steps"] = c.steps;
  j["rhs_evals"] = c.rhs_evaluations;
  j["rhs_evals_jacobian"] = c.jacobian_rhs_evaluations;
  j["jac_evals"] = c.jacobian_evaluations;
  j["nonlinear_iterations"] = c.nonlinear_iterations;
  j["nonlinear_conv_fails"] = c.nonlinear_convergence_failures;
  j["error_test_fails"] = c.error_test_failures;
  j["quadrature_rhs_evals"] = c.quadrature_rhs_evaluations;
  if (c.relaxed) {  // only a relaxed run has them: the record of any other stays as it is
    Json relaxation;
    relaxation["energy_evals"] = c.relaxation.energy_evaluations;
    relaxation["gradient_evals"] = c.relaxation.gradient_evaluations;
    relaxation["fails"] = c.relaxation.failures;
    relaxation["solver_iterations"] = c.relaxation.solver_iterations;
    j["relaxation"] = relaxation;
  }
  return j;
}

/// {NAME: value} of the model's extra outputs.
Json extra_outputs_json(const std::vector<std::string>& names, const std::vector<double>& values) {
  Json j = Json::object();
  for (std::size_t k = 0; k < names.size(); ++k) j[names[k]] = values[k];
  return j;
}

Json final_state_json(const ModelEntry& model, const RunOutcome& run, const HistoryLayout& layout,
                      std::span<const double> row) {
  const std::size_t n = layout.dofs;
  const SecondHalf w = second_half(model, run.form, run.independent);
  Json j;
  j["t"] = row[0];
  j["q"] = Json::object();
  j[w.key] = Json::object();
  for (std::size_t i = 0; i < n; ++i) j["q"][model.coordinate_names[i]] = row[1 + i];
  for (std::size_t i = 0; i < layout.second_half && i < w.names.size(); ++i) j[w.key][w.names[i]] = row[1 + n + i];
  for (std::size_t c = 0; c < History::energy_column_count; ++c) {
    const std::string name = History::energy_columns[c];
    if (name == "T" || name == "V" || name == "E" || name == "H" || name == "Z" || name == "C") {
      j[name] = row[layout.energy_offset() + c];
    }
  }
  if (layout.multipliers == model.multiplier_names.size()) {
    j["multipliers"] = Json::object();
    for (std::size_t k = 0; k < layout.multipliers; ++k) {
      j["multipliers"][model.multiplier_names[k]] = row[layout.multiplier_offset() + k];
    }
  }
  if (run.extra_outputs && run.extra_outputs->states > 0) {  // the values at this row's state
    j["extra"] = extra_outputs_json(run.extra_outputs->names, run.extra_outputs->last);
  }
  return j;
}

/// A time, or null where there is none (NaN).
Json time_json(double t) { return std::isnan(t) ? Json(nullptr) : Json(t); }

/// When δ_C is above its threshold: where |C − C0| first exceeded it and where it rose fastest
/// (docs/mathematics.md, when the drift appears).
void print_drift_onset(std::ostream& out, const Audit& audit) {
  if (!(audit.relative_drift() > audit.threshold())) return;
  out << "           |C - C0| first above the threshold at t = "
      << printf_text("%g", audit.time_first_above_threshold()) << ", grows fastest at t = "
      << printf_text("%g", audit.time_of_fastest_growth()) << "\n";
}

/// When the equation check fails: the equation of each coordinate above the threshold, the
/// largest first (docs/mathematics.md, the equation check).
void print_coordinate_equations(std::ostream& out, const ModelEntry& model, const EquationCheck& check) {
  if (check.passed()) return;
  const std::vector<CoordinateResidual> coordinates = check.coordinate_residuals();
  std::vector<std::size_t> order(coordinates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) {
    return coordinates[a].relative_residual > coordinates[b].relative_residual;
  });
  for (const std::size_t i : order) {
    const CoordinateResidual& c = coordinates[i];
    if (!(c.relative_residual > check.threshold())) continue;
    out << "           equation of " << coordinate_name(model, i) << ": relative residual "
        << printf_text("%.3e", c.relative_residual) << ", first above " << printf_text("%g", check.threshold())
        << " at t = " << printf_text("%g", c.first_above_threshold) << ", largest at t = "
        << printf_text("%g", c.time_of_largest) << "\n";
  }
}

/// {NAME: {relative_residual, first_above_threshold, largest_at}} for each coordinate's equation.
Json coordinate_equations_json(const ModelEntry& model, const EquationCheck& check) {
  Json j = Json::object();
  const std::vector<CoordinateResidual> coordinates = check.coordinate_residuals();
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    j[coordinate_name(model, i)] = {{"relative_residual", coordinates[i].relative_residual},
                                    {"first_above_threshold", time_json(coordinates[i].first_above_threshold)},
                                    {"largest_at", time_json(coordinates[i].time_of_largest)}};
  }
  return j;
}

/// The work ledger's lines (docs/command-line.md, the work ledger): each named force's work and
/// its share of Z, the explicit time dependence's when it did work, and, where δ_C fails, the
/// residual work C − C0 with the named force whose power has the residual power's shape, or
/// none. Nothing for a model that names no forces.
void print_work_ledger(std::ostream& out, const Audit& audit) {
  const Json ledger = work_ledger_record(audit);
  if (ledger.is_null()) return;
  const double Z = ledger["Z"].is_number() ? ledger["Z"].get<double>() : NAN;
  // A share is printed of a Z that stands out of round-off, whose quotients would be noise: above
  // 1000 epsilon of the energy scale (the round-off a sum over some 10^6 steps gathers), and above
  // sqrt(epsilon) of the works' size, which a Z left where large works cancel (or a run that blew
  // up) is not.
  constexpr double epsilon = std::numeric_limits<double>::epsilon();
  double works_size = std::abs(ledger["explicit_time_work"].get<double>());
  for (const auto& [name, work] : ledger["forces"].items()) works_size += std::abs(work.get<double>());
  const bool Z_resolved = std::isfinite(Z) && std::isfinite(works_size) &&
                          std::abs(Z) > 1e3 * epsilon * audit.energy_scale() &&
                          std::abs(Z) > std::sqrt(epsilon) * works_size;
  const auto share = [Z, Z_resolved](double contribution) {
    return Z_resolved ? " (share of Z " + printf_text("%+.1f", 100 * contribution / Z) + " %)" : std::string();
  };
  for (const auto& [name, work] : ledger["forces"].items()) {
    out << "work       W_" << name << " = " << printf_text("%+.6g", work.get<double>()) << " J"
        << share(-work.get<double>()) << "\n";
  }
  const double explicit_work = ledger["explicit_time_work"].get<double>();
  if (explicit_work != 0) {
    out << "work       W_explicit_time = " << printf_text("%+.6g", explicit_work) << " J" << share(explicit_work) << "\n";
  }
  if (audit.relative_drift() <= audit.threshold()) return;
  out << "residual   C - C0 = " << printf_text("%+.6g", ledger["residual_work"].is_number() ? ledger["residual_work"].get<double>() : NAN)
      << " J not accounted for by T, V and the ledger; ";
  if (ledger["suspect"].is_null()) {
    out << "no named force's power correlates with dC/dt at " << printf_text("%g", default_suspect_correlation)
        << " or more: the residual work is not explained by any named force\n";
  } else {
    const Json& suspect = ledger["suspect"];
    out << "dC/dt has the shape of " << suspect["force"].get<std::string>() << "'s power (correlation "
        << printf_text("%.4f", suspect["correlation"].get<double>()) << ", dC/dt = "
        << printf_text("%.4g", suspect["ratio"].get<double>()) << " x its power)\n";
  }
}

}  // namespace

void print_summary(std::ostream& out, const ModelEntry& model, const RunOutcome& run) {
  out << "model      " << run.model << "\n"
      << "form       " << form_name(run.form) << ": " << integrated_equations(model, run.form) << "\n"
      << "method     " << run.method.name << "\n";
  if (run.method.adaptive()) {
    out << "tolerances rtol " << printf_text("%g", run.adaptive.rtol) << ", atol " << printf_text("%g", run.adaptive.atol)
        << (run.audit ? std::string(", Z as ") + studies::z_mode_name(run.adaptive.z_mode) : std::string(", Z not carried"))
        << "\n";
  } else {
    out << "step       " << printf_text("%g", run.step) << "\n";
  }
  if (!run.table.empty()) out << "table      " << run.table << "\n";
  if (run.phase) out << "phase      " << phase_name(*run.phase) << "\n";
  out << "interval   [" << printf_text("%g", run.interval.t0) << ", " << printf_text("%g", run.interval.t_end) << "]\n";
  if (!run.finished()) out << "stopped    " << run.stop_description() << "\n";
  out << "steps      " << run.steps << "\n"
      << "rhs evals  " << run.rhs_evaluations << "\n";
  if (run.solver_counters) {
    const energy_audit::SolverCounters& c = *run.solver_counters;
    out << "sundials   " << c.jacobian_evaluations << " Jacobian evals, " << c.nonlinear_iterations
        << " nonlinear iterations, " << c.error_test_failures << " error-test failures\n";
    if (c.relaxed) {
      out << "relaxation " << c.relaxation.energy_evaluations << " H evals, " << c.relaxation.gradient_evaluations
          << " gradient evals, " << c.relaxation.failures << " failures (each step scaled to conserve H)\n";
    }
  }
  if (run.audit && run.audit->max_constraint_drift()) {
    const ConstraintDrift d = *run.audit->max_constraint_drift();
    out << "constraint max |Phi| " << printf_text("%.3e", d.position) << ", max |G v + g| " << printf_text("%.3e", d.velocity)
        << " (threshold " << printf_text("%g", run.audit->drift_threshold()) << ", stabilization "
        << stabilization_name(run.stabilization) << ")\n";
  }
  if (run.audit) {  // a rope's multiplier that changes sign would have to push: the rope goes slack
    const std::vector<double>& changes = run.audit->multiplier_sign_changes();
    for (std::size_t k = 0; k < changes.size() && k < model.multiplier_names.size(); ++k) {
      const std::string& name = model.multiplier_names[k];
      if (std::isnan(changes[k]) || std::ranges::find(model.one_sided_multipliers, name) == model.one_sided_multipliers.end()) {
        continue;
      }
      out << "slack      " << name << " changes sign first at t = " << printf_text("%g", changes[k])
          << ": the constraint would have to push where it can only pull (or the reverse)\n";
    }
  }
  out << "delta_C    " << (run.audit ? printf_text("%.3e", run.audit->relative_drift()) : "- (audit off)") << "\n";
  if (run.audit) print_drift_onset(out, *run.audit);
  if (run.audit && run.audit->equation_check().checked_steps() > 0) {
    const EquationCheck& check = run.audit->equation_check();
    out << "equations  relative residual " << printf_text("%.3e", check.relative_residual()) << " at "
        << check.checked_steps() << " checked steps (threshold " << printf_text("%g", check.threshold()) << ")\n";
    print_coordinate_equations(out, model, check);
  }
  if (run.audit) print_work_ledger(out, *run.audit);
  if (run.extra_outputs && run.extra_outputs->states > 0) {
    const ExtraOutputRecord& extra = *run.extra_outputs;
    for (std::size_t k = 0; k < extra.names.size(); ++k) {
      const std::string& name = extra.names[k];
      out << "extra      " << name << " = " << printf_text("%.6e", extra.last[k]) << " at t = "
          << printf_text("%g", run.audit->t_reached()) << ", max |" << name << " - " << name
          << "(t0)| = " << printf_text("%.3e", extra.max_abs_change[k]) << "\n";
    }
  }
  out << "verdict    " << run.verdict();
  if (run.audit && run.finished()) {
    out << " (delta_C threshold " << printf_text("%g", run.audit->threshold());
    if (!run.audit->constraint_drift_within_threshold()) out << "; constraint drift above its threshold";
    // The equations of motion disagree with T, V and f whatever the step: the answer a ladder of
    // steps would give (energy-audit diagnose) is known already.
    if (!run.audit->equation_check().passed()) out << "; equations' residual above its threshold: model error";
    out << ")";
  }
  out << "\n"
      << "wall time  " << printf_text("%.4f", run.wall_seconds) << " s\n";
}

void write_json(OutputFile& file, const ModelEntry& model, const RunOutcome& run) {
  const Audit* audit = run.audit ? &*run.audit : nullptr;
  Json j;
  j["model"] = run.model;
  j["form"] = form_name(run.form);
  j["integrated_equations"] = integrated_equations(model, run.form);
  if (form_traits(run.form).second_half_names == SecondHalfNames::IndependentVelocities) {
    j["independent"] = run.independent;
  }
  j["method"] = run.method.name;
  j["step"] = run.method.adaptive() ? Json(nullptr) : Json(run.step);
  if (run.method.adaptive()) {
    j["rtol"] = run.adaptive.rtol;
    j["atol"] = run.adaptive.atol;
    j["z_as"] = audit ? Json(studies::z_mode_name(run.adaptive.z_mode)) : Json(nullptr);
  }
  if (!run.table.empty()) j["table"] = run.table;
  j["t0"] = run.interval.t0;
  j["t_end"] = run.interval.t_end;
  j["end"] = run_end_name(run.end);
  j["t_reached"] = run.t_reached;
  j["steps"] = run.steps;
  j["rhs_evals"] = run.rhs_evaluations;
  if (run.solver_counters) j["sundials"] = counters_json(*run.solver_counters);
  j["audited"] = audit != nullptr;
  j["delta_C"] = audit ? Json(audit->relative_drift()) : Json(nullptr);
  j["threshold"] = audit ? Json(audit->threshold()) : Json(nullptr);
  if (audit && audit->equation_check().checked_steps() > 0) {
    const EquationCheck& check = audit->equation_check();
    j["equation_check"] = {{"relative_residual", check.relative_residual()},
                           {"max_residual", check.max_residual()},
                           {"scale", check.scale()},
                           {"checked_steps", check.checked_steps()},
                           {"threshold", check.threshold()},
                           {"coordinates", coordinate_equations_json(model, check)}};
  } else {
    j["equation_check"] = nullptr;
  }
  if (audit && audit->work_ledger()) j["work_ledger"] = work_ledger_record(*audit);
  j["verdict"] = audit || !run.finished() ? Json(run.verdict()) : Json(nullptr);
  if (run.end == RunEnd::Diverged) j["diverged_at"] = run.t_diverged;
  if (run.end == RunEnd::Error) j["error"] = run.error;
  if (model.has_multipliers()) {
    j["stabilization"] = stabilization_name(run.stabilization);
    j["phase"] = run.phase ? Json(phase_name(*run.phase)) : Json(nullptr);
    if (run.stabilization == Stabilization::Baumgarte) {
      j["baumgarte"] = {{"alpha", run.baumgarte.alpha}, {"beta", run.baumgarte.beta}};
    }
    const auto drift = audit ? audit->max_constraint_drift() : std::nullopt;
    if (drift) {
      j["max_constraint_drift"] = {{"position", drift->position}, {"velocity", drift->velocity}};
    } else {
      j["max_constraint_drift"] = nullptr;
    }
    j["drift_threshold"] = audit ? Json(audit->drift_threshold()) : Json(nullptr);
    if (audit) {
      Json changes = Json::object();
      for (std::size_t k = 0; k < model.multiplier_names.size(); ++k) {
        const double t = k < audit->multiplier_sign_changes().size() ? audit->multiplier_sign_changes()[k] : NAN;
        changes[model.multiplier_names[k]] = std::isnan(t) ? Json(nullptr) : Json(t);
      }
      j["multiplier_sign_changes"] = changes;
    } else {
      j["multiplier_sign_changes"] = nullptr;
    }
  }
  j["C0"] = audit ? Json(audit->initial_control()) : Json(nullptr);
  j["max_abs_dC"] = audit ? Json(audit->max_abs_drift()) : Json(nullptr);
  j["energy_scale"] = audit ? Json(audit->energy_scale()) : Json(nullptr);
  j["dC_first_above_threshold"] = audit ? time_json(audit->time_first_above_threshold()) : Json(nullptr);
  j["dC_fastest_growth_at"] = audit ? time_json(audit->time_of_fastest_growth()) : Json(nullptr);
  if (!model.extra_output_names.empty()) {
    j["extra_max_abs_change"] = run.extra_outputs && run.extra_outputs->states > 0
                                    ? extra_outputs_json(run.extra_outputs->names, run.extra_outputs->max_abs_change)
                                    : Json(nullptr);
  }
  j["wall_seconds"] = run.wall_seconds;
  j["params"] = Json::object();
  for (const Assignment& p : run.parameters) j["params"][p.name] = p.value;
  j["final"] = audit && !audit->last_row().empty() ? final_state_json(model, run, audit->layout(), audit->last_row())
                                                   : Json(nullptr);
  file.write(j.dump(2));
  file.write("\n");
}

HistoryCsv::HistoryCsv(OutputFile& file, const ModelEntry& model, const ModelSetup& setup, Form form,
                       const std::vector<std::string>& independent, const DiagnosisColumns& diagnosis)
    : file_(file), rows_(model, setup, form, independent, diagnosis) {
  std::string header;
  for (const std::string& column : rows_.columns()) header += (header.empty() ? "" : ",") + column;
  file_.write(header + "\n");
}

RowSink HistoryCsv::sink() {
  return [this](const HistoryLayout& layout, std::span<const double> rows) {
    rows_.append_block(layout, rows, values_, [this] {
      write_values();
      values_.clear();
    });
  };
}

void HistoryCsv::finish(const Audit& audit) {
  values_.clear();
  if (rows_.append_last(audit, values_)) write_values();
}

void HistoryCsv::write_values() {
  line_.clear();
  for (const double value : values_) {
    if (!line_.empty()) line_ += ',';
    append_shortest_text(line_, value);
  }
  line_ += '\n';
  file_.write(line_);
}

void print_comparison(std::ostream& out, const std::vector<ComparisonRow>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%-14s %-8s %-8s %-10s %-10s %-11s %9s %10s %10s %6s\n", "method", "step", "rtol",
                "delta_C", "eq_resid", "verdict", "steps", "rhs_evals", "wall_s", "order");
  out << line;
  for (const ComparisonRow& row : rows) {
    std::snprintf(line, sizeof line, "%-14s %-8s %-8s %-10s %-10s %-11s %9zu %10zu %10.4f %6s\n", row.method.c_str(),
                  row.adaptive ? "-" : printf_text("%g", row.step).c_str(), row.adaptive ? printf_text("%g", row.rtol).c_str() : "-",
                  row.delta_C ? printf_text("%.3e", *row.delta_C).c_str() : "-",
                  row.equation_residual ? printf_text("%.3e", *row.equation_residual).c_str() : "-", row.verdict.c_str(),
                  row.steps, row.rhs_evaluations, row.wall_seconds,
                  std::isnan(row.observed_order) ? "-" : printf_text("%.2f", row.observed_order).c_str());
    out << line;
  }
  for (const ComparisonRow& row : rows) {  // where the runs that did not finish stopped
    if (row.finished) continue;
    out << row.method << (row.adaptive ? " rtol " : " step ") << printf_text("%g", row.resolution()) << ": "
        << row.stop_description << "\n";
  }
}

void write_comparison_csv(OutputFile& file, const std::vector<ComparisonRow>& rows) {
  std::string text = "method,step,rtol,delta_C,equation_residual,verdict,steps,rhs_evals,wall_seconds,observed_order\n";
  for (const ComparisonRow& row : rows) {
    text += row.method + ",";
    if (!row.adaptive) append_shortest_text(text, row.step);
    text += ",";
    if (row.adaptive) append_shortest_text(text, row.rtol);
    text += ",";
    if (row.delta_C) append_shortest_text(text, *row.delta_C);
    text += ",";
    if (row.equation_residual) append_shortest_text(text, *row.equation_residual);
    text += "," + row.verdict + "," + std::to_string(row.steps) + "," + std::to_string(row.rhs_evaluations) + ",";
    append_shortest_text(text, row.wall_seconds);
    text += ",";
    if (!std::isnan(row.observed_order)) append_shortest_text(text, row.observed_order);
    text += "\n";
  }
  file.write(text);
}

}  // namespace energy_audit::cli
