#include "run_command.hpp"

#include <initializer_list>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <energy_audit/studies/history_rows.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "command_outputs.hpp"
#include "interruption.hpp"
#include "kinematic_report.hpp"
#include "example_models.hpp"
#include "option_groups.hpp"
#include "output_file.hpp"
#include "report.hpp"
#include "run_plot.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// `run MODEL`: one model with one method, audited; its summary, history (--csv) and record (--json).
struct RunCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::string method = default_method().name;
  double step = 1e-3;
  std::string table;
  bool relax = false;
  std::size_t every = 1;
  std::string csv, json, plot;
  bool no_audit = false;
  DiagnosisColumns diagnosis;
  CLI::Option *step_option = nullptr, *table_option = nullptr, *every_option = nullptr, *csv_option = nullptr, *json_option = nullptr, *plot_option = nullptr,
              *equation_columns_option = nullptr, *ledger_columns_option = nullptr;

  const CLI::App* app = nullptr;

  void add_to(CLI::App& command) {
    app = &command;
    common.add_to(command);
    command.add_option("--method", method, "integration method (see `energy-audit list`)")
        ->check(known_method())->capture_default_str();
    const std::string also_at_fixed_step = methods_with(&Method::takes_fixed_step);
    step_option = command.add_option("--step", step,
                                     "fixed step h (fixed-step methods" +
                                         (also_at_fixed_step.empty() ? std::string() : "; " + also_at_fixed_step) + ")")
                      ->check(positive_number())->capture_default_str();
    table_option = command.add_option("--table", table, examples::table_help());
    command.add_flag("--relax", relax, examples::relax_help());
    adaptive.add_to(command, true);
    every_option = command.add_option("--every", every,
                                      "write every K-th step to the --csv history and the --plot (delta_C sees all)")
                       ->check(positive_count(std::numeric_limits<std::size_t>::max()))->capture_default_str();
    csv_option = command.add_option("--csv", csv, "write the history to FILE (streamed while the run goes)");
    equation_columns_option = command.add_flag(
        "--equation-columns", diagnosis.equation_residuals,
        "add to the --csv history eq_NAME: the relative residual of each coordinate's equation at each row");
    ledger_columns_option = command.add_flag(
        "--ledger-columns", diagnosis.work_ledger,
        "add to the --csv history the work ledger: P_NAME and W_NAME of each named force, and dC_dt");
    json_option = command.add_option("--json", json, "write the run record to FILE");
    plot_option = command.add_option("--plot", plot,
                                     "draw C(t) - C(t0), when it fails, and the work ledger to FILE.png (gnuplot)");
    command.add_flag("--no-audit", no_audit, "integrate [q, v] only: no Z, no audit (overhead runs)")
        ->excludes(csv_option)
        ->excludes(plot_option);
  }

  RunSettings settings(const ModelEntry& entry) const {
    common.check_applicable(entry);
    RunSettings s = common.settings();
    s.method = chosen_method();
    s.step = step;
    s.adaptive = adaptive.options();
    s.table = table;
    s.relax = relax;
    // Rows are kept only to stream them into the CSV and the plot.
    s.audit.store_every = csv_option->count() > 0 || plot_option->count() > 0 ? every : 0;
    s.audited = !no_audit;
    adaptive.check_applicable(methods_used(s.method), true);
    if (no_audit) {
      const std::string why = "has nothing to act on with --no-audit";
      refuse_if_given(every_option, why);
      for (const CLI::Option* option : common.audit_options()) refuse_if_given(option, why);
    } else if (csv_option->count() == 0 && plot_option->count() == 0) {
      refuse_if_given(every_option, "thins the history of --csv and --plot, neither given");
    }
    if (csv_option->count() == 0) {
      refuse_if_given(equation_columns_option, "adds columns to the --csv history, which is not given");
      refuse_if_given(ledger_columns_option, "adds columns to the --csv history, which is not given");
    }
    return s;
  }

  /// --method as it runs: an adaptive method that takes a fixed step runs at --step when it is
  /// given, and then takes no tolerances; a method that always runs at a fixed step has the order
  /// of its table; --table and --relax are checked, and --z-as quadrature refused for an adaptive
  /// method without quadratures.
  Method chosen_method() const {
    const Method& chosen = find_method(method);
    const bool at_fixed_step = runs_at_given_step(chosen, given_options(*app), OptionNames{});
    check_table(chosen, table, chosen.adaptive() && !at_fixed_step);
    examples::check_relax(chosen, table, relax);
    // A method without adaptive options is refused --z-as with them (AdaptiveOptions::check_applicable).
    if (chosen.adaptive() && !chosen.carries_quadrature && adaptive.z_as == studies::ZMode::Quadrature) {
      throw UsageError("--z-as: " + chosen.name + " has no quadratures: it carries Z in the state");
    }
    if (!at_fixed_step) return chosen.needs_separable_model ? method_at_fixed_step(chosen, table) : chosen;
    return method_at_fixed_step(chosen, table, relax);
  }

  int execute() const {
    if (const KinematicEntry* kinematic = find_kinematic_model(common.model)) return execute_kinematic(*kinematic);
    const ModelEntry& entry = find_model(common.model);
    RunSettings settings = this->settings(entry);
    const ModelSetup setup = common.setup();
    check_settings(entry, setup, settings);
    const Form form = form_of(entry, settings);
    const std::vector<std::string>& independent = independent_velocities_of(entry, settings);
    check_diagnosis_columns(entry, form, diagnosis, settings.options);
    CommandOutputs outputs = this->outputs();
    outputs.check();

    // Every argument has been checked: now the files are created, under temporary names.
    outputs.open();
    std::optional<HistoryCsv> history;
    std::optional<RunPlotRows> plot_rows;
    if (OutputFile* csv_file = outputs.file("--csv")) history.emplace(*csv_file, entry, setup, form, independent, diagnosis);
    if (plot_option->count() > 0) plot_rows.emplace(entry, setup, form, independent);
    if (history || plot_rows) {
      settings.audit.row_sink = [&plot_rows, csv_sink = history ? history->sink() : RowSink()](
                                    const HistoryLayout& layout, std::span<const double> rows) {
        if (csv_sink) csv_sink(layout, rows);
        if (plot_rows) plot_rows->add(layout, rows);
      };
    }
    install_interruption_handlers();
    settings.stop = &interruption_request();

    const RunOutcome run = run_model(entry, setup, settings);
    if (run.audit) {  // the last state, which --every may have left out
      if (history) history->finish(*run.audit);
      if (plot_rows) plot_rows->finish(*run.audit);
    }
    // The plot first: if gnuplot fails, no output of this invocation is left, the summary included.
    outputs.commit("--plot", [&](OutputFile& file) { plot_run(file, entry, run, *plot_rows); });
    print_summary(std::cout, entry, run);
    std::cout.flush();
    outputs.commit("--csv");  // streamed while the run went
    outputs.commit("--json", [&](OutputFile& file) { write_json(file, entry, run); });
    if (!run.finished()) return unfinished(run.stop_description(), outputs);
    if (common.fail_on_verdict && run.verdict() != "pass") return exit_verdict;
    return exit_finished;
  }

  /// --csv and --json.
  CommandOutputs outputs() const {
    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--json", json_option->count() > 0, json);
    outputs.add("--plot", plot_option->count() > 0, plot, OutputKind::Plot);
    return outputs;
  }

  /// After a run that did not finish: says how it stopped and where its history so far is.
  static int unfinished(const std::string& how, const CommandOutputs& outputs) {
    const std::string files = outputs.committed_text();
    std::cerr << "energy-audit: " << how << (files.empty() ? "" : "; the history so far is in " + files) << "\n";
    return exit_status(exit_failure);
  }

  /// `run` on a kinematic model (kinematic_run.hpp): its constraint drift and verdict.
  int execute_kinematic(const KinematicEntry& model) const;
};

