#include "study_bindings.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/compare.hpp>
#include <energy_audit/studies/diagnose.hpp>
#include <energy_audit/studies/drift_ladder.hpp>
#include <energy_audit/studies/gain_range.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/studies/stability_map.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#include <energy_audit/studies/study_records.hpp>
#include <energy_audit/studies/sweep.hpp>

#include "example_methods.hpp"
#include "interruptible.hpp"
#include "kinematic_models.hpp"
#include "model_options.hpp"
#include "model_registry.hpp"
#include "record_to_python.hpp"

namespace energy_audit::python {

namespace py = pybind11;
using namespace energy_audit::studies;

namespace {

/// How the studies' messages name their method, step and rtol lists.
OptionNames list_keywords() { return {"methods", "steps", "rtols", true}; }

/// The threads a study runs on: `threads`, else `default_threads` (0: the machine's cores).
int thread_count(std::optional<int> threads, int default_threads) {
  if (!threads) {
    return default_threads > 0 ? default_threads
                               : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  if (*threads < 1 || *threads > 1024) {
    throw SettingsError("threads: " + std::to_string(*threads) + " must be in [1, 1024]");
  }
  return *threads;
}

/// `value` finite and > 0, else SettingsError naming `argument`.
void check_positive(const char* argument, double value) {
  if (!std::isfinite(value) || !(value > 0)) {
    throw SettingsError(std::string(argument) + ": " + to_text(value) + " must be > 0");
  }
}

/// `list` when given, else `defaults`; SettingsError naming `argument` for a list given empty, as
/// the command line refuses `--steps ''`.
std::vector<double> list_or(const char* argument, const std::optional<std::vector<double>>& list,
                            std::vector<double> defaults) {
  if (!list) return defaults;
  if (list->empty()) throw SettingsError(std::string(argument) + ": none given");
  return *list;
}

/// The methods named, and what they are for the options that act on some methods only.
struct MethodList {
  std::vector<Method> methods;
  MethodsUsed used;
};

MethodList method_list(const std::vector<std::string>& names) {
  if (names.empty()) throw SettingsError("methods: none given");
  MethodList list;
  for (const std::string& name : names) list.methods.push_back(examples::find_method(name, "methods"));
  list.used = methods_used(list.methods, join(names));
  return list;
}

/// The settings common to a study's runs: `options` applied, its messages naming the keywords.
RunSettings study_settings(const ModelEntry& model, const ModelOptions& options, OptionNames names) {
  RunSettings settings;
  settings.options = std::move(names);
  options.apply_to(settings);
  check_model_options_apply(model, settings);
  return settings;
}

/// The audited model `name`; SettingsError when it is a kinematic model (`why`: what to use).
const ModelEntry& audited_model(const std::string& name, const std::string& why) {
  if (examples::find_kinematic_model(name) != nullptr) {
    throw SettingsError("model: " + name + " is a kinematic model" + why);
  }
  return examples::find_model(name);
}

/// Runs `study` on a pool of `threads` threads (interruptible.hpp), its progress line on standard
/// error when `progress`; Ctrl-C stops it (through `stop`, which the study's settings hold) and
/// the runs made come back.
template <class Study>
auto run_study(StopRequest& stop, int threads, bool progress, const Study& study) {
  ProgressLine progress_line(progress);
  const RunPool pool(threads, &progress_line);
  auto result = run_interruptibly(stop, [&] { return study(pool); }, [](bool) {});
  progress_line.finish();
  return result;
}

/// {name: value or [values]} as a sweep's lists, in the dict's order.
std::vector<AssignmentList> assignment_lists(const py::dict& values, const char* argument) {
  std::vector<AssignmentList> lists;
  for (const auto& [key, value] : values) {
    AssignmentList list;
    list.name = py::str(key);
    try {
      if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) {
        list.values = {value.cast<double>()};
      } else {
        list.values = value.cast<std::vector<double>>();
      }
    } catch (const py::cast_error&) {
      throw py::type_error(std::string(argument) + ": " + list.name + " takes a number or a list of numbers");
    }
    if (list.values.empty()) throw SettingsError(std::string(argument) + ": " + list.name + " has no value");
    lists.push_back(std::move(list));
  }
  return lists;
}

py::object compare_study(const std::string& model, const std::optional<std::vector<std::string>>& methods,
                         const std::optional<std::vector<double>>& steps,
                         const std::optional<std::vector<double>>& rtols,
                         const std::map<std::string, double>& set, const std::map<std::string, double>& init,
                         std::optional<int> threads, bool progress, const py::kwargs& keywords) {
  const ModelOptions options = ModelOptions::from_keywords(keywords, "compare", true);
  // One run at a time by default: the table reports each run's wall time.
  const int thread_total = thread_count(threads, 1);
  const ModelEntry& entry = audited_model(model, ", audited by its constraint drift: use stability, not compare");
  ComparisonPlan plan;
  plan.base = study_settings(entry, options, list_keywords());
  plan.steps = list_or("steps", steps, {1e-2, 5e-3, 1e-3});
  plan.rtols = list_or("rtols", rtols, {1e-4, 1e-6, 1e-8, 1e-10});
  const MethodList list = method_list(methods.value_or(fixed_step_method_names(examples::methods())));
  plan.methods = list.methods;
  check_lists_apply(list.used, plan.base.options, steps.has_value(), rtols.has_value());
  check_method_options_apply(plan.base.given, plan.base.options, list.used, examples::methods());
  const ModelSetup setup{assignments(set), assignments(init)};
  comparison_runs(entry, setup, plan);  // every run's settings are checked before the first starts
  StopRequest stop;
  plan.base.stop = &stop;
  const Comparison comparison = run_study(stop, thread_total, progress,
                                          [&](const RunPool& pool) {
                                            return studies::compare(entry, setup, plan, pool);
                                          });
  // energy_audit.results.Comparison: the record as a dict that also draws the work-precision diagram.
  return py::module_::import("energy_audit.results")
      .attr("Comparison")(record_to_python(comparison_record(entry.name, form_of(entry, plan.base), comparison), {"rows"}),
                          py::arg("threshold") = plan.base.audit.threshold);
}

py::object sweep_study(const std::string& model, const std::optional<std::vector<std::string>>& methods,
                       const std::optional<std::vector<double>>& steps, const std::optional<std::vector<double>>& rtols,
                       const py::dict& set, const py::dict& init, std::optional<int> threads, bool progress,
                       const py::kwargs& keywords) {
  const ModelOptions options = ModelOptions::from_keywords(keywords, "sweep", true);
  const int thread_total = thread_count(threads, 0);
  const ModelEntry& entry = audited_model(model, ": its sweep is stability");
  SweepPlan plan;
  plan.parameters = assignment_lists(set, "set");
  plan.initial_values = assignment_lists(init, "init");
  plan.base = study_settings(entry, options, list_keywords());
  plan.steps = list_or("steps", steps, {1e-3});
  plan.rtols = list_or("rtols", rtols, {1e-8});
  const MethodList list = method_list(methods.value_or(std::vector<std::string>{default_method().name}));
  plan.methods = list.methods;
  check_lists_apply(list.used, plan.base.options, steps.has_value(), rtols.has_value());
  check_method_options_apply(plan.base.given, plan.base.options, list.used, examples::methods());
  std::vector<SweepRun> runs = plan_runs(entry, plan);  // each run's settings checked before the first starts
  StopRequest stop;
  plan.base.stop = &stop;
  const SweepResult sweep = run_study(stop, thread_total, progress, [&](const RunPool& pool) {
    return run_sweep(entry, plan, std::move(runs), pool);
  });
  return record_to_python(sweep_record(entry.name, sweep), {"runs"});
}

py::object advise_study(const std::string& model, double target, std::optional<double> drift_target,
                        const std::optional<std::vector<std::string>>& methods,
                        const std::map<std::string, double>& set,
                        const std::map<std::string, double>& init, std::optional<int> threads, bool progress,
                        const py::kwargs& keywords) {
  const ModelOptions options = ModelOptions::from_keywords(keywords, "advise", false);
  const int thread_total = thread_count(threads, 0);
  const ModelEntry& entry =
      audited_model(model, ", judged by its verdict rather than a target: use stability");
  AdviceSettings settings;
  // The step and the rtol of each probe are the search's: a message about them names the methods.
  settings.base = study_settings(entry, options, {"methods", "methods", "methods", true});
  if (!entry.has_multipliers() && drift_target) {
    throw SettingsError("drift_target: model " + entry.name + " has no constraints to drift");
  }
  check_positive("target", target);
  if (drift_target) check_positive("drift_target", *drift_target);
  settings.target = target;
  settings.drift_target = entry.has_multipliers() ? drift_target.value_or(1e-6) : 0;  // 0: nothing drifts
  const ModelSetup setup{assignments(set), assignments(init)};
  MethodList list;
  if (methods) {
    list = method_list(*methods);
    for (const Method& m : list.methods) {
      RunSettings trial = settings.base;
      trial.method = m;
      check_settings(entry, setup, trial);
    }
  } else {
    list.methods = methods_that_run(entry, setup, settings.base);  // each checked there
    list.used = methods_used(list.methods, "the methods");
  }
  check_method_options_apply(settings.base.given, settings.base.options, list.used, examples::methods());
  StopRequest stop;
  settings.base.stop = &stop;
  const Advice advice = run_study(stop, thread_total, progress, [&](const RunPool& pool) {
    return studies::advise(entry, setup, list.methods, settings, pool);
  });
  return record_to_python(advice_record(entry.name, settings, advice), {"methods", "probes"});
}

py::object diagnose_study(const std::string& model, const std::string& method, std::optional<double> step,
                          std::optional<double> rtol, std::size_t levels, const std::map<std::string, double>& set,
                          const std::map<std::string, double>& init, std::optional<int> threads, bool progress,
                          const py::kwargs& keywords) {
  const ModelOptions options = ModelOptions::from_keywords(keywords, "diagnose", true);
  const int thread_total = thread_count(threads, 0);
  const ModelEntry& entry = audited_model(model, ", judged by its verdict rather than delta_C: use stability");
  DiagnoseSettings settings;
  settings.levels = levels;
  settings.base = study_settings(entry, options, OptionNames::keyword_arguments());
  settings.base.method = examples::find_method(method, "method");
  if (step) {
    check_positive("step", *step);
    settings.base.step = *step;
    settings.base.given.insert("step");
  }
  if (rtol) {
    check_positive("rtol", *rtol);
    settings.base.adaptive.rtol = *rtol;
    settings.base.given.insert("rtol");
  }
  check_method_options_apply(settings.base.given, settings.base.options, methods_used(settings.base.method),
                             examples::methods());
  const ModelSetup setup{assignments(set), assignments(init)};
  check_diagnosis(entry, setup, settings);
  StopRequest stop;
  settings.base.stop = &stop;
  const Diagnosis diagnosis = run_study(stop, thread_total, progress, [&](const RunPool& pool) {
    return studies::diagnose(entry, setup, settings, pool);
  });
  return record_to_python(diagnosis_record(entry.name, diagnosis), {"levels"});
}

/// (resolution, delta_C) or (resolution, delta_C, finished) tuples as the classifier's points.
std::vector<DriftPoint> drift_points(const py::iterable& pairs) {
  std::vector<DriftPoint> points;
  for (const py::handle item : pairs) {
    const auto values = py::reinterpret_borrow<py::sequence>(item);
    if (!py::isinstance<py::sequence>(item) || (values.size() != 2 && values.size() != 3)) {
      throw py::type_error("pairs: each takes (resolution, delta_C) or (resolution, delta_C, finished)");
    }
    DriftPoint p{values[0].cast<double>(), values[1].cast<double>(), true};
    if (values.size() == 3) p.finished = values[2].cast<bool>();
    points.push_back(p);
  }
  return points;
}

/// SettingsError naming `argument` unless every resolution is finite, > 0 and given once, and the
/// δ_C of every finished run is a number >= 0 (a run that did not finish may carry any δ_C: the
/// classifier leaves it out).
void check_drift_ladder(const std::vector<DriftPoint>& points, const std::string& argument) {
  std::vector<double> resolutions;
  for (const DriftPoint& p : points) {
    if (!std::isfinite(p.resolution) || !(p.resolution > 0)) {
      throw SettingsError(argument + ": resolution " + to_text(p.resolution) + " must be > 0");
    }
    if (p.finished && (std::isnan(p.delta_C) || p.delta_C < 0)) {
      throw SettingsError(argument + ": delta_C " + to_text(p.delta_C) + " at resolution " + to_text(p.resolution) +
                          " must be >= 0 (a run that did not finish is given with finished False)");
    }
    resolutions.push_back(p.resolution);
  }
  std::sort(resolutions.begin(), resolutions.end());
  const auto twice = std::adjacent_find(resolutions.begin(), resolutions.end());
  if (twice != resolutions.end()) {
    throw SettingsError(argument + ": resolution " + to_text(*twice) + " is given twice");
  }
}

py::object classify_drift(const py::iterable& pairs, std::optional<double> order, bool adaptive, double threshold) {
  DriftExpectation expectation;
  expectation.adaptive = adaptive;
  if (!adaptive && !order) throw SettingsError("order: the method's order is needed for a ladder of fixed steps");
  expectation.order = order.value_or(1);
  if (order) check_positive("order", *order);
  check_positive("threshold", threshold);
  expectation.threshold = threshold;
  std::vector<DriftPoint> points = drift_points(pairs);
  check_drift_ladder(points, "pairs");
  nlohmann::ordered_json record = drift_classification_record(classify_drift_ladder(std::move(points), expectation));
  return record_to_python(record, {});
}

/// The classification of the audits of one problem at the resolutions given (steps with the
/// method's order, or rtols), as classify_drift and diagnose read a ladder; the threshold is the
/// audits' own unless given.
py::object diagnose_audits(const std::vector<const Audit*>& audits, const std::optional<std::vector<double>>& steps,
                           const std::optional<std::vector<double>>& rtols, std::optional<double> order,
                           std::optional<double> threshold) {
  if (audits.empty()) throw SettingsError("audits: none given");
  if (steps.has_value() == rtols.has_value()) {
    throw SettingsError("steps, rtols: give the resolution of each audit, as steps (with order) or as rtols");
  }
  const std::vector<double>& resolutions = steps ? *steps : *rtols;
  const char* resolution_name = steps ? "steps" : "rtols";
  if (resolutions.size() != audits.size()) {
    throw SettingsError(std::string(resolution_name) + ": " + std::to_string(resolutions.size()) + " given for " +
                        std::to_string(audits.size()) + " audits");
  }
  for (const double resolution : resolutions) check_positive(resolution_name, resolution);
  DriftExpectation expectation;
  expectation.adaptive = rtols.has_value();
  if (steps && !order) throw SettingsError("order: the method's order is needed for a ladder of fixed steps");
  if (rtols && order) throw SettingsError("order: applies to a ladder of steps, not of rtols");
  if (order) check_positive("order", *order);
  expectation.order = order.value_or(1);  // an rtol ladder: slope 1 in log rtol, as classify_drift's
  for (const Audit* audit : audits) {
    if (audit == nullptr) throw SettingsError("audits: None is no audit");
  }
  if (threshold) {
    check_positive("threshold", *threshold);
  } else {
    for (const Audit* audit : audits) {
      if (audit->threshold() != audits.front()->threshold()) {
        throw SettingsError("threshold: the audits were made with different thresholds; give the one to meet");
      }
    }
  }
  expectation.threshold = threshold.value_or(audits.front()->threshold());
  std::vector<DriftPoint> points;
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < audits.size(); ++i) {
    // The audit's samples are its steps: rounding's bound ε N for this level.
    points.push_back({resolutions[i], audits[i]->relative_drift(), true, double(audits[i]->accepted_steps())});
    levels.push_back({{"resolution", resolutions[i]}, {"delta_C", audits[i]->relative_drift()}});
  }
  nlohmann::ordered_json record{{"resolution", steps ? "step" : "rtol"},
                                {"threshold", expectation.threshold},
                                {"levels", levels}};
  check_drift_ladder(points, resolution_name);
  record.update(drift_classification_record(classify_drift_ladder(std::move(points), expectation)));
  return record_to_python(record, {"levels"});
}

py::object stability_study(const std::string& model, const std::vector<std::string>& methods,
                           const std::vector<double>& steps, const std::string& k,
                           const std::map<std::string, double>& set, std::optional<double> t_end,
                           std::optional<int> threads, bool no_boundaries, bool progress) {
  const int thread_total = thread_count(threads, 0);
  const KinematicEntry* entry = examples::find_kinematic_model(model);
  if (entry == nullptr) {
    std::vector<std::string> names;
    for (const KinematicEntry& e : examples::kinematic_registry()) names.push_back(e.name);
    throw SettingsError("model: unknown kinematic model '" + model + "' (known: " + join(names) + ")");
  }
  StabilityMapSettings settings;
  const std::vector<std::string> mappable = stability_method_names(examples::methods());
  if (methods.empty()) throw SettingsError("methods: none given");
  for (const std::string& name : methods) {
    settings.methods.push_back(examples::find_method(name, "methods"));
    if (std::find(mappable.begin(), mappable.end(), name) == mappable.end()) {
      throw SettingsError("methods: " + name + " has no stability polynomial (the map runs " + join(mappable) + ")");
    }
  }
  if (steps.empty()) throw SettingsError("steps: none given");
  settings.steps = steps;
  settings.gains = parse_gain_range(k, "k").values();
  for (const auto& [name, value] : set) {
    if (name == "k") throw SettingsError("set: k is what the map varies: give it with k");
  }
  settings.setup.parameters = assignments(set);
  if (t_end) {
    check_positive("t_end", *t_end);
    settings.t_end = t_end;
  }
  settings.boundaries = !no_boundaries;
  KinematicSettings check;
  check.t_end = settings.t_end;
  check.options = {"methods", "steps", "rtol", true};
  for (const Method& method : settings.methods) {
    check.method = method;
    for (const double tau : steps) {
      check.step = tau;
      entry->check(settings.setup, check);
    }
  }
  StopRequest stop;
  settings.stop = &stop;
  const StabilityMap map = run_study(stop, thread_total, progress, [&](const RunPool& pool) {
    return compute_stability_map(*entry, settings, pool);
  });
  return record_to_python(stability_record(entry->name, map), {"summaries", "boundaries", "points"});
}

}  // namespace

