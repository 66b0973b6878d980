#include "mujoco_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/mujoco/mujoco_run.hpp>
#include <energy_audit/studies/progress.hpp>

#include "cli_options.hpp"
#include "command_outputs.hpp"
#include "interruption.hpp"
#include "number_text.hpp"
#include "option_groups.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

using namespace energy_audit::mujoco;
using json = nlohmann::ordered_json;

/// NaN (a time that never came) as JSON's null.
json number_or_null(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json ledger_record(const std::vector<LedgerEntry>& ledger) {
  json entries = json::array();
  for (const LedgerEntry& e : ledger) entries.push_back({{"name", e.name}, {"work", e.work}});
  return entries;
}

/// The record of one run: its settings and findings (what `mujoco --json` writes, and each rung of
/// a ladder).
json run_record(const MujocoRunResult& r) {
  json controls = json::array();
  for (const ControlSetting& c : r.controls) {
    json control{{"actuator", c.actuator}, {"text", c.text()}};
    if (c.sinusoid) {
      control["kind"] = "sinusoid";
      control["amplitude"] = c.amplitude;
      control["frequency_hz"] = c.frequency;
      control["phase_rad"] = c.phase;
      control["offset"] = c.offset;
    } else {
      control["kind"] = "constant";
      control["value"] = c.offset;
    }
    controls.push_back(std::move(control));
  }
  return json{{"integrator", r.integrator},
              {"timestep", r.timestep},
              {"t0", r.t0},
              {"t_end", r.t_end},
              {"t_reached", r.t_reached},
              {"steps", r.steps},
              {"steps_taken", r.steps_taken},
              {"controls", controls},
              {"threshold", r.threshold},
              {"delta_C", number_or_null(r.delta_C)},
              {"max_abs_dC", number_or_null(r.max_abs_drift)},
              {"energy_scale", number_or_null(r.energy_scale)},
              {"t_first_above_threshold", number_or_null(r.time_first_above_threshold)},
              {"energy_change", number_or_null(r.energy_change)},
              {"ledger", ledger_record(r.ledger)},
              {"contact_pairs", ledger_record(r.contact_pairs)},
              {"unexplained_work", number_or_null(r.unexplained_work)},
              {"uncounted_passive_work", number_or_null(r.uncounted_passive_work)},
              {"diagnosis", r.diagnosis},
              {"verdict", r.verdict},
              {"wall_time_s", r.wall_seconds}};
}

/// The head of every record: the model.
json model_record(const MujocoRunner& runner) {
  const MujocoRunSettings& s = runner.settings();
  return json{{"command", "mujoco"}, {"model_file", s.model_file}, {"model", runner.model()->names},
              {"mujoco_version", mj_versionString()}};
}

void print_run(std::ostream& out, const MujocoRunner& runner, const MujocoRunResult& r) {
  const mjModel* m = runner.model();
  out << "model      " << r.model_file << " (" << r.model_name << "): nq " << m->nq << ", nv " << m->nv << ", "
      << m->nu << " actuators\n";
  out << "integrator " << r.integrator << ", timestep " << shortest_text(r.timestep) << "\n";
  out << "interval   [" << shortest_text(r.t0) << ", " << shortest_text(r.t_end) << "], " << r.steps << " steps\n";
  for (const ControlSetting& c : r.controls) out << "control    " << c.text() << "\n";
  out << "delta_C    " << printf_text("%.3e", r.delta_C) << " (threshold " << printf_text("%g", r.threshold)
      << "), max |C - C0| = " << printf_text("%.3e", r.max_abs_drift) << " J, energy scale "
      << printf_text("%.3e", r.energy_scale) << " J\n";
  if (r.delta_C > r.threshold && std::isfinite(r.time_first_above_threshold)) {
    out << "           |C - C0| first above the threshold at t = " << printf_text("%g", r.time_first_above_threshold)
        << "\n";
  }
  out << "energy     E - E0 = " << printf_text("%+.6g", r.energy_change) << " J\n";
  std::vector<LedgerEntry> pairs = r.contact_pairs;  // the largest first
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const LedgerEntry& a, const LedgerEntry& b) { return std::abs(a.work) > std::abs(b.work); });
  constexpr std::size_t pairs_shown = 5;
  for (const LedgerEntry& e : r.ledger) {
    out << "work       " << e.name << " = " << printf_text("%+.6g", e.work) << " J\n";
    if (e.name != "contacts") continue;
    for (std::size_t k = 0; k < pairs.size() && k < pairs_shown; ++k) {
      out << "             of which " << pairs[k].name << " = " << printf_text("%+.6g", pairs[k].work) << " J\n";
    }
    if (pairs.size() > pairs_shown) out << "             and " << pairs.size() - pairs_shown << " more pairs of geoms in contact\n";
  }
  if (r.ledger.empty()) out << "work       none: the model has no actuator, damper, contact or constraint that works\n";
  out << "residual   C - C0 = " << printf_text("%+.6g", r.unexplained_work)
      << " J: the energy change the ledger leaves unexplained\n";
  if (!r.diagnosis.empty()) out << "diagnosis  " << r.diagnosis << "\n";
  out << "verdict    " << r.verdict << "\n";
  out << "wall time  " << printf_text("%.3g", r.wall_seconds) << " s\n";
}

