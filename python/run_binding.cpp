// The Python module's `run`: every model the command line knows, run with every method and
// option it has (run_model.hpp), checked by the same rules. The history comes back as one NumPy
// array that owns the rows the audit wrote, block by block, with a view per column. The run goes
// on a thread of its own while the calling thread, holding the GIL now and then, lets Python's
// signal handlers run (Ctrl-C stops the run at a step boundary) and draws the progress line
// (interruptible.hpp).
#include "run_binding.hpp"

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/run_progress.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/forms.hpp>
#include <energy_audit/studies/history_rows.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_error_evidence.hpp>
#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/study_records.hpp>

#include "drift_text.hpp"
#include "interruptible.hpp"
#include "model_options.hpp"
#include "model_registry.hpp"
#include "record_to_python.hpp"

namespace py = pybind11;
namespace ea = energy_audit;
namespace studies = energy_audit::studies;
namespace examples = energy_audit::examples;
namespace python = energy_audit::python;

namespace {

/// What `run` returns: the run's numbers and its history, rows × columns.
struct RunResult {
  std::string model, method, verdict, end;
  std::string table;  ///< arkode-erk, arkode-dirk: the Butcher table the run took; empty otherwise
  std::string integrated_equations;  ///< which equations ran (studies::integrated_equations)
  double delta_C = 0, threshold = 0, step = 0, rtol = 0, t_reached = 0, wall_seconds = 0;
  double equation_residual = 0;  ///< NaN when the equations were not checked
  /// When |C − C0| first exceeded the threshold and where it grew fastest (NaN where none).
  double dC_first_above_threshold = 0, dC_fastest_growth_at = 0;
  /// {NAME: {relative_residual, first_above_threshold, largest_at}}; empty when not checked.
  py::dict equations;
  py::object work_ledger = py::none();  ///< the run record's work_ledger (study_records.hpp), None without one
  std::size_t steps = 0, rhs_evaluations = 0;
  bool finished = false;
  std::vector<std::string> columns;
  py::array_t<double> history_array;
};

/// A NumPy array of rows × columns that takes over `values` (no copy).
py::array_t<double> owning_array(std::vector<double>&& values, std::size_t columns) {
  auto* owned = new std::vector<double>(std::move(values));
  const py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  const auto rows = static_cast<py::ssize_t>(columns == 0 ? 0 : owned->size() / columns);
  return py::array_t<double>({rows, static_cast<py::ssize_t>(columns)},
                             {static_cast<py::ssize_t>(columns * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))},
                             owned->data(), free_when_done);
}

/// The keyword arguments of `run`; an option left out is absent (the command line's default
/// applies), so that one given where it has no effect is refused as on the command line.
struct RunArguments {
  std::string method = studies::default_method().name;
  std::optional<double> step, rtol;
  std::optional<std::string> table;  ///< arkode-erk, arkode-dirk: a Butcher table by ARKODE's name
  bool relax = false;                ///< arkode-erk, arkode-dirk: ARKODE's relaxation with the model's H
  python::ModelOptions options;
  std::map<std::string, double> set, init;
  std::optional<std::size_t> every;
  bool history = true;
  bool progress = false;
  studies::DiagnosisColumns diagnosis;  ///< equation_columns, ledger_columns
};

/// Histories above this many bytes are announced by a warning before the run starts.
constexpr double history_warning_bytes = 256.0 * 1024 * 1024;

