#include "sweep_report.hpp"

#include <cmath>
#include <cstdio>

#include <energy_audit/studies/study_records.hpp>

#include "number_text.hpp"

namespace energy_audit::cli {
namespace {

std::string number(double value) { return shortest_text(value); }

}  // namespace

void print_sweep(std::ostream& out, const std::string& model, const SweepResult& sweep) {
  out << "sweep of " << model << ": " << sweep.runs.size() << " runs on " << sweep.workers.text() << "\n";
  out << "equations  " << sweep.equations << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-28s %-12s %-5s %-10s %-11s %-11s %-9s %s\n", "values", "method", "", "h / rtol",
                "delta_C", "verdict", "rhs evals", "wall");
  out << line;
  for (const SweepRun& run : sweep.runs) {
    std::string values;
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) values += (values.empty() ? "" : " ") + a.name + "=" + number(a.value);
    }
    std::snprintf(line, sizeof line, "%-28s %-12s %-5s %-10.4g %-11.3e %-11s %-9zu %.3g s\n", values.c_str(),
                  run.method.c_str(), run.adaptive ? "rtol" : "h", run.resolution, run.delta_C,
                  run.verdict.empty() ? "not run" : run.verdict.c_str(), run.rhs_evaluations, run.wall_seconds);
    out << line;
  }
  if (sweep.interrupted) out << "interrupted: the runs marked 'not run' did not start\n";
}

void write_sweep_csv(OutputFile& file, const SweepResult& sweep) {
  std::string header;
  if (!sweep.runs.empty()) {
    for (const auto* list : {&sweep.runs.front().parameters, &sweep.runs.front().initial_values}) {
      for (const Assignment& a : *list) header += a.name + ",";
    }
  }
  file.write(header + "method,step,rtol,delta_C,verdict,steps,rhs_evals\n");
  for (const SweepRun& run : sweep.runs) {
    std::string row;
    for (const auto* list : {&run.parameters, &run.initial_values}) {
      for (const Assignment& a : *list) row += number(a.value) + ",";
    }
    row += run.method + "," + (run.adaptive ? "" : number(run.resolution)) + "," +
           (run.adaptive ? number(run.resolution) : "") + "," + number(run.delta_C) + "," +
           (run.verdict.empty() ? "not run" : run.verdict) + "," + std::to_string(run.steps) + "," +
           std::to_string(run.rhs_evaluations) + "\n";
    file.write(row);
  }
}

void write_sweep_json(OutputFile& file, const std::string& model, const SweepResult& sweep) {
  file.write(sweep_record(model, sweep).dump(2) + "\n");
}

}  // namespace energy_audit::cli
