#include "sweep_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <energy_audit/studies/methods.hpp>

#include "command_outputs.hpp"
#include "interruption.hpp"
#include "example_models.hpp"
#include "option_groups.hpp"
#include "study_frame.hpp"
#include "output_file.hpp"
#include "sweep_report.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// `sweep MODEL`: the Cartesian product of parameter values, initial values, methods and steps,
/// on a pool of threads (sweep.hpp).
struct SweepCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::vector<AssignmentList> set_lists, init_lists;
  std::vector<std::string> methods{default_method().name};
  std::vector<double> steps{1e-3};
  std::vector<double> rtols{1e-8};
  StudyOptions study;
  std::string csv, json;
  CLI::Option *csv_option = nullptr, *json_option = nullptr, *steps_option = nullptr, *rtols_option = nullptr;
  const CLI::App* app = nullptr;

  void add_to(CLI::App& command) {
    app = &command;
    common.add_to(command);
    // sweep's --set and --init take lists; the single-value ones of the common options are replaced.
    command.remove_option(command.get_option("--set"));
    command.remove_option(command.get_option("--init"));
    command.add_option("--set", set_lists, "a model parameter and its values, NAME=V1,V2,... (repeatable)")
        ->check(assignment_list())->take_all()->type_name("NAME=V1,V2,...");
    command.add_option("--init", init_lists, "an initial value and its values, NAME=V1,V2,... (repeatable)")
        ->check(assignment_list())->take_all()->type_name("NAME=V1,V2,...");
    command.add_option("--methods", methods, "comma-separated methods")
        ->delimiter(',')->check(known_method())->default_str(default_method().name);
    steps_option = command.add_option("--steps", steps, "comma-separated steps for the fixed-step methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-3");
    rtols_option = command.add_option("--rtols", rtols, "comma-separated rtols for the adaptive methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-8");
    adaptive.add_to(command, false);
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    json_option = command.add_option("--json", json, "write the runs to FILE");
    study.add_to(command, "threads that run the sweep (default: the machine's cores; under mpirun the runs go to the ranks)");
  }

  int execute(const MpiSession& session) const {
    StudyFrame frame(study, session);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model: its sweep is `energy-audit stability`");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    SweepPlan plan;
    plan.parameters = set_lists;
    plan.initial_values = init_lists;
    plan.base = common.settings();
    plan.base.adaptive = adaptive.options();
    plan.base.options = {"--methods", "--steps", "--rtols"};
    plan.steps = steps;
    plan.rtols = rtols;
    for (const std::string& name : methods) plan.methods.push_back(find_method(name, "--methods"));
    const MethodsUsed used = methods_used(plan.methods, join(methods));
    check_lists_apply(used, plan.base.options, steps_option->count() > 0, rtols_option->count() > 0);
    adaptive.check_applicable(used);
    std::vector<SweepRun> runs = plan_runs(entry, plan);
    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--json", json_option->count() > 0, json);
    plan.base.stop = frame.start(outputs);
    const SweepResult sweep = run_sweep(entry, plan, std::move(runs), frame.pool());
    frame.finish([&](std::ostream& out) { print_sweep(out, entry.name, sweep); }, [&] {
      outputs.commit("--csv", [&](OutputFile& file) { write_sweep_csv(file, sweep); });
      outputs.commit("--json", [&](OutputFile& file) { write_sweep_json(file, entry.name, sweep); });
    });
    if (sweep.interrupted) return exit_status(exit_failure);
    if (common.fail_on_verdict) {
      for (const SweepRun& run : sweep.runs) {
        if (run.verdict != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }
};

}  // namespace

Command add_sweep_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("sweep", "audit one model over every combination of values, methods and steps");
  auto options = std::make_shared<SweepCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, true};
}

}  // namespace energy_audit::cli
