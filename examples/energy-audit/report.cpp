#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>

#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/history.hpp>

namespace energy_audit::cli {
namespace {

using Json = nlohmann::ordered_json;

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  return out;
}

void finish_writing(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
}

std::string format(const char* spec, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, spec, value);
  return buffer;
}

const char* z_mode_name(sun::ZMode mode) { return mode == sun::ZMode::State ? "state" : "quadrature"; }

Json counters_json(const sun::SolverCounters& c) {
  Json j;
  j["steps"] = c.steps;
  j["rhs_evals"] = c.rhs_evaluations;
  j["rhs_evals_jacobian"] = c.jacobian_rhs_evaluations;
  j["jac_evals"] = c.jacobian_evaluations;
  j["nonlinear_iterations"] = c.nonlinear_iterations;
  j["nonlinear_conv_fails"] = c.nonlinear_convergence_failures;
  j["error_test_fails"] = c.error_test_failures;
  j["quadrature_rhs_evals"] = c.quadrature_rhs_evaluations;
  return j;
}

Json final_state_json(const ModelEntry& model, const HistoryLayout& layout, std::span<const double> row) {
  const std::size_t n = layout.dofs;
  Json j;
  j["t"] = row[0];
  j["q"] = Json::object();
  j["v"] = Json::object();
  for (std::size_t i = 0; i < n; ++i) {
    j["q"][model.coordinate_names[i]] = row[1 + i];
    j["v"][model.coordinate_names[i]] = row[1 + n + i];
  }
  for (std::size_t c = 0; c < History::energy_column_count; ++c) {
    const std::string name = History::energy_columns[c];
    if (name == "T" || name == "V" || name == "E" || name == "H" || name == "Z" || name == "C") {
      j[name] = row[layout.energy_offset() + c];
    }
  }
  return j;
}

}  // namespace

void print_summary(std::ostream& out, const RunOutcome& run) {
  out << "model      " << run.model << "\n"
      << "method     " << run.method.name << "\n";
  if (run.method.adaptive()) {
    out << "tolerances rtol " << format("%g", run.cvodes.rtol) << ", atol " << format("%g", run.cvodes.atol)
        << (run.audit ? std::string(", Z as ") + z_mode_name(run.cvodes.z_mode) : std::string(", Z not carried"))
        << "\n";
  } else {
    out << "step       " << format("%g", run.step) << "\n";
  }
  out << "interval   [" << format("%g", run.interval.t0) << ", " << format("%g", run.interval.t_end) << "]\n"
      << "steps      " << run.steps << "\n"
      << "rhs evals  " << run.rhs_evaluations << "\n";
  if (run.solver_counters) {
    const sun::SolverCounters& c = *run.solver_counters;
    out << "sundials   " << c.jacobian_evaluations << " Jacobian evals, " << c.nonlinear_iterations
        << " nonlinear iterations, " << c.error_test_failures << " error-test failures\n";
  }
  if (run.audit && run.audit->max_constraint_drift()) {
    const ConstraintDrift d = *run.audit->max_constraint_drift();
    out << "constraint max |Phi| " << format("%.3e", d.position) << ", max |G v + g| " << format("%.3e", d.velocity)
        << " (stabilization " << stabilization_name(run.stabilization) << ")\n";
  }
  out << "delta_C    " << (run.audit ? format("%.3e", run.audit->relative_drift()) : "- (audit off)") << "\n"
      << "verdict    " << run.verdict();
  if (run.audit && run.finished()) out << " (threshold " << format("%g", run.audit->threshold()) << ")";
  out << "\n"
      << "wall time  " << format("%.4f", run.wall_seconds) << " s\n";
}

