// energy-audit: run the example models under the energy audit from the command line.
// Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence,
// 2 usage error, 3 failed verdict with --fail-on-verdict.

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/history.hpp>

#include "drift_envelope.hpp"
#include "methods.hpp"
#include "model_registry.hpp"
#include "output_file.hpp"
#include "plots.hpp"
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
  std::string stabilize = "none";
  std::string baumgarte = "5,5";
  bool fail_on_verdict = false;

  void add_to(CLI::App& command) {
    command.add_option("MODEL", model, "model name (see `energy-audit list`)")->required();
    command.add_option("--t-end", t_end, "end of the interval (default: the model's)");
    command.add_option("--set", sets, "set a model parameter, NAME=VALUE (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->expected(1);
    command.add_option("--init", inits, "set an initial value, NAME=VALUE (repeatable)")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->expected(1);
    command.add_option("--threshold", threshold, "pass when delta_C <= X")->capture_default_str();
    command.add_option("--stabilize", stabilize, "multiplier models: none|baumgarte|ggl (ggl on idas only)")
        ->capture_default_str();
    command.add_option("--baumgarte", baumgarte, "Baumgarte ALPHA,BETA [1/s] for --stabilize baumgarte")
        ->capture_default_str();
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
    if (stabilize == "none") {
      r.stabilization = Stabilization::None;
    } else if (stabilize == "baumgarte") {
      r.stabilization = Stabilization::Baumgarte;
    } else if (stabilize == "ggl") {
      r.stabilization = Stabilization::Ggl;
    } else {
      throw UsageError("--stabilize: '" + stabilize + "' is none of none, baumgarte, ggl");
    }
    const std::vector<std::string> coefficients = split_list("--baumgarte", baumgarte);
    if (coefficients.size() != 2) throw UsageError("--baumgarte: '" + baumgarte + "' is not ALPHA,BETA");
    r.baumgarte = {parse_number("--baumgarte", coefficients[0]), parse_number("--baumgarte", coefficients[1])};
    if (r.baumgarte.alpha < 0 || r.baumgarte.beta < 0) throw UsageError("--baumgarte: alpha and beta must be >= 0");
    return r;
  }
};

/// CVODES options shared by run and compare, as the user typed them.
struct AdaptiveOptions {
  std::string rtol = "1e-8";
  std::string atol = "1e-10";
  std::string max_steps = "100000";
  std::string z_as = "state";
  std::string iteration = "newton";
  std::string initial_step = "0";
  std::string max_step = "0";

  void add_to(CLI::App& command, bool with_rtol) {
    if (with_rtol) {
      command.add_option("--rtol", rtol, "relative tolerance (cvode-bdf, cvode-adams, idas)")->capture_default_str();
    }
    command.add_option("--atol", atol, "absolute tolerance (cvode-bdf, cvode-adams, idas)")->capture_default_str();
    command.add_option("--max-steps", max_steps, "adaptive methods: most internal steps for the whole run")
        ->capture_default_str();
    command.add_option("--z-as", z_as, "adaptive methods: Z in the state (a residual for idas) or as a quadrature: state|quadrature")
        ->capture_default_str();
    command.add_option("--iteration", iteration, "cvode-bdf, cvode-adams: nonlinear iteration newton|fixed-point")
        ->capture_default_str();
    command.add_option("--initial-step", initial_step, "adaptive methods: first step (0: the solver's estimate)")
        ->capture_default_str();
    command.add_option("--max-step", max_step, "adaptive methods: largest step (0: unbounded)")->capture_default_str();
  }

  sun::CvodesOptions parse() const {
    sun::CvodesOptions o;
    o.rtol = parse_number("--rtol", rtol);
    o.atol = parse_number("--atol", atol);
    const std::size_t steps = parse_count("--max-steps", max_steps);
    if (steps > static_cast<std::size_t>(std::numeric_limits<long>::max())) {
      throw UsageError("--max-steps: '" + max_steps + "' is too large");
    }
    o.max_steps = static_cast<long>(steps);
    if (z_as == "state") {
      o.z_mode = sun::ZMode::State;
    } else if (z_as == "quadrature") {
      o.z_mode = sun::ZMode::Quadrature;
    } else {
      throw UsageError("--z-as: '" + z_as + "' is neither state nor quadrature");
    }
    if (iteration == "newton") {
      o.iteration = sun::NonlinearIteration::Newton;
    } else if (iteration == "fixed-point") {
      o.iteration = sun::NonlinearIteration::FixedPoint;
    } else {
      throw UsageError("--iteration: '" + iteration + "' is neither newton nor fixed-point");
    }
    o.initial_step = parse_number("--initial-step", initial_step);
    o.max_step = parse_number("--max-step", max_step);
    return o;
  }
};

