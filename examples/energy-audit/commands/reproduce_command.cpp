#include "reproduce_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <energy_audit/studies/run_pool.hpp>

#include "command_outputs.hpp"
#include "interruption.hpp"
#include "option_groups.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "reproduce.hpp"
#include "reproduce_seed001.hpp"
#include "reproduce_seed002.hpp"

namespace energy_audit::cli {
namespace {

/// --plots DIR: a directory that exists, else the reason (a usage error before any run); the
/// figures are drawn into it, which creates no directory.
std::string existing_figure_directory(const std::string& directory) {
  std::error_code error;
  const auto status = std::filesystem::status(directory, error);
  if (!std::filesystem::exists(status)) {
    return "cannot draw into " + quoted_path(directory) + ": no such directory (create it first)";
  }
  if (!std::filesystem::is_directory(status)) return "cannot draw into " + quoted_path(directory) + ": not a directory";
  return {};
}

/// `reproduce seed000`: the rows of a source paper's table that a model here corresponds to,
/// run and set beside the paper's values (reproduce.hpp).
struct ReproduceCommand {
  std::string paper, csv, json, plots;
  CLI::Option *csv_option = nullptr, *json_option = nullptr, *plots_option = nullptr;

  void add_to(CLI::App& command) {
    command.add_option("paper", paper, "the paper to reproduce: seed000 (its Table 1), seed001 (its claims on the ellipse), "
                       "seed002 (its crane with Euler-Cromer and RK2, figures 2-5)")
        ->required()
        ->check(CLI::IsMember({"seed000", "seed001", "seed002"}));
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    json_option = command.add_option("--json", json, "write the table to FILE as JSON");
    plots_option = command.add_option("--plots", plots, "draw the figures as DIR/fig2.png ... (seed000: fig8, seed002: fig5; gnuplot)")
                       ->check(CLI::Validator(existing_figure_directory, "DIR"));
  }

  int execute(const MpiSession& session) const {
    if (paper == "seed001") return execute_seed001(session);
    if (paper == "seed002") return execute_seed002();
    const bool want_plots = plots_option->count() > 0;
    const std::vector<std::string> figures = want_plots ? seed000_figure_paths(plots) : std::vector<std::string>{};
    CommandOutputs outputs = table_outputs();
    for (const std::string& figure : figures) outputs.add("--plots", true, figure, OutputKind::Figure);
    outputs.check();
    outputs.open();
    install_interruption_handlers();

    const std::vector<PaperRun>& runs = seed000_runs();
    const std::vector<ReproducedRun> rows = reproduce(runs, &interruption_request());
    std::cout << "seed 000, Table 1: paper's delta_C beside ours (pass: delta_C <= 1e-3)\n";
    print_reproduction(std::cout, rows);
    bool all_finished = rows.size() == runs.size();
    for (const ReproducedRun& row : rows) all_finished = all_finished && row.run.finished();
    if (rows.size() < runs.size()) {
      std::cout << "interrupted: " << runs.size() - rows.size() << " of " << runs.size() << " runs not started\n";
    }
    std::cout.flush();
    if (want_plots && all_finished) plot_seed000_figures(figures, rows);
    outputs.commit("--csv", [&](OutputFile& file) { write_reproduction_csv(file, rows); });
    outputs.commit("--json", [&](OutputFile& file) { write_reproduction_json(file, rows); });
    if (!all_finished) {
      if (want_plots) std::cerr << "energy-audit: not every run finished: the figures were not drawn\n";
      return exit_status(exit_failure);
    }
    return exit_finished;
  }

  /// --csv and --json: the table.
  CommandOutputs table_outputs() const {
    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--json", json_option->count() > 0, json);
    return outputs;
  }

  /// seed 001's claims beside the computation (reproduce_seed001.hpp).
  int execute_seed001(const MpiSession& session) const {
    refuse_if_given(plots_option, "seed001 has no figures to draw here; its maps come from `energy-audit stability`");
    CommandOutputs outputs = table_outputs();
    outputs.check();
    outputs.open();
    install_interruption_handlers();
    const RunPool pool = session.run_pool(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    const std::vector<ClaimCheck> checks = check_seed001_claims(pool, &interruption_request());
    print_claim_checks(std::cout, checks);
    std::cout.flush();
    outputs.commit("--csv", [&](OutputFile& file) { write_claim_checks_csv(file, checks); });
    outputs.commit("--json", [&](OutputFile& file) { write_claim_checks_json(file, checks); });
    if (interruption_signal() != 0) return exit_status(exit_failure);
    return exit_finished;
  }

  /// seed 002's crane with the paper's two methods, its claims and figures (reproduce_seed002.hpp).
  int execute_seed002() const {
    const bool want_plots = plots_option->count() > 0;
    const std::vector<std::string> figures = want_plots ? seed002_figure_paths(plots) : std::vector<std::string>{};
    CommandOutputs outputs = table_outputs();
    for (const std::string& figure : figures) outputs.add("--plots", true, figure, OutputKind::Figure);
    outputs.check();
    outputs.open();
    install_interruption_handlers();
    const Seed002Reproduction reproduction = reproduce_seed002(&interruption_request());
    print_seed002(std::cout, reproduction);
    std::cout.flush();
    if (want_plots && reproduction.finished) plot_seed002_figures(figures, reproduction);
    outputs.commit("--csv", [&](OutputFile& file) { write_seed002_csv(file, reproduction); });
    outputs.commit("--json", [&](OutputFile& file) { write_seed002_json(file, reproduction); });
    if (!reproduction.finished) {
      if (want_plots) std::cerr << "energy-audit: not every run finished: the figures were not drawn\n";
      return exit_status(exit_failure);
    }
    return exit_finished;
  }
};

}  // namespace

Command add_reproduce_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("reproduce", "run the rows of a source paper's table beside its values");
  auto options = std::make_shared<ReproduceCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, false};
}

}  // namespace energy_audit::cli
