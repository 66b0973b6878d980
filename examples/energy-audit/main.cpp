// energy-audit: run the example models under the energy audit from the command line.
// Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence,
// 2 usage error, 3 failed verdict with --fail-on-verdict, 128 + N after signal N (130, 143).

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/stability_map.hpp>

#include "advice_report.hpp"
#include "cli_options.hpp"
#include "drift_envelope.hpp"
#include "interruption.hpp"
#include "kinematic_report.hpp"
#include "kinematic_models.hpp"
#include "model_registry.hpp"
#include "mpi_session.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "report.hpp"
#include "reproduce.hpp"
#include "reproduce_seed001.hpp"
#include "stability_report.hpp"
#include "sweep_report.hpp"
#include "trajectory_csv.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

constexpr int exit_finished = 0;
constexpr int exit_failure = 1;
constexpr int exit_usage = 2;
constexpr int exit_verdict = 3;

/// 128 + the signal's number after an interruption, else `status`.
int exit_status(int status) {
  const int signal_number = interruption_signal();
  return signal_number != 0 ? 128 + signal_number : status;
}

/// Removes the regular file an earlier invocation left at `path`, when this one's run starts and
/// after a run-time failure, so that no earlier result stands under a name it was asked to write:
/// while the run goes (or after a crash) only its temporary file exists.
/// A usage error, found before any run, leaves every file as it was. A name that stands for a
/// descriptor ("-") is no file.
void remove_previous_output(const std::string& path) noexcept {
  struct stat status {};
  if (!path.empty() && !named_descriptor(path) && lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
    unlink(path.c_str());
  }
}

/// The file names given to the output options of the command parsed (reproduce's --plots is a
/// directory, whose figures it names itself).
std::vector<std::string> requested_outputs(const CLI::App& app) {
  std::vector<std::string> paths;
  for (const CLI::App* sub : app.get_subcommands()) {  // the one parsed
    for (const char* option : {"--csv", "--json", "--plot", "--plot-c"}) {
      const CLI::Option* given = sub->get_option_no_throw(option);
      if (given == nullptr) continue;
      for (const std::string& path : given->results()) paths.push_back(path);
    }
  }
  return paths;
}

/// After a run-time failure: the earlier files under the names this invocation was asked to write.
void remove_previous_outputs(const CLI::App& app) noexcept {
  try {
    for (const std::string& path : requested_outputs(app)) remove_previous_output(path);
  } catch (const std::exception&) {  // out of memory for the names: nothing to remove them by
  }
}

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

/// Refuses an option the user gave that has no effect on this run.
void refuse_if_given(const CLI::Option* option, const std::string& why) {
  if (option->count() > 0) throw UsageError(option->get_name() + ": " + why);
}

/// The options of `command` given on its command line, by their names without dashes ("rtol").
std::set<std::string> given_options(const CLI::App& command) {
  std::set<std::string> given;
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() > 0 && name.starts_with("--")) given.insert(name.substr(2));
  }
  return given;
}

/// Where a sweep's runs go: the MPI ranks when mpirun started more than one, else `threads`
/// threads of this process (--threads, which the ranks refuse); they are counted on `progress`.
RunPool run_pool(const MpiSession& session, unsigned threads, const CLI::Option* threads_option,
                 ProgressLine& progress) {
  if (session.size() > 1) {
    refuse_if_given(threads_option, "the runs go to the " + std::to_string(session.size()) +
                                        " MPI ranks, one run per rank at a time; start it without mpirun for threads");
  }
  return RunPool(session, static_cast<int>(threads), &progress);
}

/// --quiet and --progress of the studies: their progress line on stderr (progress.hpp).
struct ProgressOptions {
  bool quiet = false, forced = false;

  void add_to(CLI::App& command) {
    CLI::Option* quiet_option = command.add_flag("--quiet", quiet, "no progress line on stderr");
    command.add_flag("--progress", forced, "the progress line on stderr even when it is not a terminal")
        ->excludes(quiet_option);
  }
  bool shown(const MpiSession& session) const { return progress_shown(quiet, forced, session.leads()); }
};

/// "a,b,c": a list as an option's default is written.
std::string comma_separated(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

/// The models run and stability accept: the audited ones (model_registry) and the kinematic ones.
std::vector<std::string> all_model_names() {
  std::vector<std::string> names = model_names();
  for (const KinematicEntry& entry : kinematic_registry()) names.push_back(entry.name);
  return names;
}

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const Method& m : all_methods()) names.push_back(m.name);
  return names;
}

/// Options shared by run and compare.
struct CommonOptions {
  std::string model;
  Form form = Form::Lagrange;
  std::vector<std::string> independent;
  double t_end = 0;
  std::vector<Assignment> sets, inits;
  double threshold = 1e-3;
  double drift_threshold = AuditOptions{}.drift_threshold;
  Stabilization stabilize = Stabilization::None;
  PiecePhase phase = PiecePhase::Right;
  std::array<double, 2> baumgarte{5.0, 5.0};
  bool no_equation_check = false;
  std::size_t equation_check_every = AuditOptions{}.equation_check_every;
  double equation_threshold = AuditOptions{}.equation_threshold;
  bool fail_on_verdict = false;
  const CLI::App* app = nullptr;  ///< the command parsed, for the options given
  CLI::Option *form_option = nullptr, *phase_option = nullptr, *t_end_option = nullptr, *threshold_option = nullptr, *drift_threshold_option = nullptr,
              *fail_on_verdict_option = nullptr, *no_equation_check_option = nullptr,
              *equation_check_every_option = nullptr, *equation_threshold_option = nullptr;