/// The settings of `arguments`; the options given that have no effect are refused as on the
/// command line (run_model.hpp), the messages naming Python's arguments. check_settings does the
/// rest.
studies::RunSettings run_settings(const studies::ModelEntry& model, const RunArguments& arguments) {
  studies::RunSettings settings;
  settings.options = studies::OptionNames::keyword_arguments();
  settings.method = examples::find_method(arguments.method, "method");
  if (arguments.step) {
    settings.given.insert("step");
    settings.step = *arguments.step;
  }
  if (arguments.rtol) {
    settings.given.insert("rtol");
    settings.adaptive.rtol = *arguments.rtol;
  }
  arguments.options.apply_to(settings);
  studies::check_model_options_apply(model, settings);
  // As the command line's run takes the method: arkode-erk and arkode-dirk given a step run at
  // it (and take no tolerances), their table then needs no embedded method; arkode-sprk always
  // takes a fixed step, of the order of the method it runs.
  settings.table = arguments.table.value_or("");
  settings.relax = arguments.relax;
  const bool at_given_step = studies::runs_at_given_step(settings.method, settings.given, settings.options);
  examples::check_table(settings.method, settings.table, settings.method.adaptive() && !at_given_step, "table");
  examples::check_relax(settings.method, settings.table, settings.relax, "relax", "table");
  if (at_given_step || settings.method.needs_separable_model) {
    settings.method = examples::method_at_fixed_step(settings.method, settings.table, settings.relax && at_given_step);
  }
  studies::check_method_options_apply(settings.given, settings.options, studies::methods_used(settings.method),
                                      examples::methods(), true);
  if (arguments.every) {
    if (!arguments.history) throw studies::SettingsError("every: thins the history, which history=False does not keep");
  }
  if (!arguments.history) {
    const std::string not_kept = ": adds columns to the history, which history=False does not keep";
    if (arguments.diagnosis.equation_residuals) throw studies::SettingsError("equation_columns" + not_kept);
    if (arguments.diagnosis.work_ledger) throw studies::SettingsError("ledger_columns" + not_kept);
  }
  return settings;
}

/// The steps of a fixed-step run, as the integrator counts them.
double fixed_steps(const studies::RunSettings& settings, const ea::Interval& interval) {
  return static_cast<double>(ea::fixed_step_count(interval.t0, interval.t_end, settings.step));
}

/// The rows the history will hold: a fixed-step run's steps over `every`, an adaptive run's at
/// most max_steps over `every`, and the initial and the last state.
double history_rows(const studies::RunSettings& settings, const ea::Interval& interval, std::size_t every) {
  const double steps = settings.method.adaptive() ? static_cast<double>(settings.adaptive.max_steps)
                                                  : fixed_steps(settings, interval);
  return std::floor(steps / static_cast<double>(every)) + 2;
}

/// Warns (a UserWarning) when the history may hold more than history_warning_bytes.
void warn_of_a_large_history(const studies::RunSettings& settings, const ea::Interval& interval, std::size_t every,
                             std::size_t columns) {
  const double rows = history_rows(settings, interval, every);
  const double bytes = rows * static_cast<double>(columns * sizeof(double));
  if (bytes <= history_warning_bytes) return;
  char text[320];
  std::snprintf(text, sizeof text,
                "run: the history will hold %s%.0f rows x %zu columns (%.0f MB); every=K keeps every K-th step "
                "(delta_C still sees all), history=False keeps none",
                settings.method.adaptive() ? "up to " : "about ", rows, columns, bytes / 1e6);
  if (PyErr_WarnEx(PyExc_UserWarning, text, 1) != 0) throw py::error_already_set();
}

/// The progress line of a run on sys.stderr: the studies' progress line (progress.hpp), a
/// fixed-step run counted in steps of the total, an adaptive one by the time it reached.
class RunProgressLine {
 public:
  RunProgressLine(const studies::ModelEntry& model, const studies::RunSettings& settings, const ea::Interval& interval)
      : line_(true, [stderr_stream = py::module_::import("sys").attr("stderr")](const std::string& text) {
          // A stream that refuses the line does not end the run: the line also ends while an
          // exception of the run is on its way out.
          try {
            stderr_stream.attr("write")(text);
            stderr_stream.attr("flush")();
          } catch (py::error_already_set& error) {
            error.discard_as_unraisable("energy_audit.run's progress line");
          }
        }) {
    const std::string what = "energy_audit.run " + model.name + " " + settings.method.name;
    if (settings.method.adaptive()) {
      line_.start_interval(what, interval.t0, interval.t_end);
    } else {
      line_.start(what, static_cast<std::size_t>(fixed_steps(settings, interval)), "steps");
    }
  }

  /// Shows how far the run got, at most every 0.2 s; `last` ends the line.
  void draw(const ea::RunProgress& progress, bool last) {
    line_.reach(progress.steps() > 0 ? progress.steps() - 1 : 0, progress.t());  // the initial state is no step
    if (last) line_.finish();
  }