/// δ_C against the work of every finished run, for --plot.
std::vector<WorkPrecisionPoint> work_precision_points(const std::vector<ComparisonRow>& rows) {
  std::vector<WorkPrecisionPoint> points;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    if (!run.finished() || !run.audit) continue;
    points.push_back({run.method.name, static_cast<double>(run.rhs_evaluations), run.audit->relative_drift()});
  }
  return points;
}

/// |C(t) − C(t0)| of every run that kept a history, for --plot-c.
std::vector<DriftCurve> drift_curves(const std::vector<ComparisonRow>& rows) {
  std::vector<DriftCurve> curves;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    if (!run.audit || run.audit->history().rows() < 2) continue;
    const History& history = run.audit->history();
    const std::size_t c_column = history.layout().multiplier_offset() - 1;  // C ends the energies
    DriftEnvelope envelope(run.interval.t0, run.interval.t_end);
    for (std::size_t r = 0; r < history.rows(); ++r) {
      envelope.add(history.row(r)[0], std::abs(history.row(r)[c_column] - run.audit->initial_control()));
    }
    std::ostringstream label;
    label << (run.method.adaptive() ? "rtol=" : "h=") << run.resolution();
    curves.push_back({run.method.name, label.str(), envelope.points()});
  }
  return curves;
}

int list_command() {
  std::printf("Models:\n");
  for (const ModelEntry& model : model_registry()) {
    std::printf("  %-16s %s\n", model.name.c_str(), model.description.c_str());
  }
  const std::string multiplier_models = join(multiplier_model_names());
  std::printf("\nMethods (fixed step: --step; adaptive: --rtol, --atol):\n");
  for (const Method& m : all_methods()) {
    const std::string runs = m.runs_only_multiplier_models() ? multiplier_models : "all models";
    std::printf("  %-16s %s; runs: %s\n", m.name.c_str(), m.description.c_str(), runs.c_str());
  }
  std::printf("\nMultiplier models take --stabilize none|baumgarte (every method) or ggl (idas).\n");
  return exit_finished;
}

struct RunCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::string method = "rk4";
  std::string step = "1e-3";
  std::string every = "1";
  std::string csv, json;
  bool no_audit = false;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--method", method, "integration method (see `energy-audit list`)")->capture_default_str();
    command.add_option("--step", step, "fixed step h (fixed-step methods)")->capture_default_str();
    adaptive.add_to(command, true);
    command.add_option("--every", every, "store every K-th step in the history (delta_C sees all)")
        ->capture_default_str();
    auto* csv_option = command.add_option("--csv", csv, "write the history to FILE");
    auto* json_option = command.add_option("--json", json, "write the run record to FILE");
    command.add_flag("--no-audit", no_audit, "integrate [q, v] only: no Z, no audit (overhead runs)")
        ->excludes(csv_option)
        ->excludes(json_option);
  }

  int execute() const {
    const ModelEntry& model = find_model(common.model);
    RunSettings settings = common.settings();
    settings.method = find_method(method);
    settings.step = parse_number("--step", step);
    settings.cvodes = adaptive.parse();
    settings.audit.store_every = parse_count("--every", every);
    settings.audited = !no_audit;
    check_writable("--csv", csv);
    check_writable("--json", json);
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
      std::ostringstream where;
      if (run.diverged_at) {
        where << "diverged at t = " << *run.diverged_at;
      } else {
        where << "error: " << run.error;
      }
      std::string files;
      for (const std::string& f : written) files += (files.empty() ? "" : ", ") + f;
      std::cerr << "energy-audit: " << where.str()
                << (files.empty() ? "" : "; history so far written to " + files) << "\n";
      return exit_failure;
    }
    if (common.fail_on_verdict && run.verdict() != "pass") return exit_verdict;
    return exit_finished;
  }
};