constexpr const char* model_options_doc = R"(
options: the model and audit options of run(), with the same defaults and checks: t_end, form,
  independent, threshold, drift_threshold, stabilize, baumgarte, phase, equation_check_every,
  equation_threshold, and the adaptive methods' atol, max_steps, z_as, iteration, initial_step,
  max_step.
threads: runs at once, on threads of this process. progress: the study's progress line on
  standard error. Ctrl-C stops the study: the runs that finished come back, "interrupted" True.
An argument that has no effect, or a value the study cannot run, raises ValueError with the
command line's message, the argument named as Python spells it.)";

constexpr const char* compare_doc = R"(Audits one model over several methods and steps, as `energy-audit compare` does.

model: a name of models(). methods: names of methods() (default: every fixed-step method);
steps: the fixed-step methods' steps (default [1e-2, 5e-3, 1e-3]); rtols: the adaptive
methods' (default [1e-4, 1e-6, 1e-8, 1e-10]). set, init: {name: value}. threads: default 1 (the
table reports each run's wall time).

Returns a dict: model, form, planned (runs planned), threads, ranks, interrupted, and rows, the
columns of the table that `compare --csv` writes, one entry per run: method, step, rtol, delta_C,
equation_residual, verdict, steps, rhs_evals, wall_seconds, observed_order (NumPy arrays; NaN
where the CSV leaves a cell empty).)";

