#include "audit_trajectory_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_outputs.hpp"
#include "example_models.hpp"
#include "option_groups.hpp"
#include "output_file.hpp"
#include "trajectory_csv.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// `audit-trajectory MODEL FILE`: samples (t, q, v, a) computed elsewhere, audited with the
/// model's energies (trajectory_audit.hpp).
struct AuditTrajectoryCommand {
  std::string model, file, json;
  std::vector<Assignment> sets;
  double threshold = 1e-3;
  bool fail_on_verdict = false;
  CLI::Option* json_option = nullptr;

  void add_to(CLI::App& command) {
    command.add_option("MODEL", model, "the model whose energies and forces the samples belong to")
        ->required()->check(one_of(model_names()));
    command.add_option("FILE", file, "CSV: t, the coordinates, NAME_dot, NAME_ddot (one row per sample); - reads standard input")->required();
    command.add_option("--set", sets, "set a model parameter, NAME=VALUE (repeatable)")
        ->check(assignment())->take_all()->type_name("NAME=VALUE");
    command.add_option("--threshold", threshold, "pass when delta_C <= X")->check(non_negative_number())->capture_default_str();
    json_option = command.add_option("--json", json, "write the audit's record to FILE");
    command.add_flag("--fail-on-verdict", fail_on_verdict, "exit 3 when the verdict is not pass");
  }

  int execute() const {
    const ModelEntry& entry = find_model(model);
    if (!entry.audit_trajectory) {
      throw UsageError("MODEL: " + entry.name + " has multipliers, which the samples do not carry: its Z needs them");
    }
    const ModelSetup setup{sets, {}};
    entry.check_setup(setup, OptionNames{});
    CommandOutputs outputs;
    outputs.add("--json", json_option->count() > 0, json);
    outputs.check();
    const TrajectorySamples samples = read_trajectory_csv(file, entry.coordinate_names);
    outputs.open();
    AuditOptions options;
    options.threshold = threshold;
    options.store_every = 0;
    const Audit audit = entry.audit_trajectory(setup, samples, options);
    const Index count = samples.t.size();
    std::printf("model %s: %ld samples over [%g, %g] s, Z by Gauss quadrature on the cubic Hermite interpolants\n",
                entry.name.c_str(), static_cast<long>(count), samples.t[0], samples.t[count - 1]);
    std::printf("delta_C = %.3e (threshold %.1e), max |C - C0| = %.3e J at t = %g, energy scale %.3e J\n",
                audit.relative_drift(), audit.threshold(), audit.max_abs_drift(), audit.time_of_max_drift(),
                audit.energy_scale());
    std::printf("verdict: %s\n", verdict_name(audit.verdict()));
    std::fflush(stdout);
    outputs.commit("--json", [&](OutputFile& json_file) {
      const nlohmann::ordered_json record{{"model", entry.name},
                                          {"samples", count},
                                          {"t0", samples.t[0]},
                                          {"t_end", samples.t[count - 1]},
                                          {"delta_C", audit.relative_drift()},
                                          {"threshold", audit.threshold()},
                                          {"max_abs_dC", audit.max_abs_drift()},
                                          {"t_max_abs_dC", audit.time_of_max_drift()},
                                          {"energy_scale", audit.energy_scale()},
                                          {"C0", audit.initial_control()},
                                          {"verdict", verdict_name(audit.verdict())}};
      json_file.write(record.dump(2) + "\n");
    });
    if (fail_on_verdict && !audit.passed()) return exit_verdict;
    return exit_finished;
  }
};

}  // namespace

Command add_audit_trajectory_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("audit-trajectory", "audit samples (t, q, v, a) computed elsewhere");
  auto options = std::make_shared<AuditTrajectoryCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession&) { return options->execute(); }, false};
}

}  // namespace energy_audit::cli
