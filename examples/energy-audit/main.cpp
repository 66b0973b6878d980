// energy-audit: run the example models under the energy audit from the command line.
// Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence,
// 2 usage error, 3 failed verdict with --fail-on-verdict.

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "model_registry.hpp"
#include "report.hpp"
#include "run_model.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

constexpr int exit_finished = 0;
constexpr int exit_failure = 1;
constexpr int exit_usage = 2;
constexpr int exit_verdict = 3;

/// Options shared by run and compare, as the user typed them.
struct CommonOptions {
  std::string model;
  std::string t_end;
  std::vector<std::string> sets;
  std::vector<std::string> inits;
  std::string threshold = "1e-3";
  bool fail_on_verdict = false;

  void add_to(CLI::App& command) {
    command.add_option("MODEL", model, "model name (see `energy-audit list`)")->required();
    command.add_option("--t-end", t_end, "end of the interval (default: the model's)");
    command.add_option("--set", sets, "set a model parameter, NAME=VALUE (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->expected(1);
    command.add_option("--init", inits, "set an initial value, NAME=VALUE (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->expected(1);
    command.add_option("--threshold", threshold, "pass when delta_C <= X")->capture_default_str();
    command.add_flag("--fail-on-verdict", fail_on_verdict, "exit 3 when the verdict is not pass");
  }

  ModelSetup setup() const {
    ModelSetup s;
    for (const std::string& text : sets) s.parameters.push_back(parse_assignment("--set", text));
    for (const std::string& text : inits) s.initial_values.push_back(parse_assignment("--init", text));
    return s;
  }

  RunSettings settings() const {
    RunSettings r;
    if (!t_end.empty()) r.t_end = parse_number("--t-end", t_end);
    r.audit.threshold = parse_number("--threshold", threshold);
    if (r.audit.threshold < 0) throw UsageError("--threshold: " + threshold + " must be >= 0");
    return r;
  }
};

FixedStepMethod parse_method(const std::string& name) {
  if (const auto method = parse_fixed_step_method(name)) return *method;
  std::string known;
  for (const FixedStepMethodInfo& m : fixed_step_methods()) known += (known.empty() ? "" : ", ") + std::string(m.name);
  throw UsageError("--method: unknown method '" + name + "' (known: " + known + ")");
}

int list_command() {
  std::printf("Models:\n");
  for (const ModelEntry& model : model_registry()) {
    std::printf("  %-16s %s\n", model.name.c_str(), model.description.c_str());
  }
  std::printf("\nMethods (fixed step):\n");
  for (const FixedStepMethodInfo& m : fixed_step_methods()) {
    std::printf("  %-16s %s\n", std::string(m.name).c_str(), std::string(m.description).c_str());
  }
  return exit_finished;
}

struct RunCommand {
  CommonOptions common;
  std::string method = "rk4";
  std::string step = "1e-3";
  std::string every = "1";
  std::string csv, json;
  bool no_audit = false;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--method", method, "integration method (see `energy-audit list`)")->capture_default_str();
    command.add_option("--step", step, "fixed step h")->capture_default_str();
    command.add_option("--every", every, "store every K-th step in the history (delta_C sees all)")->capture_default_str();
    auto* csv_option = command.add_option("--csv", csv, "write the history to FILE");
    auto* json_option = command.add_option("--json", json, "write the run record to FILE");
    command.add_flag("--no-audit", no_audit, "integrate [q, v] only: no Z, no audit (overhead runs)")
        ->excludes(csv_option)
        ->excludes(json_option);
  }

  int execute() const {
    const ModelEntry& model = find_model(common.model);
    RunSettings settings = common.settings();
    settings.method = parse_method(method);
    settings.step = parse_number("--step", step);
    settings.audit.store_every = parse_count("--every", every);
    settings.audited = !no_audit;
    const RunOutcome run = run_model(model, common.setup(), settings);

    print_summary(std::cout, run);
    std::vector<std::string> written;
    if (run.audit && !csv.empty()) {
      write_history_csv(csv, model, run);
      written.push_back(csv);
    }
    if (run.audit && !json.empty()) {
      write_json(json, model, run);
      written.push_back(json);
    }
    if (!run.finished()) {
      std::string where = run.integration.diverged
                              ? "diverged at t = " + std::to_string(run.integration.t_diverged)
                              : run.error + " (after t = " + std::to_string(run.integration.t_reached) + ")";
      std::string files;
      for (const std::string& f : written) files += (files.empty() ? "" : ", ") + f;
      std::cerr << "energy-audit: " << where
                << (files.empty() ? "" : "; history so far written to " + files) << "\n";
      return exit_failure;
    }
    if (common.fail_on_verdict && run.verdict() != "pass") return exit_verdict;
    return exit_finished;
  }
};

struct CompareCommand {
  CommonOptions common;
  std::string methods = "euler,euler-cromer,rk2,rk3,rk4,rkg";
  std::string steps = "1e-2,5e-3,1e-3";
  std::string csv;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--methods", methods, "comma-separated methods")->capture_default_str();
    command.add_option("--steps", steps, "comma-separated fixed steps")->capture_default_str();
    command.add_option("--csv", csv, "write the table to FILE");
  }

  int execute() const {
    const ModelEntry& model = find_model(common.model);
    const RunSettings base = common.settings();
    const ModelSetup setup = common.setup();
    std::vector<FixedStepMethod> method_list;
    for (const std::string& name : split_list("--methods", methods)) method_list.push_back(parse_method(name));
    std::vector<double> step_list;
    for (const std::string& text : split_list("--steps", steps)) step_list.push_back(parse_number("--steps", text));

    std::vector<ComparisonRow> rows;
    for (FixedStepMethod method : method_list) {
      for (std::size_t i = 0; i < step_list.size(); ++i) {
        RunSettings settings = base;
        settings.method = method;
        settings.step = step_list[i];
        settings.audit.store_every = 0;  // the table needs δ_C, not the history
        RunOutcome run = run_model(model, setup, settings);
        double order = std::numeric_limits<double>::quiet_NaN();
        if (i > 0 && run.finished() && rows.back().run.finished()) {
          order = observed_order(rows.back().run.step, rows.back().run.audit->relative_drift(), run.step,
                                 run.audit->relative_drift());
        }
        rows.push_back({std::move(run), order});
      }
    }
    std::cout << "model " << model.name << "\n";
    print_comparison(std::cout, rows);
    if (!csv.empty()) write_comparison_csv(csv, rows);
    if (common.fail_on_verdict) {
      for (const ComparisonRow& row : rows) {
        if (row.run.verdict() != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }
};

}  // namespace
}  // namespace energy_audit::cli

int main(int argc, char** argv) {
  using namespace energy_audit::cli;
  CLI::App app{"energy-audit: is this numerical solution of the equations of motion trustworthy?\n"
               "Tracks C = H + Z, which is constant on exact solutions, and judges its relative drift delta_C.",
               "energy-audit"};
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "list the models and the methods");
  RunCommand run;
  run.add_to(*app.add_subcommand("run", "integrate one model with one method and audit it"));
  CompareCommand compare;
  compare.add_to(*app.add_subcommand("compare", "audit one model over several methods and steps"));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "energy-audit: error: " << e.what() << "\n";
    return exit_usage;
  }

  try {
    if (list->parsed()) return list_command();
    if (app.got_subcommand("run")) return run.execute();
    return compare.execute();
  } catch (const UsageError& e) {
    std::cerr << "energy-audit: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "energy-audit: error: " << e.what() << "\n";
    return exit_failure;
  }
}