constexpr const char* sweep_doc = R"(Audits one model over every combination of values, methods and steps, as
`energy-audit sweep` does.

model: a name of models(). set, init: {name: [values]} (or a single value), swept in the dict's
order. methods: names of methods() (default ["rk4"]); steps (default [1e-3]), rtols (default
[1e-8]). threads: default the machine's cores.

Returns what `sweep --json` writes: model, threads, ranks, interrupted, and runs as columns,
one entry per run: values ({name: array}), method, step (NaN for an adaptive run), rtol (NaN for
a fixed-step run), delta_C, verdict (None: not run), steps, rhs_evals, wall_seconds.)";

constexpr const char* advise_doc = R"(Finds each method's largest step (loosest rtol) that meets a target delta_C, as
`energy-audit advise` does.

model: a name of models(). target: the delta_C to meet (1e-6); drift_target: multiplier models,
the max |Phi| and max |G v + g| to meet (1e-6). methods: names of methods() (default: every
method that runs the model). set, init: {name: value}. threads: default the machine's cores.
The options take no threshold: the target judges each probe.

Returns what `advise --json` writes: model, target, drift_target, recommended (a method's name
or None), threads, ranks, interrupted, and methods as columns, one entry per method: method,
resolution ("step" or "rtol"), answer and next (dicts of a probe, or None), round_off_floor,
not_monotone, note, diverged, error, interrupted (arrays of resolutions) and probes (columns,
one entry per run: resolution, delta_C, meets, missed, rhs_evals, wall_s, end, finished).)";