 private:
  studies::ProgressLine line_;
};

/// Runs on a thread of its own (interruptible.hpp) while the calling thread draws the progress
/// line: Ctrl-C stops the run at the next step boundary and the partial outcome comes back
/// (RunEnd::Interrupted).
studies::RunOutcome run_interruptibly(const studies::ModelEntry& model, const studies::ModelSetup& setup,
                                      studies::RunSettings settings, RunProgressLine* progress_line) {
  ea::StopRequest stop;
  ea::RunProgress progress;
  settings.stop = &stop;
  settings.audit.progress = &progress;
  return python::run_interruptibly(
      stop, [&] { return studies::run_model(model, setup, settings); },
      [&](bool last) {
        if (progress_line != nullptr) progress_line->draw(progress, last);
      });
}

RunResult run(const std::string& model_name, const RunArguments& arguments) {
  const studies::ModelEntry& model = examples::find_model(model_name);
  const studies::ModelSetup setup{python::assignments(arguments.set), python::assignments(arguments.init)};
  studies::RunSettings settings = run_settings(model, arguments);
  const ea::Interval interval = studies::check_settings(model, setup, settings);
  const studies::Form form = studies::form_of(model, settings);
  const std::vector<std::string>& independent = studies::independent_velocities_of(model, settings);
  const std::size_t every = arguments.every.value_or(1);

  // The rows, as the history CSV writes them (HistoryRows); no reservation up front, so that a
  // long run's history does not fail for memory before its first step.
  studies::HistoryRows history(model, setup, form, independent, arguments.diagnosis, settings.options);
  std::vector<double> rows;
  settings.audit.store_every = arguments.history ? every : 0;
  if (arguments.history) {
    warn_of_a_large_history(settings, interval, every, history.columns().size());
    settings.audit.row_sink = [&rows, &history](const ea::HistoryLayout& layout, std::span<const double> block) {
      history.append_block(layout, block, rows, [] {});
    };
  }
  std::optional<RunProgressLine> progress_line;
  if (arguments.progress) progress_line.emplace(model, settings, interval);
  const studies::RunOutcome outcome =
      run_interruptibly(model, setup, settings, progress_line ? &*progress_line : nullptr);
  RunResult r;
  r.model = model.name;
  r.method = outcome.method.name;
  r.table = outcome.table;
  r.integrated_equations = studies::integrated_equations(model, outcome.form);
  r.verdict = outcome.verdict();
  r.end = outcome.finished() ? "finished" : outcome.stop_description();
  r.finished = outcome.finished();
  r.delta_C = outcome.audit ? outcome.audit->relative_drift() : std::nan("");
  r.threshold = arguments.options.threshold;
  r.equation_residual = outcome.audit && outcome.audit->equation_check().checked_steps() > 0
                            ? outcome.audit->equation_check().relative_residual()
                            : std::nan("");
  r.dC_first_above_threshold = outcome.audit ? outcome.audit->time_first_above_threshold() : std::nan("");
  r.dC_fastest_growth_at = outcome.audit ? outcome.audit->time_of_fastest_growth() : std::nan("");
  if (outcome.audit) {
    const std::vector<ea::CoordinateResidual> equations = outcome.audit->equation_check().coordinate_residuals();
    for (std::size_t i = 0; i < equations.size() && i < model.coordinate_names.size(); ++i) {
      py::dict equation;
      equation["relative_residual"] = equations[i].relative_residual;
      equation["first_above_threshold"] = equations[i].first_above_threshold;
      equation["largest_at"] = equations[i].time_of_largest;
      r.equations[py::str(model.coordinate_names[i])] = equation;
    }
  }
  if (outcome.audit && outcome.audit->work_ledger()) {
    r.work_ledger = python::record_to_python(studies::work_ledger_record(*outcome.audit), {});
  }
  r.step = outcome.method.adaptive() ? std::nan("") : outcome.step;
  r.rtol = outcome.method.adaptive() ? outcome.adaptive.rtol : std::nan("");
  r.t_reached = outcome.t_reached;
  r.wall_seconds = outcome.wall_seconds;
  r.steps = outcome.steps;
  r.rhs_evaluations = outcome.rhs_evaluations;
  if (arguments.history) {
    if (outcome.audit) history.append_last(*outcome.audit, rows);  // the last state, which every= may have left out
    r.columns = history.columns();
    r.history_array = owning_array(std::move(rows), r.columns.size());
  }
  return r;
}

