#include "diagnose_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include <energy_audit/studies/diagnose.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/study_records.hpp>

#include "cli_options.hpp"
#include "command_outputs.hpp"
#include "example_models.hpp"
#include "interruption.hpp"
#include "number_text.hpp"
#include "option_groups.hpp"
#include "study_frame.hpp"
#include "output_file.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// The ladder, one row per level (the order observed from the level above), and the diagnosis.
void print_diagnosis(std::ostream& out, const std::string& model, const Diagnosis& d) {
  char line[200];
  std::snprintf(line, sizeof line, "diagnose %s with %s: %zu levels, threshold %g (%s)\n", model.c_str(),
                d.method.c_str(), d.levels.size(), d.threshold, d.workers.text().c_str());
  out << line;
  std::snprintf(line, sizeof line, "  %-10s %-10s %-6s %-12s %s\n", d.adaptive ? "rtol" : "step", "delta_C", "order",
                "rhs_evals", "end");
  out << line;
  const DriftClassification& c = d.classification;
  for (const Probe& l : d.levels) {
    std::string order = "-";
    for (std::size_t i = 0; i + 1 < c.levels.size(); ++i) {
      if (l.finished && c.levels[i + 1].resolution == l.resolution) {
        char text[16];
        const double observed = c.observed_orders[i];
        std::snprintf(text, sizeof text, "%.2f", std::abs(observed) < 0.005 ? 0.0 : observed);  // no "-0.00"
        order = text;
      }
    }
    std::snprintf(line, sizeof line, "  %-10.3g %-10.3g %-6s %-12zu %s\n", l.resolution, l.delta_C, order.c_str(),
                  l.rhs_evaluations, l.end.empty() ? "not run" : l.end.c_str());
    out << line;
  }
  out << "diagnosis  " << d.verdict() << "\n";
  out << "equations  " << d.equations << "\n";
  if (d.evidence) {
    for (const FailingEquation& f : d.evidence->failing_equations) {
      out << "           equation of " << f.coordinate << ": relative residual "
          << printf_text("%.3e", f.relative_residual) << ", first above " << printf_text("%g", d.evidence->equation_threshold)
          << " at t = " << printf_text("%g", f.first_above_threshold) << "\n";
    }
    if (d.evidence->first_above_threshold) {
      out << "drift      |C - C0| first above the threshold at t = " << printf_text("%g", *d.evidence->first_above_threshold)
          << "\n";
    }
    if (d.evidence->residual_work) {
      out << "ledger     C - C0 = " << printf_text("%+.6g", *d.evidence->residual_work) << " J at the finest level, "
          << (d.evidence->suspect ? "explained below" : "explained by no named force's power") << "\n";
    }
    if (d.evidence->suspect) {
      out << "suspect    dC/dt has the shape of " << d.evidence->suspect->force << "'s power (correlation "
          << printf_text("%.4f", d.evidence->suspect->correlation) << ", dC/dt = "
          << printf_text("%.4g", d.evidence->suspect->ratio) << " x its power)\n";
    }
  }
  out << "what to do " << d.what_to_do() << "\n";
}

/// `diagnose MODEL [--method M] [--step H | --rtol R] [--levels N]`: the method at h, h/2, h/4, …
/// (rtol, rtol/10, …), the ladder classified (drift_ladder.hpp) and, for a step error, the step
/// that meets the threshold (step_advisor.hpp).
struct DiagnoseCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::string method = default_method().name;
  double step = 1e-3;
  std::size_t levels = 5;
  StudyOptions study;
  std::string json;
  CLI::Option* json_option = nullptr;

  void add_to(CLI::App& command) {
    common.add_to(command);
    // The threshold is what the ladder is judged against; no single run's verdict is returned.
    command.remove_option(std::exchange(common.fail_on_verdict_option, nullptr));
    command.add_option("--method", method, "integration method (see `energy-audit list`)")
        ->check(known_method())->capture_default_str();
    command.add_option("--step", step, "the ladder's first (largest) step h; each level halves it (fixed-step methods)")
        ->check(positive_number())->capture_default_str();
    adaptive.add_to(command, true);
    command.add_option("--levels", levels, "levels of the ladder (at least 3)")
        ->check(CLI::Range(std::size_t{3}, std::size_t{40}))->capture_default_str();
    json_option = command.add_option("--json", json, "write the diagnosis and every level to FILE");
    study.add_to(command, "threads that run the ladder's levels (default: the machine's cores; under mpirun the ranks do)");
  }

  int execute(const MpiSession& session) const {
    StudyFrame frame(study, session);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model, judged by its verdict rather than delta_C: "
                       "use stability");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    DiagnoseSettings settings;
    settings.levels = levels;
    settings.base = common.settings();
    settings.base.method = find_method(method);
    settings.base.step = step;
    settings.base.adaptive = adaptive.options();
    settings.base.audit.store_every = 0;
    adaptive.check_applicable(methods_used(settings.base.method));
    CommandOutputs outputs;
    outputs.add("--json", json_option->count() > 0, json);
    check_diagnosis(entry, common.setup(), settings);  // before the outputs open: a usage error leaves no file
    settings.base.stop = frame.start(outputs);
    const Diagnosis diagnosis = diagnose(entry, common.setup(), settings, frame.pool());
    frame.finish([&](std::ostream& out) { print_diagnosis(out, entry.name, diagnosis); }, [&] {
      outputs.commit("--json", [&](OutputFile& file) {
        file.write(diagnosis_record(entry.name, diagnosis).dump(2) + "\n");
      });
    });
    return diagnosis.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

}  // namespace

Command add_diagnose_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "diagnose", "run a method at a ladder of steps (rtols): step error, model error (the failing equation named), "
                  "round-off or within the threshold, and the step that meets it, run");
  auto options = std::make_shared<DiagnoseCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, true};
}

}  // namespace energy_audit::cli
