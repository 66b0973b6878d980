// The Python module `energy_audit`: every model the command line knows, run with every method
// and option it has (run_model.hpp), and the audit of a trajectory computed elsewhere
// (trajectory_audit.hpp). Histories come back as one NumPy array that owns the rows the audit
// wrote, block by block, with a view per column.
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <energy_audit/error.hpp>
#include <energy_audit/trajectory_audit.hpp>

#include "methods.hpp"
#include "model_registry.hpp"
#include "report.hpp"
#include "run_model.hpp"
#include "usage_error.hpp"

namespace py = pybind11;
namespace ea = energy_audit;
namespace cli = energy_audit::cli;

namespace {

/// What `run` returns: the run's numbers and its history, rows × columns.
struct RunResult {
  std::string model, method, verdict, end;
  double delta_C = 0, threshold = 0, step = 0, rtol = 0, t_reached = 0, wall_seconds = 0;
  double equation_residual = 0;  ///< NaN when the equations were not checked
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

std::vector<cli::Assignment> assignments(const std::map<std::string, double>& values) {
  std::vector<cli::Assignment> list;
  for (const auto& [name, value] : values) list.emplace_back(name, value);
  return list;
}

/// The keyword arguments of `run`, with the command line's defaults.
struct RunArguments {
  std::string method = "rk4";
  double step = 1e-3, rtol = 1e-8, atol = 1e-10;
  long max_steps = 100000;
  std::string z_as = "state", iteration = "newton";
  double initial_step = 0, max_step = 0;
  std::optional<double> t_end;
  std::map<std::string, double> set, init;
  std::optional<std::string> form;
  std::vector<std::string> independent;
  double threshold = 1e-3, drift_threshold = ea::AuditOptions{}.drift_threshold;
  std::string stabilize = "none";
  std::pair<double, double> baumgarte{5.0, 5.0};
  std::optional<std::string> phase;
  std::size_t equation_check_every = ea::AuditOptions{}.equation_check_every;
  double equation_threshold = ea::AuditOptions{}.equation_threshold;
  std::size_t every = 1;
  bool history = true;
};

/// The value of `choices` named `text`; UsageError naming the argument otherwise.
template <class Enum>
Enum choose(const char* argument, const std::string& text, const std::map<std::string, Enum>& choices) {
  const auto found = choices.find(text);
  if (found != choices.end()) return found->second;
  std::string names;
  for (const auto& [name, value] : choices) names += (names.empty() ? "" : ", ") + name;
  throw cli::UsageError(std::string(argument) + ": '" + text + "' is none of " + names);
}

RunResult run(const std::string& model_name, const RunArguments& arguments) {
  const cli::ModelEntry& model = cli::find_model(model_name);
  cli::RunSettings settings;
  settings.method = cli::find_method(arguments.method, "method");
  settings.step = arguments.step;
  settings.cvodes.rtol = arguments.rtol;
  settings.cvodes.atol = arguments.atol;
  settings.cvodes.max_steps = arguments.max_steps;
  settings.cvodes.z_mode = choose<ea::sun::ZMode>("z_as", arguments.z_as,
                                                  {{"state", ea::sun::ZMode::State}, {"quadrature", ea::sun::ZMode::Quadrature}});
  settings.cvodes.iteration = choose<ea::sun::NonlinearIteration>(
      "iteration", arguments.iteration,
      {{"newton", ea::sun::NonlinearIteration::Newton}, {"fixed-point", ea::sun::NonlinearIteration::FixedPoint}});
  settings.cvodes.initial_step = arguments.initial_step;
  settings.cvodes.max_step = arguments.max_step;
  settings.t_end = arguments.t_end;
  settings.independent = arguments.independent;
  settings.audit.threshold = arguments.threshold;
  settings.audit.drift_threshold = arguments.drift_threshold;
  settings.audit.equation_check_every = arguments.equation_check_every;
  settings.audit.equation_threshold = arguments.equation_threshold;
  settings.baumgarte = {arguments.baumgarte.first, arguments.baumgarte.second};
  if (arguments.phase) {
    settings.phase = choose<ea::PiecePhase>("phase", *arguments.phase,
                                            {{"right", ea::PiecePhase::Right}, {"midpoint", ea::PiecePhase::Midpoint}});
  }
  if (arguments.form) {
    settings.form = choose<cli::Form>("form", *arguments.form,
                                      {{"lagrange", cli::Form::Lagrange},
                                       {"hamilton", cli::Form::Hamilton},
                                       {"multipliers", cli::Form::Multipliers},
                                       {"maggi", cli::Form::Maggi}});
  }
  settings.stabilization = choose<cli::Stabilization>(
      "stabilize", arguments.stabilize,
      {{"none", cli::Stabilization::None}, {"baumgarte", cli::Stabilization::Baumgarte}, {"ggl", cli::Stabilization::Ggl}});
  if (arguments.every == 0) throw cli::UsageError("every: must be >= 1");
  const cli::ModelSetup setup{assignments(arguments.set), assignments(arguments.init)};
  cli::check_settings(model, setup, settings);

  std::vector<double> rows;
  std::size_t row_size = 0;
  settings.audit.store_every = arguments.history ? arguments.every : 0;
  if (arguments.history) {
    settings.audit.row_sink = [&rows, &row_size](const ea::HistoryLayout& layout, std::span<const double> block) {
      row_size = layout.row_size();
      rows.insert(rows.end(), block.begin(), block.end());  // a block of rows at a time
    };
  }
  cli::RunOutcome outcome;
  {
    const py::gil_scoped_release release;  // the integration does not touch Python
    outcome = cli::run_model(model, setup, settings);
  }
  RunResult r;
  r.model = model.name;
  r.method = outcome.method.name;
  r.verdict = outcome.verdict();
  r.end = outcome.finished() ? "finished" : outcome.stop_description();
  r.finished = outcome.finished();
  r.delta_C = outcome.audit ? outcome.audit->relative_drift() : std::nan("");
  r.threshold = arguments.threshold;
  r.equation_residual = outcome.audit && outcome.audit->equation_check().checked_steps() > 0
                            ? outcome.audit->equation_check().relative_residual()
                            : std::nan("");
  r.step = outcome.method.adaptive() ? std::nan("") : outcome.step;
  r.rtol = outcome.method.adaptive() ? outcome.cvodes.rtol : std::nan("");
  r.t_reached = outcome.t_reached;
  r.wall_seconds = outcome.wall_seconds;
  r.steps = outcome.steps;
  r.rhs_evaluations = outcome.rhs_evaluations;
  if (arguments.history) {
    std::vector<std::string> columns = cli::history_columns(model, cli::form_of(model, settings),
                                                            cli::independent_velocities_of(model, settings));
    if (row_size == 0) row_size = columns.size();
    columns.resize(row_size);  // the audit's rows: the extra outputs are the CSV's alone
    r.columns = columns;
    r.history_array = owning_array(std::move(rows), row_size);
  }
  return r;
}

/// A NumPy vector or matrix as the n × N samples (one column per time).
ea::Matrix samples_matrix(const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
                          py::ssize_t count, const char* name) {
  if (values.ndim() == 1) {
    if (values.shape(0) != count) {
      throw ea::InvalidArgument(std::string(name) + " has " + std::to_string(values.shape(0)) + " samples, t has " +
                                std::to_string(count));
    }
    ea::Matrix m(1, count);
    for (py::ssize_t i = 0; i < count; ++i) m(0, i) = values.at(i);
    return m;
  }
  if (values.ndim() != 2 || values.shape(0) != count) {
    throw ea::InvalidArgument(std::string(name) + " must be (N,) or (N, n) with N = len(t) = " + std::to_string(count));
  }
  ea::Matrix m(values.shape(1), count);
  for (py::ssize_t i = 0; i < count; ++i) {
    for (py::ssize_t j = 0; j < values.shape(1); ++j) m(j, i) = values.at(i, j);
  }
  return m;
}

py::array_t<double> as_array(const ea::Vector& x) { return py::array_t<double>(x.size(), x.data()); }

}  // namespace

PYBIND11_MODULE(energy_audit, m) {
  m.doc() = "EnergyAudit: is this numerical solution of the equations of motion trustworthy? "
            "Tracks C = H + Z, constant on exact solutions, and judges its relative drift delta_C.";
  py::register_exception<cli::UsageError>(m, "UsageError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ea::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("models", [] { return cli::model_names(); }, "the names of the models");
  m.def("methods", [] {
    std::vector<std::string> names;
    for (const cli::Method& method : cli::all_methods()) names.push_back(method.name);
    return names;
  }, "the names of the methods");

  py::class_<RunResult>(m, "RunResult")
      .def_readonly("model", &RunResult::model)
      .def_readonly("method", &RunResult::method)
      .def_readonly("verdict", &RunResult::verdict)
      .def_readonly("end", &RunResult::end)
      .def_readonly("finished", &RunResult::finished)
      .def_readonly("delta_C", &RunResult::delta_C)
      .def_readonly("threshold", &RunResult::threshold)
      .def_readonly("equation_residual", &RunResult::equation_residual)
      .def_readonly("step", &RunResult::step)
      .def_readonly("rtol", &RunResult::rtol)
      .def_readonly("t_reached", &RunResult::t_reached)
      .def_readonly("wall_seconds", &RunResult::wall_seconds)
      .def_readonly("steps", &RunResult::steps)
      .def_readonly("rhs_evaluations", &RunResult::rhs_evaluations)
      .def_readonly("columns", &RunResult::columns, "the history's column names, as the CSV's header")
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
        return "<RunResult " + r.model + " " + r.method + ": delta_C = " + std::to_string(r.delta_C) + ", " +
               r.verdict + ">";
      });