/// The keyword arguments of run, in its signature's order.
const std::vector<std::string> run_keywords{
    "model", "method", "step", "rtol", "atol", "max_steps", "z_as", "iteration", "initial_step", "max_step",
    "t_end", "set", "init", "form", "independent", "threshold", "drift_threshold", "stabilize", "baumgarte",
    "phase", "equation_check_every", "equation_threshold", "every", "history", "progress", "equation_columns",
    "ledger_columns", "table", "relax"};

/// A TypeError of one line for a keyword that `function` does not take, naming the keyword and
/// the closest of `known` (difflib's) when one is close.
void refuse_unexpected_keywords(const char* function, const py::kwargs& unexpected,
                                const std::vector<std::string>& known) {
  for (const auto& [key, value] : unexpected) {
    const std::string name = py::str(key);
    const py::list close = py::module_::import("difflib").attr("get_close_matches")(name, known, 1);
    throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" + name + "'" +
                         (close.empty() ? std::string() : "; did you mean '" + close[0].cast<std::string>() + "'?"));
  }
}

/// A count argument (every, equation_check_every) as the option takes it; SettingsError naming
/// `name` below `least`.
std::optional<std::size_t> count_argument(const char* name, std::optional<long long> value, long long least) {
  if (!value) return std::nullopt;
  if (*value < least) {
    throw studies::SettingsError(std::string(name) + ": " + std::to_string(*value) + " must be >= " +
                                 std::to_string(least));
  }
  return static_cast<std::size_t>(*value);
}

/// run's docstring; {adaptive}, {forms}, {table}, {relax} and {residual} stand for what the
/// build's registry says (run_doc()).
constexpr const char* run_doc_template = R"(Integrates a model with a method under the audit, as `energy-audit run` does.

The options follow the command line's, with the same defaults and the same checks: an option
given where it has no effect (rtol with a fixed-step method, step with an adaptive one) raises
ValueError naming it. Ctrl-C stops the run at the next step boundary and returns what was
computed, its end "interrupted at t = ...".

model: a name of models(); method: a name of methods() (default rk4).
step: the fixed step h [s] (fixed-step methods; default 1e-3); given to an adaptive method
  that takes it ({fixed}), it runs at it and takes no tolerances.
rtol, atol: tolerances of the adaptive methods ({adaptive}; 1e-8, 1e-10); rtol below 1.
table: {table}; one without an embedded method needs step (adaptive steps need the embedded
  method's estimate).
relax: {relax}; a table whose weights b_i are all >= 0.
max_steps, initial_step, max_step: the adaptive methods' step budget, first step [s] (0: the
  solver's estimate) and largest step [s] (0: unbounded); defaults 100000, 0, 0.
z_as: "state" or "quadrature", how an adaptive method carries Z; iteration: "newton" or
  "fixed-point" (cvode-adams).
t_end: the end of the interval [s] (default: the model's).
set, init: {name: value} for the model's parameters and initial values (finite numbers, in the
  units of docs/models.md).
form: {forms};
  independent: Maggi's independent velocities, coordinate names.
threshold: pass when delta_C <= threshold (1e-3); drift_threshold: multiplier models, pass when
  the constraint drift is <= it (1e-3).
stabilize: none|baumgarte|ggl (multiplier models; ggl with {residual}); baumgarte: (alpha, beta) with
  stabilize="baumgarte" (default (5, 5)).
phase: right|midpoint, models with an excitation in pieces.
equation_check_every, equation_threshold: models with hand-derived accelerations, check
  Lagrange's equations every K-th step (100; 0: never) against the threshold (1e-8).
every: keep every K-th step in the history, and the last state (default 1, at least 1; delta_C
  sees every step).
history: keep the history (rows x columns, 8 bytes a value: a 5 s run of crane with step 1e-6
  holds 5e6 rows x 16 columns, 640 MB). Above 256 MiB a UserWarning says so before the run;
  every=K or history=False bound it.
progress: draw the command line's progress line on sys.stderr (steps or time done of the
  total, elapsed time, time left).
