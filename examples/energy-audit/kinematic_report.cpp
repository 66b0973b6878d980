#include "kinematic_report.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>

#include "number_text.hpp"
#include <energy_audit/run_end.hpp>

namespace energy_audit::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string assignments(const std::vector<Assignment>& values) {
  std::string text;
  for (const Assignment& a : values) {
    if (!text.empty()) text += ", ";
    text += a.name + " = " + shortest_text(a.value);
  }
  return text;
}

std::string resolution(const KinematicOutcome& run) {
  if (run.method.adaptive()) return "rtol " + shortest_text(run.adaptive.rtol) + ", atol " + shortest_text(run.adaptive.atol);
  return "step " + shortest_text(run.step);
}

}  // namespace

void print_kinematic_summary(std::ostream& out, const KinematicOutcome& run) {
  const ConstraintDriftAudit& drift = run.drift;
  char line[256];
  out << "model " << run.model << " (kinematic: q' = N c + f_q+ (K f - f_t)), method " << run.method.name << ", "
      << resolution(run) << ", t = [" << shortest_text(run.interval.t0) << ", " << shortest_text(run.interval.t_end) << "]\n";
  out << "parameters: " << assignments(run.parameters) << "; start: " << assignments(run.initial_values) << "\n";
  std::snprintf(line, sizeof line, "steps: %zu, rhs evaluations: %zu, wall: %.3g s\n", run.steps, run.rhs_evaluations,
                run.wall_seconds);
  out << line;
  std::snprintf(line, sizeof line, "constraint drift: |f| at start %.3e, max |f| %.3e, final |f| %.3e\n",
                drift.initial(), drift.max(), drift.final());
  out << line;
  std::snprintf(line, sizeof line, "|f| growth: max over (t_end/4, t_end/2] %.3e, over the last quarter %.3e\n",
                drift.mid(), drift.late());
  out << line;
  if (run.transverse_multiplier) {
    std::snprintf(line, sizeof line, "transverse multiplier rho = %.6f (%s)\n", *run.transverse_multiplier,
                  *run.transverse_multiplier < 1 ? "a small constraint error shrinks per step"
                                                 : "a small constraint error grows per step");
    out << line;
  }
  if (run.end == RunEnd::Diverged) {
    out << "stopped at t = " << shortest_text(run.t_reached) << ": |f| beyond 1e100 or not finite in the next step\n";
  }
  if (run.end == RunEnd::Error) out << "error: " << run.error << "\n";
  if (run.end == RunEnd::Interrupted) out << "interrupted at t = " << shortest_text(run.t_reached) << "\n";
  out << "verdict: " << run.verdict() << "\n";
}

std::string stop_description(const KinematicOutcome& run) {
  const std::string at = to_text(run.t_reached);
  switch (run.end) {
    case RunEnd::Error: return "error: " + run.error + "; stopped at t = " + at;
    case RunEnd::Diverged: return "diverged: |f| beyond 1e100 or not finite in the step after t = " + at;
    case RunEnd::Interrupted: return "interrupted at t = " + at;
    case RunEnd::Finished: break;
  }
  return "";
}

void write_kinematic_csv(OutputFile& file, const KinematicOutcome& run) {
  std::string text = "t";
  for (const std::string& name : run.coordinate_names) {
    text += ',';
    text += name;
  }
  text += ",f\n";
  file.write(text);
  const std::size_t columns = run.coordinate_names.size() + 2;
  for (std::size_t start = 0; start + columns <= run.history.size(); start += columns) {
    std::string row;
    for (std::size_t k = 0; k < columns; ++k) {
      if (k > 0) row += ',';
      row += shortest_text(run.history[start + k]);
    }
    row += '\n';
    file.write(row);
  }
}

void write_kinematic_json(OutputFile& file, const KinematicOutcome& run) {
  Json j;
  j["model"] = run.model;
  j["kind"] = "kinematic";
  j["method"] = run.method.name;
  j["step"] = run.method.adaptive() ? Json(nullptr) : Json(run.step);
  if (run.method.adaptive()) {
    j["rtol"] = run.adaptive.rtol;
    j["atol"] = run.adaptive.atol;
  }
  j["t0"] = run.interval.t0;
  j["t_end"] = run.interval.t_end;
  Json parameters = Json::object(), start = Json::object();
  for (const Assignment& a : run.parameters) parameters[a.name] = a.value;
  for (const Assignment& a : run.initial_values) start[a.name] = a.value;
  j["parameters"] = parameters;
  j["start"] = start;
  j["end"] = run_end_name(run.end);
  j["t_reached"] = run.t_reached;
  if (run.end == RunEnd::Error) j["error"] = run.error;
  j["steps"] = run.steps;
  j["rhs_evals"] = run.rhs_evaluations;
  j["wall_s"] = run.wall_seconds;
  const ConstraintDriftAudit& drift = run.drift;
  j["f_initial"] = drift.initial();
  j["f_max"] = std::isfinite(drift.max()) ? Json(drift.max()) : Json("inf");
  j["f_final"] = drift.final();
  j["f_mid"] = drift.mid();
  j["f_late"] = drift.late();
  j["rho"] = run.transverse_multiplier ? Json(*run.transverse_multiplier) : Json(nullptr);
  j["verdict"] = run.verdict();
  file.write(j.dump(2) + "\n");
}

}  // namespace energy_audit::cli