constexpr const char* diagnose_doc = R"(Runs one method at a ladder of steps h, h/2, h/4, ... (an adaptive method at
rtol, rtol/10, ...) and says whether delta_C is a step error, a model error or round-off, as
`energy-audit diagnose` does.

model: a name of models(). method: a name of methods() (default "rk4"). step: the ladder's first
step (fixed-step methods, default 1e-3); rtol: its first rtol (adaptive methods, default 1e-8).
levels: the ladder's levels (default 5, at least 3). set, init: {name: value}. threshold (an
option): the delta_C to meet. threads: default the machine's cores.

Returns what `diagnose --json` writes: model, method, resolution ("step" or "rtol"),
expected_order, threshold, levels as columns (resolution, delta_C, observed_order, rhs_evals,
wall_s, end, finished), kind ("step error", "model error", "round-off", "within threshold",
"undecided"), order, plateau, plateau_from, floor, floor_at, estimated_resolution,
round_off_bound, all_meet_threshold, observed_orders, unfinished, explanation, advised (a step
error or a ladder within the threshold: the advisor's probe that meets it, a dict), advice_note,
not_monotone, integrated_equations, failing_equations, first_above_threshold, residual_work,
suspect (a model error), verdict, what_to_do, threads, ranks, interrupted.)";

