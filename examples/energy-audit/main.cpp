// energy-audit: run the example models under the energy audit from the command line.
// Builds the application from its commands (commands/), parses the arguments and runs the
// command given. Exit status: 0 finished (whatever the verdict), 1 run-time failure or
// divergence, 2 usage error, 3 failed verdict with --fail-on-verdict, 128 + N after signal N
// (130, 143).

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands/advise_command.hpp"
#include "commands/audit_trajectory_command.hpp"
#include "commands/command.hpp"
#include "commands/command_outputs.hpp"
#include "commands/compare_command.hpp"
#include "commands/diagnose_command.hpp"
#include "commands/list_command.hpp"
#ifdef EA_HAVE_MUJOCO
#include "commands/mujoco_command.hpp"
#endif
#include "commands/reproduce_command.hpp"
#include "commands/run_command.hpp"
#include "commands/stability_command.hpp"
#include "commands/sweep_command.hpp"
#include "mpi_session.hpp"
#include "output_file.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// NAME of a NAME=VALUE or NAME=V1,V2,... argument.
std::string assigned_name(const std::string& text) { return text.substr(0, text.find('=')); }

/// A parameter or initial value given twice is a usage error, not the last one winning; a sweep
/// takes all the values of one in a single --set NAME=V1,V2,...
void refuse_repeated_names(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {  // the one parsed
    for (const char* option : {"--set", "--init"}) {
      const CLI::Option* given = sub->get_option_no_throw(option);
      if (given == nullptr) continue;
      const std::vector<std::string>& texts = given->results();
      for (std::size_t i = 0; i < texts.size(); ++i) {
        const std::string name = assigned_name(texts[i]);
        for (std::size_t j = 0; j < i; ++j) {
          if (assigned_name(texts[j]) != name) continue;
          const std::string how = sub->get_name() == "sweep"
                                      ? "; a sweep takes its values in one: " + std::string(option) + " " + texts[j] +
                                            "," + texts[i].substr(name.size() + 1)
                                      : "; give it once";
          throw UsageError(std::string(option) + ": " + name + " is given twice (" + texts[j] + ", " + texts[i] + ")" +
                           how);
        }
      }
    }
  }
}

/// The names of `commands` (those that spread over ranks only, with `spreading`), in their order,
/// as a message lists them: "a, b and c"; with `and_word` false "a, b, c".
std::string command_names(const std::vector<Command>& commands, bool spreading_only, bool and_word) {
  std::vector<std::string> names;
  for (const Command& command : commands) {
    if (!spreading_only || command.spreads_over_ranks) names.push_back(command.app->get_name());
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += and_word && i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

/// The first argument when it is not a command (nor an option): CLI11 would only say that a
/// command is required.
std::optional<std::string> unknown_command(int argc, char** argv, const CLI::App& app) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_name() == argv[1]) return std::nullopt;
  }
  return std::string(argv[1]);
}

/// The help's footer: the exit statuses (3 with `fail_on_verdict`, for the commands that take the
/// option) and where the formats are described.
std::string exit_status_footer(bool fail_on_verdict) {
  return std::string("Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence (the history\n"
                     "computed so far is still written), 2 usage error, ") +
         (fail_on_verdict ? "3 verdict not pass with --fail-on-verdict,\n" : "\n") +
         "130 / 143 after SIGINT / SIGTERM (the history so far is written).\n"
         "The models, methods and the JSON and CSV formats are described in docs/command-line.md and docs/models.md.";
}

}  // namespace
}  // namespace energy_audit::cli

int main(int argc, char** argv) {
  using namespace energy_audit::cli;
  const MpiSession session(argc, argv);
  // Across ranks, rank 0 prints: the others' standard output goes nowhere.
  if (!session.leads() && std::freopen("/dev/null", "w", stdout) == nullptr) return exit_failure;
  CLI::App app{"energy-audit: is this numerical solution of the equations of motion trustworthy?\n"
               "Tracks C = H + Z, which is constant on exact solutions, and judges its relative drift delta_C.",
               "energy-audit"};
  app.require_subcommand(1);
  app.footer(exit_status_footer(true));
  std::vector<Command> commands{add_list_command(app),      add_run_command(app),
                                add_compare_command(app),   add_sweep_command(app),
                                add_audit_trajectory_command(app), add_advise_command(app),
                                add_diagnose_command(app),
                                add_stability_command(app), add_reproduce_command(app)};
#ifdef EA_HAVE_MUJOCO
  commands.push_back(add_mujoco_command(app));  // built where MuJoCo is found
#endif
  // A command's help names exit status 3 only where it takes --fail-on-verdict (advise and
  // diagnose judge against their own targets and refuse it); so does that of a command's own
  // commands (mujoco diagnose).
  for (const Command& command : commands) {
    std::vector<CLI::App*> apps{command.app};
    for (CLI::App* nested : command.app->get_subcommands({})) apps.push_back(nested);
    for (CLI::App* a : apps) {
      if (a->get_option_no_throw("--fail-on-verdict") == nullptr) a->footer(exit_status_footer(false));
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (!session.leads()) return exit_usage;  // every rank parsed the same arguments: rank 0 says what is wrong
    if (const auto command = unknown_command(argc, argv, app)) {
      std::cerr << "energy-audit: error: unknown command '" << *command << "' (commands: "
                << command_names(commands, false, false) << ")\n";
    } else {
      std::cerr << "energy-audit: error: " << e.what() << "\n";
    }
    return exit_usage;
  }

  try {
    refuse_repeated_names(app);
    // An output on standard output ("-") gets it to itself: the summary goes to standard error.
    const std::vector<std::string> outputs = requested_outputs(app);
    if (session.leads() && std::any_of(outputs.begin(), outputs.end(), names_standard_output)) {
      reserve_standard_output_for_outputs();
    }
    const Command& command = *std::find_if(commands.begin(), commands.end(),
                                           [](const Command& c) { return c.app->parsed(); });
    if (!command.spreads_over_ranks && session.size() > 1) {
      throw UsageError(command.app->get_name() + " runs in one process: start it without mpirun (" +
                       command_names(commands, true, true) + " spread their runs over MPI ranks)");
    }
    return command.execute(session);
  } catch (const UsageError& e) {
    // Usage errors come from the arguments and the checks before any run, the same on every rank.
    if (!session.leads()) return exit_usage;
    std::cerr << "energy-audit: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    if (session.size() > 1) {
      // A failure after the runs began may be this rank's alone: end the whole job, which
      // would otherwise wait for this rank.
      if (session.leads()) remove_previous_outputs(app);
      std::cerr << "energy-audit: error on rank " << session.rank() << ": " << e.what() << "\n";
      session.abort(exit_failure);
    }
    remove_previous_outputs(app);
    std::cerr << "energy-audit: error: " << e.what() << "\n";
    return exit_status(exit_failure);
  }
}