equation_columns: add to the history eq_NAME per coordinate, the relative residual of its
  equation at each row (a model and form whose equations are checked).
ledger_columns: add to the history, for a model that names its forces, P_NAME [W] and W_NAME [J]
  of each named force and dC_dt [W], the residual power (nan in the first row).

Returns a RunResult. A run that fails once started (a solver's failure, a mass matrix that is
not positive definite) comes back with verdict "error" and its end "error: ..."; a failure before
the run starts raises AuditError, a bad argument ValueError (TypeError for a wrong type or a
keyword run does not take).)";

/// The names of the build's methods that have `property`, comma-separated.
std::string methods_with(bool studies::Method::*property) {
  std::string names;
  for (const studies::Method& method : examples::methods()) {
    if (method.*property) names += (names.empty() ? "" : ", ") + method.name;
  }
  return names.empty() ? "none in this build" : names;
}

/// run_doc_template with the build's methods, forms, and the families' table and relax help.
std::string run_doc() {
  std::string doc = run_doc_template;
  const auto put = [&doc](const std::string& key, const std::string& text) {
    for (std::size_t at = doc.find(key); at != std::string::npos; at = doc.find(key, at + text.size())) {
      doc.replace(at, key.size(), text);
    }
  };
  put("{adaptive}", methods_with(&studies::Method::chooses_steps));
  put("{fixed}", methods_with(&studies::Method::takes_fixed_step));
  put("{residual}", methods_with(&studies::Method::takes_residual_form));
  put("{forms}", studies::form_names_by_model_kind());
  put("{table}", examples::table_help());
  put("{relax}", examples::relax_help());
  put("--relax", "relax=True");  // the families' help names the command line's option
  return doc;
}

}  // namespace