constexpr const char* diagnose_audits_doc = R"(Says whether the drift of one problem's audits (audit_trajectory results of
runs at several steps or tolerances) is a step error, a model error or round-off, as diagnose
reads its own ladder (classify_drift).

audits: TrajectoryAudit results, one per run, in any order. steps: the fixed step of each run,
with order, the method's order p; or rtols: the relative tolerance of each (an adaptive method,
delta_C roughly proportional to rtol). threshold: the delta_C to meet (default: the audits' own).

Returns a dict: resolution ("step" or "rtol"), threshold, levels as columns (resolution,
delta_C, one entry per audit, in the order given), and classify_drift's keys: kind, order,
plateau, floor, floor_at, estimated_resolution, observed_orders, unfinished, explanation.)";

constexpr const char* classify_drift_doc = R"(Classifies a ladder of runs made elsewhere (the drop-in,
audit_trajectory, SciPy): pairs of (resolution, delta_C), or (resolution, delta_C, finished) where
a run that did not finish is left out, as the step error, model error or round-off that
`energy-audit diagnose` reports.

pairs: the runs, in any order. order: the method's order p (a fixed-step ladder: delta_C should
fall as h^p). adaptive: an rtol ladder (delta_C roughly proportional to rtol: slope 1 in log
rtol; order then defaults to 1). threshold: the delta_C to meet (1e-3).

