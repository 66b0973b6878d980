#include "stability_command.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/stability_map.hpp>

#include "command_outputs.hpp"
#include "interruption.hpp"
#include "example_models.hpp"
#include "option_groups.hpp"
#include "study_frame.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "stability_report.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// `stability MODEL`: the map of verdicts of a kinematic model over k, τ, methods and starts,
/// with linear theory and the boundaries (stability_map.hpp).
struct StabilityCommand {
  std::string model;
  std::vector<std::string> methods{"euler", "rk2", "rk3", "rk4"};
  std::vector<double> steps{0.002, 0.005, 0.01};
  std::string gains = "-1500:0.5:3";
  std::vector<Assignment> sets;
  double t_end = 0;
  StudyOptions study;
  bool no_boundaries = false;
  std::string csv, json, plot;
  CLI::Option *t_end_option = nullptr, *csv_option = nullptr, *json_option = nullptr, *plot_option = nullptr;

  void add_to(CLI::App& command) {
    std::vector<std::string> kinematic_names;
    for (const KinematicEntry& entry : kinematic_registry()) kinematic_names.push_back(entry.name);
    command.add_option("MODEL", model, "a kinematic model (see `energy-audit list`)")->required()->check(one_of(kinematic_names));
    const std::vector<std::string> mapped = stability_method_names(examples::methods());
    command.add_option("--methods", methods, "comma-separated explicit Runge-Kutta methods (" + join(mapped) + ")")
        ->delimiter(',')->check(CLI::IsMember(mapped))->default_str("euler,rk2,rk3,rk4");
    command.add_option("--steps", steps, "comma-separated steps tau")
        ->delimiter(',')->check(positive_number())->default_str("0.002,0.005,0.01");
    command.add_option("--k", gains, "the gains, FIRST:STEP:LAST")->capture_default_str()->type_name("FIRST:STEP:LAST");
    command.add_option("--set", sets, "set a model parameter other than k, NAME=VALUE (repeatable)")
        ->check(assignment())->take_all()->type_name("NAME=VALUE");
    t_end_option = command.add_option("--t-end", t_end, "end of the interval (default: the model's)")->check(positive_number());
    command.add_flag("--no-boundaries", no_boundaries,
                     "only the map: no bracketing search of the boundaries and no rho(k) = 1");
    csv_option = command.add_option("--csv", csv, "write every run of the map to FILE");
    json_option = command.add_option("--json", json, "write the map and the boundaries to FILE");
    plot_option = command.add_option("--plot", plot, "draw the verdicts against k and tau to FILE.png (gnuplot)");
    study.add_to(command, "threads that run the map (default: the machine's cores; under mpirun the runs go to the ranks)");
  }

  int execute(const MpiSession& session) const {
    const KinematicEntry& entry = *find_kinematic_model(model);
    StudyFrame frame(study, session);
    const RunPool& pool = frame.pool();
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
    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--json", json_option->count() > 0, json);
    outputs.add("--plot", plot_option->count() > 0, plot, OutputKind::Plot);
    settings.stop = frame.start(outputs);
    if (pool.leads() && !study.progress.quiet) {
      std::fprintf(stderr, "energy-audit: %zu runs of the map on %s%s\n",
                   settings.methods.size() * steps.size() * settings.gains.size() * entry.starts.size(),
                   pool.workers().text().c_str(), settings.boundaries ? ", then the boundary searches" : "");
    }
    const StabilityMap map = compute_stability_map(entry, settings, pool);
    frame.finish([&](std::ostream& out) { print_stability_map(out, entry.name, map); }, [&] {
      if (!map.interrupted) outputs.commit("--plot", [&](OutputFile& file) { plot_stability_map(file, entry.name, map); });
      outputs.commit("--csv", [&](OutputFile& file) { write_stability_csv(file, map); });
      outputs.commit("--json", [&](OutputFile& file) { write_stability_json(file, entry.name, map); });
    });
    return map.interrupted ? exit_status(exit_failure) : exit_finished;
  }
};

}  // namespace

Command add_stability_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("stability", "map the verdicts of a kinematic model over its gain k and the step");
  auto options = std::make_shared<StabilityCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, true};
}

}  // namespace energy_audit::cli