  void add_to(CLI::App& command) {
    app = &command;
    command.add_option("MODEL", model, "model name (see `energy-audit list`)")->required()->check(one_of(all_model_names()));
    form_option = command.add_option("--form", form,
                                     "formulation: lagrange|hamilton (Lagrange models), multipliers|maggi "
                                     "(multiplier models); default: the model's first (see `energy-audit list`)")
                      ->transform(choice<Form>({{"lagrange", Form::Lagrange},
                                                {"hamilton", Form::Hamilton},
                                                {"multipliers", Form::Multipliers},
                                                {"maggi", Form::Maggi}}));
    command.add_option("--independent", independent,
                       "--form maggi: the independent velocities, comma-separated coordinate names "
                       "(default: the model's)")
        ->delimiter(',')
        ->type_name("NAMES");
    t_end_option = command.add_option("--t-end", t_end, "end of the interval (default: the model's)")
                       ->check(finite_number());
    command.add_option("--set", sets, "set a model parameter, NAME=VALUE (repeatable)")
        ->check(assignment())->take_all()->type_name("NAME=VALUE");
    command.add_option("--init", inits, "set an initial value, NAME=VALUE (repeatable)")
        ->check(assignment())->take_all()->type_name("NAME=VALUE");
    threshold_option = command.add_option("--threshold", threshold, "pass when delta_C <= X")
                           ->check(non_negative_number())->capture_default_str();
    drift_threshold_option =
        command.add_option("--drift-threshold", drift_threshold,
                           "multiplier models: pass when max |Phi| and max |G v + g| are <= X, in the constraints' units")
            ->check(non_negative_number())->capture_default_str();
    command.add_option("--stabilize", stabilize, "multiplier models: none|baumgarte|ggl (ggl on idas only)")
        ->transform(choice<Stabilization>({{"none", Stabilization::None},
                                           {"baumgarte", Stabilization::Baumgarte},
                                           {"ggl", Stabilization::Ggl}}))
        ->default_str("none");
    phase_option = command.add_option("--phase", phase,
                                      "models with an excitation in pieces (container-line): right|midpoint, the "
                                      "piece each stage of a fixed step takes (default: right)")
                       ->transform(choice<PiecePhase>({{"right", PiecePhase::Right}, {"midpoint", PiecePhase::Midpoint}}));
    command.add_option("--baumgarte", baumgarte, "Baumgarte ALPHA,BETA [1/s] for --stabilize baumgarte")
        ->delimiter(',')->check(non_negative_number())->type_name("ALPHA,BETA")->default_str("5,5");
    no_equation_check_option = command.add_flag(
        "--no-equation-check", no_equation_check,
        "models with hand-derived accelerations: do not check them against Lagrange's equations of T, V, f");
    equation_check_every_option =
        command.add_option("--equation-check-every", equation_check_every,
                           "check the equations at the first two states and every K-th step (1: every step)")
            ->check(positive_count(std::numeric_limits<std::size_t>::max()))->capture_default_str();
    equation_threshold_option =
        command.add_option("--equation-threshold", equation_threshold,
                           "pass when the equations' relative residual is <= X")
            ->check(non_negative_number())->capture_default_str();
    fail_on_verdict_option = command.add_flag("--fail-on-verdict", fail_on_verdict, "exit 3 when a verdict is not pass");
  }

  ModelSetup setup() const { return {sets, inits}; }

  RunSettings settings() const {
    RunSettings r;
    if (form_option->count() > 0) r.form = form;
    r.independent = independent;
    if (t_end_option->count() > 0) r.t_end = t_end;
    if (phase_option->count() > 0) r.phase = phase;
    r.audit.threshold = threshold;
    r.audit.drift_threshold = drift_threshold;
    r.audit.equation_check_every = no_equation_check ? 0 : equation_check_every;
    r.audit.equation_threshold = equation_threshold;
    r.stabilization = stabilize;
    r.baumgarte = {baumgarte[0], baumgarte[1]};
    r.given = given_options(*app);
    return r;
  }

  /// Options that do not apply to the model are usage errors.
  void check_applicable(const ModelEntry& entry) const { check_model_options_apply(entry, settings()); }

  /// The audit options that act on the verdict, refused with --no-audit.
  std::vector<const CLI::Option*> audit_options() const {
    return {threshold_option, drift_threshold_option, fail_on_verdict_option, no_equation_check_option,
            equation_check_every_option, equation_threshold_option};
  }
};

/// SUNDIALS options shared by run and compare.
struct AdaptiveOptions {
  double rtol = 1e-8;
  double atol = 1e-10;
  long max_steps = 100000;
  sun::ZMode z_as = sun::ZMode::State;
  sun::NonlinearIteration iteration = sun::NonlinearIteration::Newton;
  double initial_step = 0;
  double max_step = 0;
  const CLI::App* app = nullptr;  ///< the command parsed, for the options given