Returns a dict: kind, order, plateau, floor, floor_at, estimated_resolution (None where it does
not apply), observed_orders (an array, coarsest first), unfinished, explanation.)";

constexpr const char* stability_doc = R"(Maps the verdicts of a kinematic model over its gain k and the step, as
`energy-audit stability` does.

model: a kinematic model (ellipse). methods: explicit Runge-Kutta methods (default ["euler",
"rk2", "rk3", "rk4"]); steps: the steps tau (default [0.002, 0.005, 0.01]); k: the gains,
"FIRST:STEP:LAST" (default "-1500:0.5:3"); set: {name: value}, parameters other than k; t_end:
the end of the interval (default: the model's); threads: default the machine's cores;
no_boundaries: only the map, no search of the boundaries and of rho(k) = 1. progress, Ctrl-C:
as for the other studies.

Returns what `stability --json` writes: model, threads, ranks, interrupted, summaries as columns,
one entry per method and step (method, tau, linear_lower, linear_upper, rho_one_lower,
rho_one_upper; boundaries, per start: start, lower, upper, each a dict or None), and points as
columns, one entry per run: method, tau, start, k, f_max, f_final, rho, verdict.)";

void add_study_functions(py::module_& m) {
  const std::string options_doc = model_options_doc;
  m.def("compare", &compare_study, py::arg("model"), py::kw_only(), py::arg("methods") = py::none(),
        py::arg("steps") = py::none(), py::arg("rtols") = py::none(), py::arg("set") = std::map<std::string, double>{},
        py::arg("init") = std::map<std::string, double>{}, py::arg("threads") = py::none(),
        py::arg("progress") = false, (std::string(compare_doc) + "\n" + options_doc).c_str());
  m.def("sweep", &sweep_study, py::arg("model"), py::kw_only(), py::arg("methods") = py::none(),
        py::arg("steps") = py::none(), py::arg("rtols") = py::none(), py::arg("set") = py::dict(),
        py::arg("init") = py::dict(), py::arg("threads") = py::none(), py::arg("progress") = false,
        (std::string(sweep_doc) + "\n" + options_doc).c_str());
  m.def("advise", &advise_study, py::arg("model"), py::kw_only(), py::arg("target") = 1e-6,
        py::arg("drift_target") = py::none(), py::arg("methods") = py::none(),
        py::arg("set") = std::map<std::string, double>{}, py::arg("init") = std::map<std::string, double>{},
        py::arg("threads") = py::none(), py::arg("progress") = false,
        (std::string(advise_doc) + "\n" + options_doc).c_str());
  m.def("diagnose", &diagnose_study, py::arg("model"), py::kw_only(), py::arg("method") = default_method().name,
        py::arg("step") = py::none(), py::arg("rtol") = py::none(), py::arg("levels") = std::size_t{5},
        py::arg("set") = std::map<std::string, double>{}, py::arg("init") = std::map<std::string, double>{},
        py::arg("threads") = py::none(), py::arg("progress") = false,
        (std::string(diagnose_doc) + "\n" + options_doc).c_str());
  m.def("diagnose", &diagnose_audits, py::arg("audits"), py::kw_only(), py::arg("steps") = py::none(),
        py::arg("rtols") = py::none(), py::arg("order") = py::none(), py::arg("threshold") = py::none(),
        diagnose_audits_doc);
  m.def("classify_drift", &classify_drift, py::arg("pairs"), py::kw_only(), py::arg("order") = py::none(),
        py::arg("adaptive") = false, py::arg("threshold") = 1e-3, classify_drift_doc);
  m.def("stability", &stability_study, py::arg("model"), py::kw_only(),
        py::arg("methods") = std::vector<std::string>{"euler", "rk2", "rk3", "rk4"},
        py::arg("steps") = std::vector<double>{0.002, 0.005, 0.01}, py::arg("k") = "-1500:0.5:3",
        py::arg("set") = std::map<std::string, double>{}, py::arg("t_end") = py::none(),
        py::arg("threads") = py::none(), py::arg("no_boundaries") = false, py::arg("progress") = false, stability_doc);
}

}  // namespace energy_audit::python