void energy_audit::python::add_run_function(py::module_& m) {
  py::class_<RunResult>(m, "RunResult", "What run() returns: the run's numbers and its history")
      .def_readonly("model", &RunResult::model, "the model's name")
      .def_readonly("method", &RunResult::method, "the method's name")
      .def_readonly("verdict", &RunResult::verdict, "\"pass\" or \"fail\" for a finished run; \"diverged\", \"error\" or \"interrupted\" otherwise")
      .def_readonly("end", &RunResult::end, "\"finished\", or how the run stopped (\"interrupted at t = 1.2\", \"diverged at t = ...\", \"error: ...\")")
      .def_readonly("finished", &RunResult::finished, "whether the run covered its whole interval")
      .def_readonly("delta_C", &RunResult::delta_C, "sup |C - C0| / sup max(|E|, |T|, |V|) over every step")
      .def_readonly("threshold", &RunResult::threshold, "the pass threshold of delta_C")
      .def_readonly("equation_residual", &RunResult::equation_residual, "the equations' relative residual; NaN when they were not checked")
      .def_readonly("dC_first_above_threshold", &RunResult::dC_first_above_threshold,
                    "the first t at which |C - C0| > threshold x the energy scale so far; NaN when at none")
      .def_readonly("dC_fastest_growth_at", &RunResult::dC_fastest_growth_at,
                    "the end of the step over which |C - C0| rose fastest per unit time; NaN when it never rose")
      .def_readonly("equations", &RunResult::equations,
                    "{coordinate: {relative_residual, first_above_threshold, largest_at}}, the equation of each "
                    "coordinate (NaN where no time); empty when the equations were not checked")
      .def_readonly("work_ledger", &RunResult::work_ledger,
                    "models that name their forces: each force's work, Z, the residual work and the suspect "
                    "force (docs/mathematics.md, the work ledger); None otherwise")
      .def_readonly("step", &RunResult::step, "the fixed step [s]; NaN for an adaptive method")
      .def_readonly("rtol", &RunResult::rtol, "the relative tolerance; NaN for a fixed-step method")
      .def_readonly("integrated_equations", &RunResult::integrated_equations,
                    "which equations the run integrated: the model's hand-derived accelerations, or equations "
                    "derived from T, V and f")
      .def_readonly("table", &RunResult::table,
                    "arkode-erk, arkode-dirk: the Butcher table the run took, by ARKODE's name; '' otherwise")
      .def_readonly("t_reached", &RunResult::t_reached, "the time of the last state computed [s]")
      .def_readonly("wall_seconds", &RunResult::wall_seconds, "the run's wall time [s]")
      .def_readonly("steps", &RunResult::steps, "accepted steps")
      .def_readonly("rhs_evaluations", &RunResult::rhs_evaluations, "right-hand side evaluations")
      .def_readonly("columns", &RunResult::columns,
                    "the history's column names, as the CSV's header (the model's extra outputs last)")
      .def_readonly("history_array", &RunResult::history_array, "the history, rows x columns")
      .def_property_readonly(
          "history",
          [](const RunResult& r) {
            py::dict columns;
            for (std::size_t j = 0; j < r.columns.size(); ++j) {
              columns[py::str(r.columns[j])] =
                  r.history_array[py::make_tuple(py::slice(py::none(), py::none(), py::none()), j)];
            }
            return columns;
          },
          "the history by column name: views into history_array, no copy")
      .def("__repr__", [](const RunResult& r) {
        return "<RunResult " + r.model + " " + r.method + ": delta_C = " + python::drift_text(r.delta_C) + ", " + r.verdict +
               (r.finished ? "" : ", " + r.end) + ">";
      });

  m.def(
      "run",
      [](const std::string& model, const std::string& method, std::optional<double> step, std::optional<double> rtol,
         std::optional<double> atol, std::optional<long> max_steps,
         std::optional<std::string> z_as, std::optional<std::string> iteration, std::optional<double> initial_step,
         std::optional<double> max_step, std::optional<double> t_end, const std::map<std::string, double>& set,
         const std::map<std::string, double>& init, std::optional<std::string> form,
         const std::vector<std::string>& independent, double threshold, std::optional<double> drift_threshold,
         const std::string& stabilize, std::optional<std::pair<double, double>> baumgarte,
         std::optional<std::string> phase, std::optional<long long> equation_check_every,
         std::optional<double> equation_threshold, std::optional<long long> every, bool history, bool progress,
         bool equation_columns, bool ledger_columns, std::optional<std::string> table, bool relax,
         const py::kwargs& unexpected) {
        refuse_unexpected_keywords("run", unexpected, run_keywords);
        return run(model, RunArguments{method, step, rtol, table, relax,
                                       python::ModelOptions{atol, max_steps, z_as, iteration, initial_step, max_step,
                                                            t_end, form, independent, threshold, drift_threshold,
                                                            stabilize, baumgarte, phase,
                                                            count_argument("equation_check_every", equation_check_every, 0),
                                                            equation_threshold},
                                       set, init, count_argument("every", every, 1), history, progress,
                                       studies::DiagnosisColumns{equation_columns, ledger_columns}});
      },
      py::arg("model"), py::arg("method") = studies::default_method().name, py::arg("step") = py::none(), py::arg("rtol") = py::none(),
      py::arg("atol") = py::none(),
      py::arg("max_steps") = py::none(), py::arg("z_as") = py::none(),
      py::arg("iteration") = py::none(), py::arg("initial_step") = py::none(), py::arg("max_step") = py::none(),
      py::arg("t_end") = py::none(), py::arg("set") = std::map<std::string, double>{},
      py::arg("init") = std::map<std::string, double>{}, py::arg("form") = py::none(),
      py::arg("independent") = std::vector<std::string>{}, py::arg("threshold") = 1e-3,
      py::arg("drift_threshold") = py::none(), py::arg("stabilize") = "none", py::arg("baumgarte") = py::none(),
      py::arg("phase") = py::none(), py::arg("equation_check_every") = py::none(),
      py::arg("equation_threshold") = py::none(), py::arg("every") = py::none(), py::arg("history") = true,
      py::arg("progress") = false, py::arg("equation_columns") = false, py::arg("ledger_columns") = false,
      py::arg("table") = py::none(), py::arg("relax") = false, run_doc().c_str());
}