/// Refuses the options of `command` named in `names` that were given: they act on C or on
/// multiplier models, which a kinematic model does not have.
void refuse_for_kinematic(const CLI::App& command, const KinematicEntry& model, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const CLI::Option* option = command.get_option_no_throw(name);
    if (option != nullptr && option->count() > 0) {
      throw UsageError(std::string(name) + ": does not apply to model " + model.name +
                       ", a kinematic model audited by its constraint drift (no energies, no multipliers)");
    }
  }
}

/// The options of run that have no meaning for a kinematic model: those of C, of multipliers and
/// of pieces.
constexpr std::initializer_list<const char*> options_not_for_kinematic_models{
    "--form", "--independent", "--threshold", "--drift-threshold", "--stabilize", "--phase", "--baumgarte",
    "--no-equation-check", "--equation-check-every", "--equation-threshold", "--no-audit", "--every", "--z-as",
    "--equation-columns", "--ledger-columns", "--plot", "--relax"};

int RunCommand::execute_kinematic(const KinematicEntry& model) const {
  refuse_for_kinematic(*app, model, options_not_for_kinematic_models);
  KinematicSettings settings;
  settings.method = chosen_method();
  refuse_if_given(table_option, "the kinematic models run ERKStep with its default table");
  settings.step = step;
  settings.adaptive = adaptive.options();
  if (common.t_end_option->count() > 0) settings.t_end = common.t_end;
  settings.keep_history = csv_option->count() > 0;
  const ModelSetup setup = common.setup();
  adaptive.check_applicable(methods_used(settings.method), true);
  model.check(setup, settings);
  CommandOutputs outputs = this->outputs();
  outputs.check();
  outputs.open();
  install_interruption_handlers();
  settings.stop = &interruption_request();

  const KinematicOutcome run = model.run(setup, settings);
  print_kinematic_summary(std::cout, run);
  std::cout.flush();
  outputs.commit("--csv", [&](OutputFile& file) { write_kinematic_csv(file, run); });
  outputs.commit("--json", [&](OutputFile& file) { write_kinematic_json(file, run); });
  if (!run.finished()) {  // diverged (verdict unstable), failed or interrupted
    return unfinished(stop_description(run), outputs);
  }
  if (common.fail_on_verdict && run.verdict() != "stable") return exit_verdict;
  return exit_finished;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("run", "integrate one model with one method and audit it");
  auto options = std::make_shared<RunCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession&) { return options->execute(); }, false};
}

}  // namespace energy_audit::cli