  void add_to(CLI::App& command, bool with_rtol) {
    app = &command;
    if (with_rtol) {
      command.add_option("--rtol", rtol, "relative tolerance (cvode-bdf, cvode-adams, idas)")
          ->check(positive_number())->capture_default_str();
    }
    command.add_option("--atol", atol, "absolute tolerance (cvode-bdf, cvode-adams, idas)")
        ->check(positive_number())->capture_default_str();
    command.add_option("--max-steps", max_steps, "adaptive methods: most internal steps for the whole run")
        ->check(positive_count(std::numeric_limits<long>::max()))->capture_default_str();
    command.add_option("--z-as", z_as, "adaptive methods: Z in the state (a residual for idas) or as a quadrature: state|quadrature")
        ->transform(choice<sun::ZMode>({{"state", sun::ZMode::State}, {"quadrature", sun::ZMode::Quadrature}}))
        ->default_str("state");
    command.add_option("--iteration", iteration, "cvode-adams: nonlinear iteration newton|fixed-point")
        ->transform(choice<sun::NonlinearIteration>({{"newton", sun::NonlinearIteration::Newton},
                                                    {"fixed-point", sun::NonlinearIteration::FixedPoint}}))
        ->default_str("newton");
    command.add_option("--initial-step", initial_step, "adaptive methods: first step (0: the solver's estimate)")
        ->check(non_negative_number())->capture_default_str();
    command.add_option("--max-step", max_step, "adaptive methods: largest step (0: unbounded)")
        ->check(non_negative_number())->capture_default_str();
  }

  sun::CvodesOptions options() const {
    sun::CvodesOptions o;
    o.rtol = rtol;
    o.atol = atol;
    o.max_steps = max_steps;
    o.z_mode = z_as;
    o.iteration = iteration;
    o.initial_step = initial_step;
    o.max_step = max_step;
    return o;
  }

  /// The options of the adaptive methods are usage errors when no adaptive method runs;
  /// --iteration when cvode-adams does not; --step when no fixed-step method does.
  void check_applicable(const MethodsUsed& methods) const {
    check_method_options_apply(given_options(*app), OptionNames{}, methods);
  }
};

int list_command() {
  // One name column for models and methods, as wide as the longest name.
  int width = 0;
  for (const ModelEntry& model : model_registry()) width = std::max(width, static_cast<int>(model.name.size()));
  for (const Method& m : all_methods()) width = std::max(width, static_cast<int>(m.name.size()));
  std::printf("Models (forms: the default first):\n");
  for (const ModelEntry& model : model_registry()) {
    std::vector<std::string> forms;
    for (const Form f : model.forms) forms.emplace_back(form_name(f));
    std::printf("  %-*s %s; forms: %s\n", width, model.name.c_str(), model.description.c_str(), join(forms).c_str());
  }
  std::printf("\nKinematic models (q' = w(q, t), audited by their constraint drift; run, stability):\n");
  for (const KinematicEntry& model : kinematic_registry()) {
    std::printf("  %-*s %s\n", width, model.name.c_str(), model.description.c_str());
  }
  const std::string multiplier_models = join(multiplier_model_names());
  std::printf("\nMethods (fixed step: --step; adaptive: --rtol, --atol):\n");
  for (const Method& m : all_methods()) {
    const bool partitioned = !m.adaptive() && m.fixed_step.info().partitioned;
    const std::string runs = m.runs_only_multiplier_models() ? multiplier_models
                             : partitioned                   ? "all models but the kinematic ones"
                                                             : "all models";
    std::printf("  %-*s %s; runs: %s\n", width, m.name.c_str(), m.description.c_str(), runs.c_str());
  }
  std::printf("\nMultiplier models take --stabilize none|baumgarte (every method) or ggl (idas).\n");
  return exit_finished;
}