/// The table of a ladder's rungs.
void print_rungs(std::ostream& out, const std::vector<MujocoRung>& rungs) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-11s %-10s %-6s %-11s %-13s %-13s %s\n", "timestep", "delta_C", "order", "steps",
                "E - E0", "unexplained", "verdict");
  out << line;
  for (const MujocoRung& rung : rungs) {
    const std::string order = std::isnan(rung.observed_order)
                                  ? std::string("-")
                                  : printf_text("%.2f", std::abs(rung.observed_order) < 0.005 ? 0.0 : rung.observed_order);
    std::snprintf(line, sizeof line, "  %-11.4g %-10.3g %-6s %-11ld %-+13.4g %-+13.4g %s\n", rung.timestep, rung.run.delta_C,
                  order.c_str(), rung.run.steps, rung.run.energy_change, rung.run.unexplained_work,
                  rung.run.verdict.c_str());
    out << line;
  }
}

json rungs_record(const std::vector<MujocoRung>& rungs) {
  json records = json::array();
  for (const MujocoRung& rung : rungs) {
    json record = run_record(rung.run);
    record["observed_order"] = number_or_null(rung.observed_order);
    records.push_back(std::move(record));
  }
  return records;
}

/// `mujoco --csv`: the history, one row per state kept.
void write_history_csv(OutputFile& file, const MujocoRunResult& r) {
  std::string text = "t,E_kin,E_pot,E,Z,C\n";
  for (const MujocoHistoryRow& row : r.history) {
    for (const double value : {row.t, row.kinetic_energy, row.potential_energy, row.energy, row.Z}) {
      append_shortest_text(text, value);
      text += ',';
    }
    append_shortest_text(text, row.C);
    text += '\n';
    if (text.size() > (1u << 16)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
}

/// `mujoco --plot`: C(t) − C(t0) with the time it first left the threshold, and the energies.
void plot_mujoco_run(OutputFile& file, const MujocoRunResult& r) {
  if (r.history.empty()) throw Error("--plot: the run kept no state to draw");
  const std::size_t stride = std::max<std::size_t>(1, r.history.size() / 4096);
  TimeSeries drift{"C - C0", {}}, kinetic{"E_kin", {}}, potential{"E_pot", {}}, energy{"E", {}};
  const double C0 = r.history.front().C;
  for (std::size_t i = 0; i < r.history.size(); ++i) {
    if (i % stride != 0 && i + 1 != r.history.size()) continue;
    const MujocoHistoryRow& row = r.history[i];
    drift.points.emplace_back(row.t, row.C - C0);
    kinetic.points.emplace_back(row.t, row.kinetic_energy);
    potential.points.emplace_back(row.t, row.potential_energy);
    energy.points.emplace_back(row.t, row.energy);
  }
  TimeSeriesPanel drift_panel{"C(t) - C(t0)", "C - C0 [J]", {drift}};
  if (std::isfinite(r.time_first_above_threshold)) {
    drift_panel.marks.emplace_back(r.time_first_above_threshold, "first above the threshold");
  }
  const TimeSeriesPanel energy_panel{"energies", "[J]", {kinetic, potential, energy}};
  const std::string title = r.model_file + ", " + r.integrator + " at timestep " + shortest_text(r.timestep) +
                            ": delta_C = " + printf_text("%.3g", r.delta_C) + ", verdict " + r.verdict;
  plot_time_series(file, title, {drift_panel, energy_panel});
}

/// The options of `mujoco`, `mujoco diagnose` and `mujoco advise`: the model and its run.
struct MujocoOptions {
  std::string model_file;
  double t_end = default_t_end, timestep = 0, threshold = 1e-3;
  std::string integrator;
  std::vector<std::string> controls;
  ProgressOptions progress;
  std::string json;
  CLI::Option *t_end_option = nullptr, *timestep_option = nullptr, *integrator_option = nullptr,
              *json_option = nullptr;
  const CLI::App* app = nullptr;

  /// `threshold_help` empty: no --threshold (advise judges against --target).
  void add_to(CLI::App& command, bool model_required, const std::string& timestep_help,
              const std::string& threshold_help, const std::string& json_help) {
    app = &command;
    CLI::Option* model = command.add_option("MODEL", model_file, "the model: an MJCF file (MuJoCo's XML)");
    if (model_required) model->required();
    t_end_option = command.add_option("--t-end", t_end, "length of the run [s] from the model's start (keyframe 0)")
                       ->check(positive_number())->capture_default_str();
    timestep_option = command.add_option("--timestep", timestep, timestep_help)->check(positive_number());
    integrator_option = command.add_option("--integrator", integrator,
                                           "euler, rk4 or implicit (MuJoCo 2.2.2's; any case); default: the model's");
    command.add_option("--ctrl", controls,
                       "hold an actuator's control: NAME=VALUE, or NAME=sin:AMPLITUDE,FREQUENCY_HZ[,PHASE_RAD[,OFFSET]] "
                       "(repeatable; the others stay 0)")
        ->allow_extra_args(false)
        ->type_name("NAME=VALUE");
    if (!threshold_help.empty()) {
      command.add_option("--threshold", threshold, threshold_help)->check(positive_number())->capture_default_str();
    }
    json_option = command.add_option("--json", json, json_help);
    progress.add_to(command);
  }

  /// The library's settings; the library checks them (MujocoRunner), and its InvalidArgument is a
  /// usage error here.
  MujocoRunner runner(std::size_t store_every) const {
    try {
      MujocoRunSettings s;
      s.model_file = model_file;
      if (t_end_option->count() > 0) s.t_end = t_end;
      if (timestep_option->count() > 0) s.timestep = timestep;
      if (integrator_option->count() > 0) s.integrator = integrator;
      for (const std::string& text : controls) s.controls.push_back(parse_control(text));
      s.threshold = threshold;
      s.store_every = store_every;
      return MujocoRunner(std::move(s));
    } catch (const InvalidArgument& e) {
      throw UsageError(e.what());
    }
  }
};

/// The progress line of a run or a ladder (progress.hpp): steps of one run, runs of a ladder.
class MujocoProgressLine {
 public:
  MujocoProgressLine(const ProgressOptions& options, std::string what, std::size_t runs)
      : line_(progress_shown(options.quiet, options.forced, true)), what_(std::move(what)), runs_(runs) {}

  MujocoHooks hooks() {
    MujocoHooks hooks;
    hooks.stop = &interruption_request();
    if (!line_.shown()) return hooks;
    hooks.progress = [this](const MujocoProgress& p) {
      if (runs_ == 1) {  // one run: its steps
        if (!started_) line_.start(what_, static_cast<std::size_t>(p.steps), "steps");
        started_ = true;
        line_.reach(static_cast<std::size_t>(p.step));
      } else {
        if (!started_) line_.start(what_, runs_, "runs");
        started_ = true;
        if (p.run_finished) line_.advance(1);
      }
    };
    return hooks;
  }
  void finish() {
    if (started_) line_.finish();
  }

 private:
  ProgressLine line_;
  std::string what_;
  std::size_t runs_;
  bool started_ = false;
};

/// `mujoco diagnose MODEL.xml`: the ladder h, h/2, h/4, ... and its verdict.
struct MujocoDiagnoseCommand {
  MujocoOptions options;
  std::size_t levels = 3;

  void add_to(CLI::App& command) {
    options.add_to(command, true, "the ladder's first (largest) timestep; each rung halves it (default: the model's)",
                   "the delta_C a run must meet", "write the diagnosis and every rung to FILE");
    command.add_option("--levels", levels, "rungs of the ladder")
        ->check(CLI::Range(std::size_t{3}, std::size_t{12}))->capture_default_str();
  }

  int execute() const {
    const MujocoRunner runner = options.runner(0);
    CommandOutputs outputs;
    outputs.add("--json", options.json_option->count() > 0, options.json);
    outputs.check();
    outputs.open();
    MujocoProgressLine progress(options.progress, "diagnose of " + runner.settings().model_file, levels);
    const MujocoDiagnosis d = runner.diagnose(levels, progress.hooks());
    progress.finish();
    const MujocoRunSettings& s = runner.settings();
    std::cout << "diagnose " << s.model_file << " with " << d.integrator << ": " << levels << " rungs from timestep "
              << shortest_text(*s.timestep) << ", t_end " << shortest_text(*s.t_end) << ", threshold "
              << printf_text("%g", d.threshold) << "\n";
    print_rungs(std::cout, d.rungs);
    std::cout << "diagnosis  " << d.verdict << "\n";
    std::cout << "finding    " << d.finding << "\n";
    std::cout << "what to do " << d.what_to_do << "\n";
    std::cout.flush();
    outputs.commit("--json", [&](OutputFile& file) {
      json record = model_record(runner);
      record["command"] = "mujoco diagnose";
      record["integrator"] = d.integrator;
      record["expected_order"] = d.expected_order;
      record["threshold"] = d.threshold;
      record["rungs"] = rungs_record(d.rungs);
      record["diagnosis"] = d.verdict;
      record["observed_order"] = number_or_null(d.observed_order);
      record["suggested_timestep"] = d.suggested_timestep ? json(*d.suggested_timestep) : json(nullptr);
      record["finding"] = d.finding;
      record["what_to_do"] = d.what_to_do;
      file.write(record.dump(2) + "\n");
    });
    return d.interrupted() ? exit_status(exit_failure) : exit_finished;
  }
};

/// `mujoco advise MODEL.xml --target X`: the largest timestep of the ladder that meets X.
struct MujocoAdviseCommand {
  MujocoOptions options;
  double target = 0;

  void add_to(CLI::App& command) {
    options.add_to(command, true,
                   "h0: the ladder tries h0 x 2^3 down to h0 x 2^-8, largest first (default: the model's timestep)", "",
                   "write the advice and every rung tried to FILE");
    command.add_option("--target", target, "the delta_C to meet")->required()->check(positive_number());
  }

  int execute() const {
    const MujocoRunner runner = options.runner(0);
    CommandOutputs outputs;
    outputs.add("--json", options.json_option->count() > 0, options.json);
    outputs.check();
    outputs.open();
    MujocoProgressLine progress(options.progress, "advise of " + runner.settings().model_file, 0);
    const MujocoAdvice advice = runner.advise(target, progress.hooks());
    progress.finish();
    const MujocoRunSettings& s = runner.settings();
    std::cout << "advise " << s.model_file << " with " << advice.integrator << ": target " << printf_text("%g", target)
              << ", t_end " << shortest_text(*s.t_end) << ", timesteps from " << shortest_text(advice.base_timestep)
              << " x 2^3 down\n";
    print_rungs(std::cout, advice.rungs);
    std::cout << "advice     " << advice.finding << "\n";
    if (advice.timestep) std::cout << "timestep   " << shortest_text(*advice.timestep) << "\n";
    std::cout.flush();
    outputs.commit("--json", [&](OutputFile& file) {
      json record = model_record(runner);
      record["command"] = "mujoco advise";
      record["integrator"] = advice.integrator;
      record["target"] = advice.target;
      record["base_timestep"] = advice.base_timestep;
      record["rungs"] = rungs_record(advice.rungs);
      record["timestep"] = advice.timestep ? json(*advice.timestep) : json(nullptr);
      record["finding"] = advice.finding;
      file.write(record.dump(2) + "\n");
    });
    return advice.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

/// `mujoco MODEL.xml`: one run, its summary, history (--csv), plot (--plot) and record (--json);
/// `mujoco diagnose ...` and `mujoco advise ...` below it.
struct MujocoCommand {
  MujocoOptions options;
  std::size_t every = 1;
  std::string csv, plot;
  bool fail_on_verdict = false;
  CLI::Option *csv_option = nullptr, *plot_option = nullptr, *every_option = nullptr;
  CLI::App* app = nullptr;
  CLI::App *diagnose_app = nullptr, *advise_app = nullptr;
  MujocoDiagnoseCommand diagnose;
  MujocoAdviseCommand advise;

  void add_to(CLI::App& command) {
    app = &command;
    options.add_to(command, false, "the step (default: the model's)", "pass when delta_C <= X",
                   "write the summary and the work ledger to FILE");
    csv_option = command.add_option("--csv", csv, "write the history to FILE: t,E_kin,E_pot,E,Z,C");
    plot_option = command.add_option("--plot", plot, "draw C(t) - C(t0) and the energies to FILE.png (gnuplot)");
    every_option = command.add_option("--every", every, "keep every K-th step for --csv and --plot (delta_C sees all)")
                       ->check(positive_count(1000000000))->capture_default_str();
    command.add_flag("--fail-on-verdict", fail_on_verdict, "exit 3 when the verdict is not pass");
    command.require_subcommand(0, 1);
    diagnose_app = command.add_subcommand(
        "diagnose", "run a ladder of timesteps (h, h/2, h/4, ...): step error, a loss the ledger explains, an "
                    "unexplained plateau, or divergence");
    diagnose.add_to(*diagnose_app);
    advise_app = command.add_subcommand("advise", "find the largest timestep h0 x 2^k that meets a target delta_C");
    advise.add_to(*advise_app);
  }

  int execute() const {
    const CLI::App* nested = diagnose_app->parsed() ? diagnose_app : advise_app->parsed() ? advise_app : nullptr;
    if (nested != nullptr) {
      // The options of diagnose and advise follow their name: those given before it belong to the run.
      for (const CLI::Option* option : app->get_options()) {
        if (option->count() > 0) {
          throw UsageError(option->get_name() + ": give it after '" + nested->get_name() + "' (energy-audit mujoco " +
                           nested->get_name() + " MODEL.xml [options])");
        }
      }
      return nested == diagnose_app ? diagnose.execute() : advise.execute();
    }
    if (options.model_file.empty()) {
      throw UsageError("MODEL: required (energy-audit mujoco MODEL.xml [options], or mujoco diagnose|advise MODEL.xml)");
    }
    const bool keeps_history = csv_option->count() > 0 || plot_option->count() > 0;
    if (!keeps_history) refuse_if_given(every_option, "thins the history of --csv and --plot, neither given");
    const MujocoRunner runner = options.runner(keeps_history ? every : 0);
    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--json", options.json_option->count() > 0, options.json);
    outputs.add("--plot", plot_option->count() > 0, plot, OutputKind::Plot);
    outputs.check();
    outputs.open();
    MujocoProgressLine progress(options.progress, "mujoco " + runner.settings().model_file, 1);
    const MujocoRunResult r = runner.run(progress.hooks());
    progress.finish();
    // The plot first: if gnuplot fails, no output of this invocation is left, the summary included.
    outputs.commit("--plot", [&](OutputFile& file) { plot_mujoco_run(file, r); });
    print_run(std::cout, runner, r);
    std::cout.flush();
    outputs.commit("--csv", [&](OutputFile& file) { write_history_csv(file, r); });
    outputs.commit("--json", [&](OutputFile& file) {
      json record = model_record(runner);
      record.update(run_record(r));
      file.write(record.dump(2) + "\n");
    });
    if (r.interrupted() || r.diverged()) {
      const std::string files = outputs.committed_text();
      std::cerr << "energy-audit: " << (r.interrupted() ? "interrupted" : "diverged") << " at t = "
                << printf_text("%g", r.t_reached) << (r.diverged() ? ": " + r.diagnosis : std::string())
                << (files.empty() ? "" : "; the history so far is in " + files) << "\n";
      return exit_status(exit_failure);
    }
    if (fail_on_verdict && !r.passed()) return exit_verdict;
    return exit_finished;
  }
};

}  // namespace

Command add_mujoco_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand(
      "mujoco", "run an MJCF model in MuJoCo under the energy audit (and `mujoco diagnose`, `mujoco advise`)");
  auto options = std::make_shared<MujocoCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession&) { return options->execute(); }, false};
}

}  // namespace energy_audit::cli
