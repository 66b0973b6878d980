#include "advise_command.hpp"

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
#include "advice_report.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// `advise MODEL --target X`: the largest step (loosest rtol) of each method that meets the
/// target, and the cheapest method (step_advisor.hpp).
struct AdviseCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  double target = 1e-6;
  double drift_target = 1e-6;
  std::vector<std::string> methods;
  StudyOptions study;
  std::string json;
  CLI::Option *methods_option = nullptr, *drift_target_option = nullptr, *json_option = nullptr;

  void add_to(CLI::App& command) {
    common.add_to(command);
    // A probe is judged by --target (and --drift-target): run's verdict options are not advise's.
    command.remove_option(std::exchange(common.threshold_option, nullptr));
    command.remove_option(std::exchange(common.fail_on_verdict_option, nullptr));
    command.add_option("--target", target, "the delta_C to meet; the search goes down to a step of (interval)/1e7, rtol 1e-13, past runs that diverge")->check(positive_number())->capture_default_str();
    drift_target_option = command.add_option("--drift-target", drift_target,
                                              "multiplier models: the max |Phi| and max |G v + g| to meet")
                              ->check(positive_number())->capture_default_str();
    methods_option = command.add_option("--methods", methods,
                                        "comma-separated methods (default: every method that runs the model)")
                         ->delimiter(',')->check(known_method());
    adaptive.add_to(command, false);
    json_option = command.add_option("--json", json, "write the advice and every probe run to FILE");
    study.add_to(command, "threads that run the methods' searches (default: the machine's cores; under mpirun the ranks do)");
  }

  int execute(const MpiSession& session) const {
    StudyFrame frame(study, session);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model, judged by its verdict rather than a "
                       "target: use stability");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    if (!entry.has_multipliers()) refuse_if_given(drift_target_option, "model " + entry.name + " has no constraints to drift");
    AdviceSettings settings;
    settings.target = target;
    settings.drift_target = entry.has_multipliers() ? drift_target : 0;  // 0: not printed, nothing drifts
    settings.base = common.settings();
    settings.base.adaptive = adaptive.options();
    settings.base.options = {"--methods", "--methods", "--methods"};
    std::vector<Method> method_list;
    if (methods_option->count() > 0) {
      for (const std::string& name : methods) method_list.push_back(find_method(name, "--methods"));
      for (const Method& m : method_list) {
        RunSettings trial = settings.base;
        trial.method = m;
        check_settings(entry, common.setup(), trial);
      }
    } else {
      method_list = methods_that_run(entry, common.setup(), settings.base);  // each checked there
    }
    adaptive.check_applicable(methods_used(method_list, methods_option->count() > 0 ? join(methods) : "the methods"));
    CommandOutputs outputs;
    outputs.add("--json", json_option->count() > 0, json);
    settings.base.stop = frame.start(outputs);
    const Advice advice = advise(entry, common.setup(), method_list, settings, frame.pool());
    frame.finish([&](std::ostream& out) { print_advice(out, entry.name, settings, advice); }, [&] {
      outputs.commit("--json", [&](OutputFile& file) { write_advice_json(file, entry.name, settings, advice); });
    });
    return advice.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

}  // namespace

Command add_advise_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("advise", "find each method's largest step that meets a target delta_C");
  auto options = std::make_shared<AdviseCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, true};
}

}  // namespace energy_audit::cli