struct RunCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::string method = "rk4";
  double step = 1e-3;
  std::size_t every = 1;
  std::string csv, json;
  bool no_audit = false;
  CLI::Option *every_option = nullptr, *csv_option = nullptr, *json_option = nullptr;

  const CLI::App* app = nullptr;

  void add_to(CLI::App& command) {
    app = &command;
    common.add_to(command);
    command.add_option("--method", method, "integration method (see `energy-audit list`)")
        ->check(one_of(method_names()))->capture_default_str();
    command.add_option("--step", step, "fixed step h (fixed-step methods)")
        ->check(positive_number())->capture_default_str();
    adaptive.add_to(command, true);
    every_option = command.add_option("--every", every, "write every K-th step to the --csv history (delta_C sees all)")
                       ->check(positive_count(std::numeric_limits<std::size_t>::max()))->capture_default_str();
    csv_option = command.add_option("--csv", csv, "write the history to FILE (streamed while the run goes)");
    json_option = command.add_option("--json", json, "write the run record to FILE");
    command.add_flag("--no-audit", no_audit, "integrate [q, v] only: no Z, no audit (overhead runs)")
        ->excludes(csv_option);
  }

  RunSettings settings(const ModelEntry& entry) const {
    common.check_applicable(entry);
    RunSettings s = common.settings();
    s.method = find_method(method);
    s.step = step;
    s.cvodes = adaptive.options();
    s.audit.store_every = csv_option->count() > 0 ? every : 0;  // rows are kept only to stream them into the CSV
    s.audited = !no_audit;
    adaptive.check_applicable(methods_used(s.method));
    if (no_audit) {
      const std::string why = "has nothing to act on with --no-audit";
      refuse_if_given(every_option, why);
      for (const CLI::Option* option : common.audit_options()) refuse_if_given(option, why);
    } else if (csv_option->count() == 0) {
      refuse_if_given(every_option, "thins the history written by --csv, which is not given");
    }
    return s;
  }

  int execute() const {
    if (const KinematicEntry* kinematic = find_kinematic_model(common.model)) return execute_kinematic(*kinematic);
    const ModelEntry& entry = find_model(common.model);
    RunSettings settings = this->settings(entry);
    const ModelSetup setup = common.setup();
    check_settings(entry, setup, settings);
    if (csv_option->count() > 0) check_output_path("--csv", csv);
    if (json_option->count() > 0) check_output_path("--json", json);
    check_distinct_outputs({{"--csv", csv}, {"--json", json}});

    // Every argument has been checked: now the files are created, under temporary names.
    std::optional<OutputFile> csv_file, json_file;
    std::optional<HistoryCsv> history;
    if (csv_option->count() > 0) {
      csv_file.emplace(csv);
      remove_previous_output(csv);
      history.emplace(*csv_file, entry, setup, form_of(entry, settings), independent_velocities_of(entry, settings));
      settings.audit.row_sink = history->sink();
    }
    if (json_option->count() > 0) {
      json_file.emplace(json);
      remove_previous_output(json);
    }
    install_interruption_handlers();
    settings.stop = &interruption_request();

    const RunOutcome run = run_model(entry, setup, settings);
    if (history && run.audit) history->finish(*run.audit);  // the last state, which --every may have left out
    print_summary(std::cout, entry, run);
    std::cout.flush();
    std::vector<std::string> written;
    if (csv_file) {
      csv_file->commit();
      written.push_back(csv);
    }
    if (json_file) {
      write_json(*json_file, entry, run);
      json_file->commit();
      written.push_back(json);
    }
    if (!run.finished()) {
      std::string files;
      for (const std::string& f : written) files += (files.empty() ? "" : ", ") + quoted_path(f);
      std::cerr << "energy-audit: " << run.stop_description()
                << (files.empty() ? "" : "; the history so far is in " + files) << "\n";
      return exit_status(exit_failure);
    }
    if (common.fail_on_verdict && run.verdict() != "pass") return exit_verdict;
    return exit_finished;
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
    "--no-equation-check", "--equation-check-every", "--equation-threshold", "--no-audit", "--every", "--z-as"};

int RunCommand::execute_kinematic(const KinematicEntry& model) const {
  refuse_for_kinematic(*app, model, options_not_for_kinematic_models);
  KinematicSettings settings;
  settings.method = find_method(method);
  settings.step = step;
  settings.cvodes = adaptive.options();
  if (common.t_end_option->count() > 0) settings.t_end = common.t_end;
  settings.keep_history = csv_option->count() > 0;
  const ModelSetup setup = common.setup();
  adaptive.check_applicable(methods_used(settings.method));
  model.check(setup, settings);
  if (csv_option->count() > 0) check_output_path("--csv", csv);
  if (json_option->count() > 0) check_output_path("--json", json);
  check_distinct_outputs({{"--csv", csv}, {"--json", json}});
  std::optional<OutputFile> csv_file, json_file;
  if (csv_option->count() > 0) csv_file.emplace(csv), remove_previous_output(csv);
  if (json_option->count() > 0) json_file.emplace(json), remove_previous_output(json);
  install_interruption_handlers();
  settings.stop = &interruption_request();

  const KinematicOutcome run = model.run(setup, settings);
  print_kinematic_summary(std::cout, run);
  std::cout.flush();
  std::vector<std::string> written;
  if (csv_file) {
    write_kinematic_csv(*csv_file, run);
    csv_file->commit();
    written.push_back(csv);
  }
  if (json_file) {
    write_kinematic_json(*json_file, run);
    json_file->commit();
    written.push_back(json);
  }
  if (!run.finished()) {  // diverged (verdict unstable), failed or interrupted
    std::string files;
    for (const std::string& f : written) files += (files.empty() ? "" : ", ") + quoted_path(f);
    std::ostringstream at;
    at << run.t_reached;
    const std::string how = run.end == RunEnd::Error ? "error: " + run.error + "; stopped at t = " + at.str()
                            : run.end == RunEnd::Diverged
                                ? "diverged: |f| beyond 1e100 or not finite in the step after t = " + at.str()
                                : "interrupted at t = " + at.str();
    std::cerr << "energy-audit: " << how << (files.empty() ? "" : "; the history so far is in " + files) << "\n";
    return exit_status(exit_failure);
  }
  if (common.fail_on_verdict && run.verdict() != "stable") return exit_verdict;
  return exit_finished;
}

