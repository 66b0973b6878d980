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

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
  out << std::setprecision(std::numeric_limits<double>::max_digits10);
  return out;
}

std::string format(const char* spec, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, spec, value);
  return buffer;
}

void write_final_state(nlohmann::ordered_json& final_state, const ModelEntry& model,
                       const std::vector<double>& last) {
  const std::size_t n = model.coordinate_names.size();
  final_state["t"] = last[0];
  final_state["q"] = nlohmann::ordered_json::object();
  final_state["v"] = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < n; ++i) {
    final_state["q"][model.coordinate_names[i]] = last[1 + i];
    final_state["v"][model.coordinate_names[i]] = last[1 + n + i];
  }
  // Row layout: t, q, v, T, T2, T1, T0, V, E, H, Z, C (History).
  const std::size_t energies = 1 + 2 * n;
  for (const char* name : {"T", "V", "E", "H", "Z", "C"}) {
    for (std::size_t c = 0; c < History::energy_column_count; ++c) {
      if (std::string(History::energy_columns[c]) == name) final_state[name] = last[energies + c];
    }
  }
}

}  // namespace

void print_summary(std::ostream& out, const RunOutcome& run) {
  out << "model      " << run.model << "\n"
      << "method     " << run.method << "\n"
      << "step       " << format("%g", run.step) << "\n"
      << "interval   [" << format("%g", run.interval.t0) << ", " << format("%g", run.interval.t_end)
      << "]\n"
      << "steps      " << run.integration.steps << "\n"
      << "rhs evals  " << run.integration.rhs_evaluations << "\n";
  if (run.audit) {
    out << "delta_C    " << format("%.3e", run.audit->relative_drift()) << "\n";
  } else {
    out << "delta_C    - (audit off)\n";
  }
  out << "verdict    " << run.verdict();
  if (run.audit && run.finished()) out << " (threshold " << format("%g", run.audit->threshold()) << ")";
  out << "\n"
      << "wall time  " << format("%.4f", run.wall_seconds) << " s\n";
}

void write_json(const std::string& path, const ModelEntry& model, const RunOutcome& run) {
  const Audit& audit = *run.audit;
  nlohmann::ordered_json j;
  j["model"] = run.model;
  j["method"] = run.method;
  j["step"] = run.step;
  j["t0"] = run.interval.t0;
  j["t_end"] = run.interval.t_end;
  j["steps"] = run.integration.steps;
  j["rhs_evals"] = run.integration.rhs_evaluations;
  j["delta_C"] = audit.relative_drift();
  j["threshold"] = audit.threshold();
  j["verdict"] = run.verdict();
  if (run.integration.diverged) j["diverged_at"] = run.integration.t_diverged;
  if (!run.error.empty()) j["error"] = run.error;
  j["C0"] = audit.initial_control();
  j["max_abs_dC"] = audit.max_abs_drift();
  j["energy_scale"] = audit.energy_scale();
  j["wall_seconds"] = run.wall_seconds;
  j["params"] = nlohmann::ordered_json::object();
  for (const Assignment& p : run.parameters) j["params"][p.name] = p.value;

  const std::vector<double>& last = audit.last_row();
  if (last.empty()) {
    j["final"] = nullptr;
  } else {
    write_final_state(j["final"], model, last);
  }
  std::ofstream out = open_for_writing(path);
  out << j.dump(2) << "\n";
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
}

void write_history_csv(const std::string& path, const ModelEntry& model, const RunOutcome& run) {
  const Audit& audit = *run.audit;
  std::ofstream out = open_for_writing(path);
  out << "t";
  for (const std::string& name : model.coordinate_names) out << "," << name;
  for (const std::string& name : model.coordinate_names) out << "," << name << "_dot";
  for (const char* name : History::energy_columns) out << "," << name;
  out << "\n";
  const auto write_row = [&out](std::span<const double> row) {
    for (std::size_t i = 0; i < row.size(); ++i) out << (i ? "," : "") << row[i];
    out << "\n";
  };
  const History& history = audit.history();
  for (std::size_t r = 0; r < history.rows(); ++r) write_row(history.row(r));
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
}

double observed_order(double step_prev, double delta_prev, double step, double delta) {
  const bool defined = std::isfinite(delta_prev) && std::isfinite(delta) && delta_prev > 0 &&
                       delta > 0 && step_prev != step;
  if (!defined) return std::numeric_limits<double>::quiet_NaN();
  return std::log(delta_prev / delta) / std::log(step_prev / step);
}

namespace {

std::string delta_text(const RunOutcome& run) {
  return run.audit ? format("%.3e", run.audit->relative_drift()) : "-";
}

std::string order_text(double order) { return std::isnan(order) ? "-" : format("%.2f", order); }

}  // namespace

void print_comparison(std::ostream& out, const std::vector<ComparisonRow>& rows) {
  char line[256];
  std::snprintf(line, sizeof line, "%-14s %-10s %-10s %-9s %9s %10s %10s %6s\n", "method", "step",
                "delta_C", "verdict", "steps", "rhs_evals", "wall_s", "order");
  out << line;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    std::snprintf(line, sizeof line, "%-14s %-10s %-10s %-9s %9zu %10zu %10.4f %6s\n",
                  run.method.c_str(), format("%g", run.step).c_str(), delta_text(run).c_str(),
                  run.verdict().c_str(), run.integration.steps, run.integration.rhs_evaluations,
                  run.wall_seconds, order_text(row.observed_order).c_str());
    out << line;
  }
}

void write_comparison_csv(const std::string& path, const std::vector<ComparisonRow>& rows) {
  std::ofstream out = open_for_writing(path);
  out << "method,step,delta_C,verdict,steps,rhs_evals,wall_seconds,observed_order\n";
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    out << run.method << "," << run.step << ","
        << (run.audit ? run.audit->relative_drift() : std::numeric_limits<double>::quiet_NaN()) << ","
        << run.verdict() << "," << run.integration.steps << "," << run.integration.rhs_evaluations
        << "," << run.wall_seconds << ",";
    if (!std::isnan(row.observed_order)) out << row.observed_order;
    out << "\n";
  }
  if (!out) throw energy_audit::Error("cannot write '" + path + "'");
}

}  // namespace energy_audit::cli