  const RunArguments defaults;
  m.def(
      "run",
      [](const std::string& model, const std::string& method, double step, double rtol, double atol, long max_steps,
         const std::string& z_as, const std::string& iteration, double initial_step, double max_step,
         std::optional<double> t_end, const std::map<std::string, double>& set,
         const std::map<std::string, double>& init, std::optional<std::string> form,
         const std::vector<std::string>& independent, double threshold, double drift_threshold,
         const std::string& stabilize, std::pair<double, double> baumgarte, std::optional<std::string> phase,
         std::size_t equation_check_every, double equation_threshold, std::size_t every, bool history) {
        return run(model, RunArguments{method, step, rtol, atol, max_steps, z_as, iteration, initial_step, max_step,
                                       t_end, set, init, form, independent, threshold, drift_threshold, stabilize,
                                       baumgarte, phase, equation_check_every, equation_threshold, every, history});
      },
      py::arg("model"), py::arg("method") = defaults.method, py::arg("step") = defaults.step,
      py::arg("rtol") = defaults.rtol, py::arg("atol") = defaults.atol, py::arg("max_steps") = defaults.max_steps,
      py::arg("z_as") = defaults.z_as, py::arg("iteration") = defaults.iteration,
      py::arg("initial_step") = defaults.initial_step, py::arg("max_step") = defaults.max_step,
      py::arg("t_end") = py::none(), py::arg("set") = defaults.set, py::arg("init") = defaults.init,
      py::arg("form") = py::none(), py::arg("independent") = defaults.independent,
      py::arg("threshold") = defaults.threshold, py::arg("drift_threshold") = defaults.drift_threshold,
      py::arg("stabilize") = defaults.stabilize, py::arg("baumgarte") = defaults.baumgarte,
      py::arg("phase") = py::none(), py::arg("equation_check_every") = defaults.equation_check_every,
      py::arg("equation_threshold") = defaults.equation_threshold, py::arg("every") = defaults.every,
      py::arg("history") = defaults.history,
      "Integrates a model with a method under the audit, as `energy-audit run` does, with its options "
      "(z_as: state|quadrature, iteration: newton|fixed-point, stabilize: none|baumgarte|ggl, baumgarte: "
      "(alpha, beta), phase: right|midpoint, form: lagrange|hamilton|multipliers|maggi).");