struct CompareCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::vector<std::string> methods = fixed_step_method_names();
  std::vector<double> steps{1e-2, 5e-3, 1e-3};
  std::vector<double> rtols{1e-4, 1e-6, 1e-8, 1e-10};
  unsigned threads = 1;
  std::string csv, plot, plot_c;
  ProgressOptions progress;
  CLI::Option *steps_option = nullptr, *rtols_option = nullptr, *csv_option = nullptr, *plot_option = nullptr,
              *plot_c_option = nullptr, *threads_option = nullptr;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--methods", methods, "comma-separated methods, fixed-step and adaptive")
        ->delimiter(',')->check(one_of(method_names()))->default_str(comma_separated(fixed_step_method_names()));
    steps_option = command.add_option("--steps", steps, "comma-separated steps for the fixed-step methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-2,5e-3,1e-3");
    rtols_option = command.add_option("--rtols", rtols, "comma-separated rtols for the adaptive methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-4,1e-6,1e-8,1e-10");
    adaptive.add_to(command, false);
    // One run at a time by default: the table reports each run's wall time, which runs side by
    // side on shared cores would lengthen.
    threads_option = command.add_option("--threads", threads, "runs at once, on threads (under mpirun the runs go to the ranks)")
                         ->check(CLI::Range(1u, 1024u))->capture_default_str();
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    plot_option = command.add_option("--plot", plot, "draw the work-precision diagram to FILE.png (gnuplot)");
    plot_c_option = command.add_option("--plot-c", plot_c, "draw |C(t) - C(t0)| of every run to FILE.png (gnuplot)");
    progress.add_to(command);
  }

  int execute(const MpiSession& session) const {
    ProgressLine progress_line(progress.shown(session));
    const RunPool pool = run_pool(session, threads, threads_option, progress_line);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model, audited by its constraint drift: use run or "
                       "stability, not compare");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    const ModelSetup setup = common.setup();
    RunSettings base = common.settings();
    base.cvodes = adaptive.options();
    std::vector<const Method*> method_list;
    bool any_adaptive = false, any_fixed = false, any_adams = false;
    for (const std::string& name : methods) {
      method_list.push_back(&find_method(name, "--methods"));
      (method_list.back()->adaptive() ? any_adaptive : any_fixed) = true;
      any_adams = any_adams || name == "cvode-adams";
    }
    const std::string method_text = join(methods);
    if (!any_fixed) refuse_if_given(steps_option, "applies to the fixed-step methods, not to " + method_text);
    if (!any_adaptive) refuse_if_given(rtols_option, "applies to the adaptive methods, not to " + method_text);
    adaptive.check_applicable({any_fixed, any_adaptive, any_adams, method_text});

    // Every run's settings are checked before the first one starts.
    std::vector<RunSettings> runs;
    for (const Method* method : method_list) {
      for (double resolution : method->adaptive() ? rtols : steps) {
        RunSettings settings = base;
        settings.method = *method;
        settings.options = {"--methods", "--steps", "--rtols"};
        (method->adaptive() ? settings.cvodes.rtol : settings.step) = resolution;
        settings.audit.store_every = plot_c_option->count() > 0 ? 1 : 0;  // --plot-c: every step, in an envelope
        check_settings(entry, setup, settings);
        runs.push_back(settings);
      }
    }
    const bool want_csv = csv_option->count() > 0, want_plot = plot_option->count() > 0,
               want_plot_c = plot_c_option->count() > 0;
    if (want_csv) check_output_path("--csv", csv);
    if (want_plot) check_output_path("--plot", plot);
    if (want_plot_c) check_output_path("--plot-c", plot_c);
    check_distinct_outputs({{"--csv", csv}, {"--plot", plot}, {"--plot-c", plot_c}});
    if (want_plot) require_gnuplot("--plot");
    if (want_plot_c) require_gnuplot("--plot-c");

    std::optional<OutputFile> csv_file, plot_file, plot_c_file;
    for (auto [wanted, file, path] : {std::tuple{want_csv, &csv_file, &csv}, std::tuple{want_plot, &plot_file, &plot},
                                      std::tuple{want_plot_c, &plot_c_file, &plot_c}}) {
      if (!wanted || !pool.leads()) continue;  // across ranks, rank 0 writes
      file->emplace(*path);
      remove_previous_output(*path);
    }
    install_interruption_handlers();

    progress_line.start("compare " + entry.name, runs.size());
    std::vector<ComparisonRow> rows = pool.map<ComparisonRow>(runs.size(), [&](std::size_t i) {
      if (interruption_request().requested()) return ComparisonRow{};  // not started: no verdict
      RunSettings settings = runs[i];
      settings.stop = &interruption_request();
      std::optional<DriftEnvelope> envelope;
      if (want_plot_c) {
        const Interval interval = check_settings(entry, setup, settings);
        envelope.emplace(interval.t0, interval.t_end);
        settings.audit.row_sink = drift_sink(*envelope);
      }
      ComparisonRow row = comparison_row(run_model(entry, setup, settings));
      if (envelope) row.drift_curve = envelope->points();
      return row;
    });
    std::erase_if(rows, [](const ComparisonRow& row) { return row.verdict.empty(); });
    set_observed_orders(rows);
    std::vector<DriftCurve> curves;
    for (const ComparisonRow& row : rows) {
      if (!want_plot_c) break;
      std::ostringstream label;
      label << (row.adaptive ? "rtol=" : "h=") << row.resolution();
      curves.push_back({row.method, label.str(), row.drift_curve});
    }
    progress_line.finish();
    std::cout << "model " << entry.name << " (form " << form_name(form_of(entry, base)) << ")\n";
    print_comparison(std::cout, rows);
    if (pool.workers().count() > 1) std::cout << "the runs ran on " << pool.workers().text() << "\n";
    if (rows.size() < runs.size()) {
      std::cout << "interrupted: " << runs.size() - rows.size() << " of " << runs.size() << " runs not started\n";
    }
    std::cout.flush();
    // The plots first: if gnuplot fails, no output of this invocation is left, the table included.
    if (plot_file) {
      std::vector<WorkPrecisionPoint> points;
      for (const ComparisonRow& row : rows) {
        if (row.finished && row.delta_C) {
          points.push_back({row.method, static_cast<double>(row.rhs_evaluations), *row.delta_C});
        }
      }
      plot_work_precision(*plot_file, entry.name, points, base.audit.threshold);
      plot_file->commit();
    }
    if (plot_c_file) {
      plot_control_drift(*plot_c_file, entry.name, curves);
      plot_c_file->commit();
    }
    if (csv_file) {
      write_comparison_csv(*csv_file, rows);
      csv_file->commit();
    }
    if (interruption_signal() != 0) return exit_status(exit_failure);
    if (common.fail_on_verdict) {
      for (const ComparisonRow& row : rows) {
        if (row.verdict != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }

  /// Feeds |C − C(t0)| of every stored row to `envelope`, C(t0) from the first row.
  static RowSink drift_sink(DriftEnvelope& envelope) {
    return [&envelope, C0 = std::optional<double>()](const HistoryLayout& layout, std::span<const double> rows) mutable {
      const std::size_t row_size = layout.row_size();
      const std::size_t c_column = layout.multiplier_offset() - 1;  // C ends the energies
      for (std::size_t start = 0; start < rows.size(); start += row_size) {
        const double C = rows[start + c_column];
        if (!C0) C0 = C;
        envelope.add(rows[start], std::abs(C - *C0));
      }
    };
  }
};

/// `stability MODEL`: the map of verdicts of a kinematic model over k, τ, methods and starts,
/// with linear theory and the boundaries (stability_map.hpp).
struct StabilityCommand {
  std::string model;
  std::vector<std::string> methods{"euler", "rk2", "rk3", "rk4"};
  std::vector<double> steps{0.002, 0.005, 0.01};
  std::string gains = "-1500:0.5:3";
  std::vector<Assignment> sets;
  double t_end = 0;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool no_boundaries = false;
  std::string csv, json, plot;
  ProgressOptions progress;
  CLI::Option *t_end_option = nullptr, *csv_option = nullptr, *json_option = nullptr, *plot_option = nullptr,
              *threads_option = nullptr;

  void add_to(CLI::App& command) {
    std::vector<std::string> kinematic_names;
    for (const KinematicEntry& entry : kinematic_registry()) kinematic_names.push_back(entry.name);
    command.add_option("MODEL", model, "a kinematic model (see `energy-audit list`)")->required()->check(one_of(kinematic_names));
    command.add_option("--methods", methods, "comma-separated explicit Runge-Kutta methods (euler, rk2, rk3, rk4, rkg)")
        ->delimiter(',')->check(CLI::IsMember(stability_method_names()))->default_str("euler,rk2,rk3,rk4");
    command.add_option("--steps", steps, "comma-separated steps tau")
        ->delimiter(',')->check(positive_number())->default_str("0.002,0.005,0.01");
    command.add_option("--k", gains, "the gains, FIRST:STEP:LAST")->capture_default_str()->type_name("FIRST:STEP:LAST");
    command.add_option("--set", sets, "set a model parameter other than k, NAME=VALUE (repeatable)")
        ->check(assignment())->take_all()->type_name("NAME=VALUE");
    t_end_option = command.add_option("--t-end", t_end, "end of the interval (default: the model's)")->check(positive_number());
    threads_option = command.add_option("--threads", threads, "threads that run the map (default: the machine's cores; under mpirun the runs go to the ranks)")
        ->check(CLI::Range(1u, 1024u))->capture_default_str();
    command.add_flag("--no-boundaries", no_boundaries,
                     "only the map: no bracketing search of the boundaries and no rho(k) = 1");
    csv_option = command.add_option("--csv", csv, "write every run of the map to FILE");
    json_option = command.add_option("--json", json, "write the map and the boundaries to FILE");
    plot_option = command.add_option("--plot", plot, "draw the verdicts against k and tau to FILE.png (gnuplot)");
    progress.add_to(command);
  }

  int execute(const MpiSession& session) const {
    const KinematicEntry& entry = *find_kinematic_model(model);
    ProgressLine progress_line(progress.shown(session));
    const RunPool pool = run_pool(session, threads, threads_option, progress_line);
    StabilityMapSettings settings;
    for (const std::string& name : methods) settings.methods.push_back(find_method(name, "--methods"));
    settings.steps = steps;
    settings.gains = parse_gain_range(gains).values();
    for (const Assignment& a : sets) {
      if (a.name == "k") throw UsageError("--set: k is what the map varies: give it with --k");
    }
    settings.setup.parameters = sets;
    if (t_end_option->count() > 0) settings.t_end = t_end;
    settings.boundaries = !no_boundaries;
    KinematicSettings check;
    check.t_end = settings.t_end;
    check.options = {"--methods", "--steps", "--rtol"};
    for (const Method& method : settings.methods) {
      check.method = method;
      for (const double tau : steps) {
        check.step = tau;
        entry.check(settings.setup, check);
      }
    }
    const bool want_csv = csv_option->count() > 0, want_json = json_option->count() > 0,
               want_plot = plot_option->count() > 0;
    if (want_csv) check_output_path("--csv", csv);
    if (want_json) check_output_path("--json", json);
    if (want_plot) check_output_path("--plot", plot);
    check_distinct_outputs({{"--csv", csv}, {"--json", json}, {"--plot", plot}});
    if (want_plot) require_gnuplot("--plot");
    std::optional<OutputFile> csv_file, json_file, plot_file;
    if (pool.leads()) {  // across ranks, rank 0 writes
      if (want_csv) csv_file.emplace(csv), remove_previous_output(csv);
      if (want_json) json_file.emplace(json), remove_previous_output(json);
      if (want_plot) plot_file.emplace(plot), remove_previous_output(plot);
    }
    install_interruption_handlers();
    settings.stop = &interruption_request();
    if (pool.leads() && !progress.quiet) {
      std::fprintf(stderr, "energy-audit: %zu runs of the map on %s%s\n",
                   settings.methods.size() * steps.size() * settings.gains.size() * entry.starts.size(),
                   pool.workers().text().c_str(), settings.boundaries ? ", then the boundary searches" : "");
    }
    const StabilityMap map = compute_stability_map(entry, settings, pool);
    progress_line.finish();
    print_stability_map(std::cout, entry.name, map);
    std::cout.flush();
    if (plot_file && !map.interrupted) {
      plot_stability_map(*plot_file, entry.name, map);
      plot_file->commit();
    }
    if (csv_file) {
      write_stability_csv(*csv_file, map);
      csv_file->commit();
    }
    if (json_file) {
      write_stability_json(*json_file, entry.name, map);
      json_file->commit();
    }
    return map.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

/// `advise MODEL --target X`: the largest step (loosest rtol) of each method that meets the
/// target, and the cheapest method (step_advisor.hpp).
struct AdviseCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  double target = 1e-6;
  double drift_target = 1e-6;
  std::vector<std::string> methods;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string json;
  ProgressOptions progress;
  CLI::Option *methods_option = nullptr, *drift_target_option = nullptr, *json_option = nullptr,
              *threads_option = nullptr;

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
                         ->delimiter(',')->check(one_of(method_names()));
    adaptive.add_to(command, false);
    threads_option = command.add_option("--threads", threads,
                                        "threads that run the methods' searches (default: the machine's cores; under mpirun the ranks do)")
                         ->check(CLI::Range(1u, 1024u))->capture_default_str();
    json_option = command.add_option("--json", json, "write the advice and every probe run to FILE");
    progress.add_to(command);
  }

  int execute(const MpiSession& session) const {
    ProgressLine progress_line(progress.shown(session));
    const RunPool pool = run_pool(session, threads, threads_option, progress_line);
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
    settings.base.cvodes = adaptive.options();
    settings.base.options = {"--methods", "--methods", "--methods"};
    std::vector<Method> method_list;
    if (methods_option->count() > 0) {
      for (const std::string& name : methods) method_list.push_back(find_method(name, "--methods"));
    } else {
      for (const Method& m : all_methods()) {
        RunSettings trial = settings.base;
        trial.method = m;
        try {
          check_settings(entry, common.setup(), trial);
          method_list.push_back(m);
        } catch (const UsageError&) {  // a method that does not run this model (idas on a Lagrange model)
        }
      }
    }
    bool any_fixed = false, any_adaptive = false, any_adams = false;
    for (const Method& m : method_list) {
      any_fixed = any_fixed || !m.adaptive();
      any_adaptive = any_adaptive || m.adaptive();
      any_adams = any_adams || m.chooses_iteration;
      RunSettings trial = settings.base;
      trial.method = m;
      check_settings(entry, common.setup(), trial);
    }
    adaptive.check_applicable(
        {any_fixed, any_adaptive, any_adams, methods_option->count() > 0 ? join(methods) : "the methods"});
    if (json_option->count() > 0) check_output_path("--json", json);
    std::optional<OutputFile> json_file;
    if (json_option->count() > 0 && pool.leads()) json_file.emplace(json), remove_previous_output(json);
    install_interruption_handlers();
    settings.base.stop = &interruption_request();
    const Advice advice = advise(entry, common.setup(), method_list, settings, pool);
    progress_line.finish();
    print_advice(std::cout, entry.name, settings, advice);
    std::cout.flush();
    if (json_file) {
      write_advice_json(*json_file, entry.name, settings, advice);
      json_file->commit();
    }
    return advice.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

/// `sweep MODEL`: the Cartesian product of parameter values, initial values, methods and steps,
/// on a pool of threads (sweep.hpp).
struct SweepCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::vector<AssignmentList> set_lists, init_lists;
  std::vector<std::string> methods{"rk4"};
  std::vector<double> steps{1e-3};
  std::vector<double> rtols{1e-8};
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::string csv, json;
  ProgressOptions progress;
  CLI::Option *csv_option = nullptr, *json_option = nullptr, *steps_option = nullptr, *rtols_option = nullptr,
              *threads_option = nullptr;
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
        ->delimiter(',')->check(one_of(method_names()))->default_str("rk4");
    steps_option = command.add_option("--steps", steps, "comma-separated steps for the fixed-step methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-3");
    rtols_option = command.add_option("--rtols", rtols, "comma-separated rtols for the adaptive methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-8");
    adaptive.add_to(command, false);
    threads_option = command.add_option("--threads", threads, "threads that run the sweep (default: the machine's cores; under mpirun the runs go to the ranks)")
        ->check(CLI::Range(1u, 1024u))->capture_default_str();
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    json_option = command.add_option("--json", json, "write the runs to FILE");
    progress.add_to(command);
  }

  int execute(const MpiSession& session) const {
    ProgressLine progress_line(progress.shown(session));
    const RunPool pool = run_pool(session, threads, threads_option, progress_line);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model: its sweep is `energy-audit stability`");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    SweepPlan plan;
    plan.parameters = set_lists;
    plan.initial_values = init_lists;
    plan.base = common.settings();
    plan.base.cvodes = adaptive.options();
    plan.base.options = {"--methods", "--steps", "--rtols"};
    plan.steps = steps;
    plan.rtols = rtols;
    bool any_adaptive = false, any_fixed = false, any_adams = false;
    for (const std::string& name : methods) {
      plan.methods.push_back(find_method(name, "--methods"));
      (plan.methods.back().adaptive() ? any_adaptive : any_fixed) = true;
      any_adams = any_adams || plan.methods.back().chooses_iteration;
    }
    if (!any_fixed) refuse_if_given(steps_option, "applies to the fixed-step methods, not to " + join(methods));
    if (!any_adaptive) refuse_if_given(rtols_option, "applies to the adaptive methods, not to " + join(methods));
    adaptive.check_applicable({any_fixed, any_adaptive, any_adams, join(methods)});
    std::vector<SweepRun> runs = plan_runs(entry, plan);
    if (csv_option->count() > 0) check_output_path("--csv", csv);
    if (json_option->count() > 0) check_output_path("--json", json);
    check_distinct_outputs({{"--csv", csv}, {"--json", json}});
    std::optional<OutputFile> csv_file, json_file;
    if (pool.leads()) {  // across ranks, rank 0 writes
      if (csv_option->count() > 0) csv_file.emplace(csv), remove_previous_output(csv);
      if (json_option->count() > 0) json_file.emplace(json), remove_previous_output(json);
    }
    install_interruption_handlers();
    plan.base.stop = &interruption_request();
    const SweepResult sweep = run_sweep(entry, plan, std::move(runs), pool);
    progress_line.finish();
    print_sweep(std::cout, entry.name, sweep);
    std::cout.flush();
    if (csv_file) {
      write_sweep_csv(*csv_file, sweep);
      csv_file->commit();
    }
    if (json_file) {
      write_sweep_json(*json_file, entry.name, sweep);
      json_file->commit();
    }
    if (sweep.interrupted) return exit_status(exit_failure);
    if (common.fail_on_verdict) {
      for (const SweepRun& run : sweep.runs) {
        if (run.verdict != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }
};

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
    command.add_option("FILE", file, "CSV: t, the coordinates, NAME_dot, NAME_ddot (one row per sample)")->required();
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
    if (json_option->count() > 0) check_output_path("--json", json);
    const TrajectorySamples samples = read_trajectory_csv(file, entry.coordinate_names);
    std::optional<OutputFile> json_file;
    if (json_option->count() > 0) json_file.emplace(json), remove_previous_output(json);
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
    if (json_file) {
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
      json_file->write(record.dump(2) + "\n");
      json_file->commit();
    }
    if (fail_on_verdict && !audit.passed()) return exit_verdict;
    return exit_finished;
  }
};

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

/// The first argument when it is not a command (nor an option): CLI11 would only say that a
/// command is required.
std::optional<std::string> unknown_command(int argc, char** argv, const CLI::App& app) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  for (const CLI::App* command : app.get_subcommands({})) {
    if (command->get_name() == argv[1]) return std::nullopt;
  }
  return std::string(argv[1]);
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
  app.footer("Exit status: 0 finished (whatever the verdict), 1 run-time failure or divergence (the history\n"
             "computed so far is still written), 2 usage error, 3 verdict not pass with --fail-on-verdict,\n"
             "130 / 143 after SIGINT / SIGTERM (the history so far is written).\n"
             "The models, methods and the JSON and CSV formats are described in README.md.");
  auto* list = app.add_subcommand("list", "list the models and the methods");
  RunCommand run;
  run.add_to(*app.add_subcommand("run", "integrate one model with one method and audit it"));
  CompareCommand compare;
  compare.add_to(*app.add_subcommand("compare", "audit one model over several methods and steps"));
  SweepCommand sweep;
  sweep.add_to(*app.add_subcommand("sweep", "audit one model over every combination of values, methods and steps"));
  AuditTrajectoryCommand audit_trajectory;
  audit_trajectory.add_to(*app.add_subcommand("audit-trajectory", "audit samples (t, q, v, a) computed elsewhere"));
  AdviseCommand advise_command;
  advise_command.add_to(*app.add_subcommand("advise", "find each method's largest step that meets a target delta_C"));
  StabilityCommand stability;
  stability.add_to(*app.add_subcommand("stability", "map the verdicts of a kinematic model over its gain k and the step"));
  ReproduceCommand reproduce;
  reproduce.add_to(*app.add_subcommand("reproduce", "run the rows of a source paper's table beside its values"));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (!session.leads()) return exit_usage;  // every rank parsed the same arguments: rank 0 says what is wrong
    if (const auto command = unknown_command(argc, argv, app)) {
      std::cerr << "energy-audit: error: unknown command '" << *command << "' (commands: list, run, compare, sweep, advise, stability, audit-trajectory, reproduce)\n";
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
    if (app.got_subcommand("stability")) return stability.execute(session);
    if (app.got_subcommand("advise")) return advise_command.execute(session);
    if (app.got_subcommand("sweep")) return sweep.execute(session);
    if (app.got_subcommand("compare")) return compare.execute(session);
    if (session.size() > 1) {
      throw UsageError(app.get_subcommands().front()->get_name() + " runs in one process: start it without mpirun " +
                       "(compare, sweep, stability and advise spread their runs over MPI ranks)");
    }
    if (list->parsed()) return list_command();
    if (app.got_subcommand("run")) return run.execute();
    if (app.got_subcommand("reproduce")) return reproduce.execute(session);
    return audit_trajectory.execute();
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
