#include "reproduce_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "command_outputs.hpp"
#include "interruption.hpp"
#include "option_groups.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "reproduce.hpp"
#include "reproduce_seed001.hpp"
#include "run_pool.hpp"

namespace energy_audit::cli {
namespace {

/// `reproduce seed000`: the rows of a source paper's table that a model here corresponds to,
/// run and set beside the paper's values (reproduce.hpp).
struct ReproduceCommand {
  std::string paper, csv, json, plots;
  CLI::Option *csv_option = nullptr, *json_option = nullptr, *plots_option = nullptr;

  void add_to(CLI::App& command) {
    command.add_option("paper", paper, "the paper to reproduce: seed000 (its Table 1), seed001 (its claims on the ellipse)")
        ->required()
        ->check(CLI::IsMember({"seed000", "seed001"}));
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    json_option = command.add_option("--json", json, "write the table to FILE as JSON");
    plots_option = command.add_option("--plots", plots, "draw the figures as DIR/fig2.png ... DIR/fig8.png (gnuplot)")
                       ->check(CLI::ExistingDirectory);
  }

  int execute(const MpiSession& session) const {
    if (paper == "seed001") return execute_seed001(session);
    const bool want_csv = csv_option->count() > 0, want_json = json_option->count() > 0,
               want_plots = plots_option->count() > 0;
    const std::vector<std::string> figures = want_plots ? seed000_figure_paths(plots) : std::vector<std::string>{};
    std::vector<std::pair<std::string, std::string>> outputs{{"--csv", csv}, {"--json", json}};
    if (want_csv) check_output_path("--csv", csv);
    if (want_json) check_output_path("--json", json);
    for (const std::string& figure : figures) {
      check_output_path("--plots", figure);
      outputs.emplace_back("--plots", figure);
    }
    check_distinct_outputs(outputs);
    if (want_plots) require_gnuplot("--plots");
    std::optional<OutputFile> csv_file, json_file;
    if (want_csv) csv_file.emplace(csv), remove_previous_output(csv);
    if (want_json) json_file.emplace(json), remove_previous_output(json);
    for (const std::string& figure : figures) remove_previous_output(figure);
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
    if (csv_file) {
      write_reproduction_csv(*csv_file, rows);
      csv_file->commit();
    }
    if (json_file) {
      write_reproduction_json(*json_file, rows);
      json_file->commit();
    }
    if (!all_finished) {
      if (want_plots) std::cerr << "energy-audit: not every run finished: the figures were not drawn\n";
      return exit_status(exit_failure);
    }
    return exit_finished;
  }

  /// seed 001's claims beside the computation (reproduce_seed001.hpp).
  int execute_seed001(const MpiSession& session) const {
    refuse_if_given(plots_option, "seed001 has no figures to draw here; its maps come from `energy-audit stability`");
    const bool want_csv = csv_option->count() > 0, want_json = json_option->count() > 0;
    if (want_csv) check_output_path("--csv", csv);
    if (want_json) check_output_path("--json", json);
    check_distinct_outputs({{"--csv", csv}, {"--json", json}});
    std::optional<OutputFile> csv_file, json_file;
    if (want_csv) csv_file.emplace(csv), remove_previous_output(csv);
    if (want_json) json_file.emplace(json), remove_previous_output(json);
    install_interruption_handlers();
    const RunPool pool(session, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    const std::vector<ClaimCheck> checks = check_seed001_claims(pool, &interruption_request());
    print_claim_checks(std::cout, checks);
    std::cout.flush();
    if (csv_file) {
      write_claim_checks_csv(*csv_file, checks);
      csv_file->commit();
    }
    if (json_file) {
      write_claim_checks_json(*json_file, checks);
      json_file->commit();
    }
    if (interruption_signal() != 0) return exit_status(exit_failure);
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