struct CompareCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::string methods = "euler,euler-cromer,rk2,rk3,rk4,rkg";
  std::string steps = "1e-2,5e-3,1e-3";
  std::string rtols = "1e-4,1e-6,1e-8,1e-10";
  std::string csv, plot, plot_c;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--methods", methods, "comma-separated methods, fixed-step and adaptive")
        ->capture_default_str();
    command.add_option("--steps", steps, "comma-separated steps for the fixed-step methods")->capture_default_str();
    command.add_option("--rtols", rtols, "comma-separated rtols for the adaptive methods")->capture_default_str();
    adaptive.add_to(command, false);
    command.add_option("--csv", csv, "write the table to FILE");
    command.add_option("--plot", plot, "draw the work-precision diagram to FILE.png (gnuplot)");
    command.add_option("--plot-c", plot_c, "draw |C(t) - C(t0)| of every run to FILE.png (gnuplot)");
  }

  int execute() const {
    const ModelEntry& model = find_model(common.model);
    RunSettings base = common.settings();
    base.cvodes = adaptive.parse();
    const ModelSetup setup = common.setup();
    std::vector<const Method*> method_list;
    for (const std::string& name : split_list("--methods", methods)) method_list.push_back(&find_method(name, "--methods"));
    std::vector<double> step_list, rtol_list;
    for (const std::string& text : split_list("--steps", steps)) step_list.push_back(parse_number("--steps", text));
    for (const std::string& text : split_list("--rtols", rtols)) rtol_list.push_back(parse_number("--rtols", text));

    // Every run's settings are checked before the first one starts.
    std::vector<RunSettings> runs;
    for (const Method* method : method_list) {
      for (double resolution : method->adaptive() ? rtol_list : step_list) {
        RunSettings settings = base;
        settings.method = *method;
        settings.options = {"--methods", "--steps", "--rtols"};
        (method->adaptive() ? settings.cvodes.rtol : settings.step) = resolution;
        settings.audit.store_every = history_stride(settings, model);
        check_settings(model, settings);
        runs.push_back(settings);
      }
    }
    check_writable("--csv", csv);
    check_writable("--plot", plot);
    check_writable("--plot-c", plot_c);

    const bool show_progress = isatty(fileno(stderr)) != 0;
    std::vector<ComparisonRow> rows;
    for (const RunSettings& settings : runs) {
      if (show_progress) {
        std::fprintf(stderr, "\r[%zu/%zu] %s %g   ", rows.size() + 1, runs.size(), settings.method.name.c_str(),
                     settings.method.adaptive() ? settings.cvodes.rtol : settings.step);
      }
      RunOutcome run = run_model(model, setup, settings);
      double order = std::numeric_limits<double>::quiet_NaN();
      const bool same_method = !rows.empty() && rows.back().run.method.name == run.method.name;
      if (same_method && run.finished() && rows.back().run.finished()) {
        order = observed_order(rows.back().run.resolution(), rows.back().run.audit->relative_drift(),
                               run.resolution(), run.audit->relative_drift());
      }
      rows.push_back({std::move(run), order});
    }
    if (show_progress) std::fprintf(stderr, "\r%*s\r", 60, "");
    std::cout << "model " << model.name << "\n";
    print_comparison(std::cout, rows);
    if (!csv.empty()) write_comparison_csv(csv, rows);
    if (!plot.empty()) {
      OutputFile png(plot);
      plot_work_precision(png, model.name, work_precision_points(rows), base.audit.threshold);
      png.commit();
    }
    if (!plot_c.empty()) {
      OutputFile png(plot_c);
      plot_control_drift(png, model.name, drift_curves(rows));
      png.commit();
    }
    if (common.fail_on_verdict) {
      for (const ComparisonRow& row : rows) {
        if (row.run.verdict() != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }

  /// The table needs δ_C only; --plot-c needs C(t): about 2000 points of a fixed-step run.
  std::size_t history_stride(const RunSettings& settings, const ModelEntry& model) const {
    if (plot_c.empty()) return 0;
    if (settings.method.adaptive()) return 1;
    const double span = settings.t_end.value_or(model.interval.t_end) - model.interval.t0;
    const double step_count = span / settings.step;
    return step_count > 4000 ? static_cast<std::size_t>(step_count / 2000) : 1;
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
  app.footer("Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence (the history\n"
             "computed so far is still written), 2 usage error, 3 verdict not pass with --fail-on-verdict.\n"
             "The models, methods and the JSON and CSV formats are described in README.md.");
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