void write_json(const std::string& path, const ModelEntry& model, const RunOutcome& run) {
  const Audit& audit = *run.audit;
  Json j;
  j["model"] = run.model;
  j["method"] = run.method.name;
  j["step"] = run.method.adaptive() ? Json(nullptr) : Json(run.step);
  if (run.method.adaptive()) {
    j["rtol"] = run.cvodes.rtol;
    j["atol"] = run.cvodes.atol;
    j["z_as"] = z_mode_name(run.cvodes.z_mode);
  }
  j["t0"] = run.interval.t0;
  j["t_end"] = run.interval.t_end;
  j["steps"] = run.steps;
  j["rhs_evals"] = run.rhs_evaluations;
  if (run.solver_counters) j["sundials"] = counters_json(*run.solver_counters);
  j["delta_C"] = audit.relative_drift();
  j["threshold"] = audit.threshold();
  j["verdict"] = run.verdict();
  if (run.diverged_at) j["diverged_at"] = *run.diverged_at;
  if (!run.error.empty()) j["error"] = run.error;
  if (model.has_multipliers()) {
    j["stabilization"] = stabilization_name(run.stabilization);
    if (run.stabilization == Stabilization::Baumgarte) {
      j["baumgarte"] = {{"alpha", run.baumgarte.alpha}, {"beta", run.baumgarte.beta}};
    }
    if (const auto drift = audit.max_constraint_drift()) {
      j["max_constraint_drift"] = {{"position", drift->position}, {"velocity", drift->velocity}};
    } else {
      j["max_constraint_drift"] = nullptr;
    }
  }
  j["C0"] = audit.initial_control();
  j["max_abs_dC"] = audit.max_abs_drift();
  j["energy_scale"] = audit.energy_scale();
  j["wall_seconds"] = run.wall_seconds;
  j["params"] = Json::object();
  for (const Assignment& p : run.parameters) j["params"][p.name] = p.value;
  j["final"] = audit.last_row().empty() ? Json(nullptr) : final_state_json(model, audit.layout(), audit.last_row());

  std::ofstream out = open_for_writing(path);
  out << j.dump(2) << "\n";
  finish_writing(out, path);
}

void write_history_csv(const std::string& path, const ModelEntry& model, const RunOutcome& run) {
  std::ofstream out = open_for_writing(path);
  out << "t";
  for (const std::string& name : model.coordinate_names) out << "," << name;
  for (const std::string& name : model.coordinate_names) out << "," << name << "_dot";
  for (const char* name : History::energy_columns) out << "," << name;
  const HistoryLayout& layout = run.audit->layout();
  if (layout.multipliers == model.multiplier_names.size()) {
    for (const std::string& name : model.multiplier_names) out << "," << name;
  }
  if (layout.constraint_drift) {
    for (const char* name : History::drift_columns) out << "," << name;
  }
  out << "\n";
  const History& history = run.audit->history();
  for (std::size_t r = 0; r < history.rows(); ++r) {
    const auto row = history.row(r);
    for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << row[i];
    out << "\n";
  }
  finish_writing(out, path);
}

double observed_order(double resolution_prev, double delta_prev, double resolution, double delta) {
  const bool defined = std::isfinite(delta_prev) && std::isfinite(delta) && delta_prev > 0 && delta > 0 &&
                       resolution_prev != resolution;
  if (!defined) return std::numeric_limits<double>::quiet_NaN();
  return std::log(delta_prev / delta) / std::log(resolution_prev / resolution);
}

namespace {

double delta_of(const RunOutcome& run) {
  return run.audit ? run.audit->relative_drift() : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

void print_comparison(std::ostream& out, const std::vector<ComparisonRow>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%-14s %-8s %-8s %-10s %-9s %9s %10s %10s %6s\n", "method", "step", "rtol",
                "delta_C", "verdict", "steps", "rhs_evals", "wall_s", "order");
  out << line;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    const bool adaptive = run.method.adaptive();
    std::snprintf(line, sizeof line, "%-14s %-8s %-8s %-10s %-9s %9zu %10zu %10.4f %6s\n", run.method.name.c_str(),
                  adaptive ? "-" : format("%g", run.step).c_str(), adaptive ? format("%g", run.cvodes.rtol).c_str() : "-",
                  run.audit ? format("%.3e", delta_of(run)).c_str() : "-", run.verdict().c_str(), run.steps,
                  run.rhs_evaluations, run.wall_seconds,
                  std::isnan(row.observed_order) ? "-" : format("%.2f", row.observed_order).c_str());
    out << line;
  }
  for (const ComparisonRow& row : rows) {  // where the runs that did not finish stopped
    const RunOutcome& run = row.run;
    if (run.finished()) continue;
    out << run.method.name << (run.method.adaptive() ? " rtol " : " step ") << format("%g", run.resolution()) << ": "
        << (run.diverged_at ? "diverged at t = " + format("%g", *run.diverged_at) : run.error) << "\n";
  }
}

void write_comparison_csv(const std::string& path, const std::vector<ComparisonRow>& rows) {
  std::ofstream out = open_for_writing(path);
  out << "method,step,rtol,delta_C,verdict,steps,rhs_evals,wall_seconds,observed_order\n";
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    out << run.method.name << ",";
    if (!run.method.adaptive()) out << run.step;
    out << ",";
    if (run.method.adaptive()) out << run.cvodes.rtol;
    out << "," << delta_of(run) << "," << run.verdict() << "," << run.steps << "," << run.rhs_evaluations << ","
        << run.wall_seconds << ",";
    if (!std::isnan(row.observed_order)) out << row.observed_order;
    out << "\n";
  }
  finish_writing(out, path);
}

}  // namespace energy_audit::cli