  py::class_<ea::Audit>(m, "TrajectoryAudit")
      .def_property_readonly("delta_C", &ea::Audit::relative_drift)
      .def_property_readonly("verdict", [](const ea::Audit& a) { return std::string(ea::verdict_name(a.verdict())); })
      .def_property_readonly("passed", &ea::Audit::passed)
      .def_property_readonly("max_abs_dC", &ea::Audit::max_abs_drift)
      .def_property_readonly("t_max_abs_dC", &ea::Audit::time_of_max_drift)
      .def_property_readonly("energy_scale", &ea::Audit::energy_scale)
      .def_property_readonly("C0", &ea::Audit::initial_control);

  m.def(
      "audit_trajectory",
      [](const py::array_t<double, py::array::c_style | py::array::forcecast>& t,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& positions,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& velocities,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& accelerations, const py::function& T,
         const py::function& V, const std::optional<py::function>& power, const std::optional<py::function>& dT_dt,
         const std::optional<py::function>& dV_dt, double threshold) {
        if (t.ndim() != 1) throw ea::InvalidArgument("t must be one-dimensional");
        const py::ssize_t count = t.shape(0);
        ea::TrajectorySamples samples{ea::Vector(count), samples_matrix(positions, count, "q"),
                                      samples_matrix(velocities, count, "v"), samples_matrix(accelerations, count, "a")};
        for (py::ssize_t i = 0; i < count; ++i) samples.t[i] = t.at(i);
        ea::TrajectoryEnergies e;
        e.kinetic_energy = [T](const ea::Vector& q, const ea::Vector& v, double time) {
          return T(as_array(q), as_array(v), time).cast<double>();
        };
        e.potential_energy = [V](const ea::Vector& q, double time) { return V(as_array(q), time).cast<double>(); };
        if (power) {
          e.nonpotential_power = [f = *power](const ea::Vector& q, const ea::Vector& v, double time) {
            return f(as_array(q), as_array(v), time).cast<double>();
          };
        }
        if (dT_dt) {
          e.kinetic_energy_rate = [f = *dT_dt](const ea::Vector& q, const ea::Vector& v, double time) {
            return f(as_array(q), as_array(v), time).cast<double>();
          };
        }
        if (dV_dt) {
          e.potential_energy_rate = [f = *dV_dt](const ea::Vector& q, double time) {
            return f(as_array(q), time).cast<double>();
          };
        }
        ea::AuditOptions options;
        options.threshold = threshold;
        options.store_every = 0;
        return ea::audit_trajectory(samples, e, options);
      },
      py::arg("t"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("T"), py::arg("V"), py::arg("power") = py::none(),
      py::arg("dT_dt") = py::none(), py::arg("dV_dt") = py::none(), py::arg("threshold") = 1e-3,
      "Audits samples (t, q, v, a) of a trajectory computed elsewhere: T(q, v, t), V(q, t), power(q, v, t) = v.f, "
      "and for a rheonomic model dT_dt(q, v, t), dV_dt(q, t). Z by Gauss quadrature on the cubic Hermite "
      "interpolants of each interval (error O(h^4)).");
}
