#include "compare_command.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <energy_audit/error.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

#include "command_outputs.hpp"
#include <energy_audit/studies/compare.hpp>
#include "interruption.hpp"
#include "example_models.hpp"
#include "option_groups.hpp"
#include "study_frame.hpp"
#include "output_file.hpp"
#include "plots.hpp"
#include "number_text.hpp"
#include "report.hpp"
#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

/// The rows with each observed order as the table prints it: one that rounds to 0.00 is 0, so that
/// the table shows "0.00", never "-0.00" (as diagnose's table).
std::vector<ComparisonRow> orders_as_printed(std::vector<ComparisonRow> rows) {
  for (ComparisonRow& row : rows) {
    if (std::abs(row.observed_order) < 0.005) row.observed_order = 0.0;
  }
  return rows;
}

/// The rows with an observed order of -0 made 0: the CSV keeps every other value as computed.
std::vector<ComparisonRow> without_negative_zero_orders(std::vector<ComparisonRow> rows) {
  for (ComparisonRow& row : rows) {
    if (row.observed_order == 0.0) row.observed_order = 0.0;
  }
  return rows;
}

/// "crane, rk4 and cvode-bdf: delta_C 2.1e-09 to 3.3e-04; pass 4, fail 2": the model, the methods,
/// the range of δ_C and the verdicts of a comparison, for its figures' titles.
std::string comparison_summary(const std::string& model, const std::vector<ComparisonRow>& rows) {
  std::vector<std::string> methods;
  std::vector<std::pair<std::string, int>> verdicts;  // in order of first appearance
  double low = INFINITY, high = -INFINITY;
  for (const ComparisonRow& row : rows) {
    if (std::ranges::find(methods, row.method) == methods.end()) methods.push_back(row.method);
    const auto counted = std::ranges::find(verdicts, row.verdict, &std::pair<std::string, int>::first);
    if (counted == verdicts.end()) {
      verdicts.emplace_back(row.verdict, 1);
    } else {
      ++counted->second;
    }
    if (row.delta_C && std::isfinite(*row.delta_C)) {
      low = std::min(low, *row.delta_C);
      high = std::max(high, *row.delta_C);
    }
  }
  std::string text = model + ", ";
  for (std::size_t i = 0; i < methods.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == methods.size() ? " and " : ", ") + methods[i];
  }
  if (low <= high) {
    text += ": delta_C " + printf_text("%.2g", low) + (low < high ? " to " + printf_text("%.2g", high) : "");
  }
  text += "; verdicts:";
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    text += (i == 0 ? " " : ", ") + std::to_string(verdicts[i].second) + " " + verdicts[i].first;
  }
  return text;
}

/// `compare MODEL`: one model over several methods and steps (rtols): the table, the observed
/// orders, the work-precision and drift plots.
struct CompareCommand {
  CommonOptions common;
  AdaptiveOptions adaptive;
  std::vector<std::string> methods = fixed_step_method_names(examples::methods());
  std::vector<double> steps{1e-2, 5e-3, 1e-3};
  std::vector<double> rtols{1e-4, 1e-6, 1e-8, 1e-10};
  StudyOptions study{1};  // one run at a time by default (see add_to)
  std::string csv, plot, plot_c;
  CLI::Option *steps_option = nullptr, *rtols_option = nullptr, *csv_option = nullptr, *plot_option = nullptr,
              *plot_c_option = nullptr;

  void add_to(CLI::App& command) {
    common.add_to(command);
    command.add_option("--methods", methods, "comma-separated methods, fixed-step and adaptive")
        ->delimiter(',')->check(known_method())->default_str(comma_separated(fixed_step_method_names(examples::methods())));
    steps_option = command.add_option("--steps", steps, "comma-separated steps for the fixed-step methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-2,5e-3,1e-3");
    rtols_option = command.add_option("--rtols", rtols, "comma-separated rtols for the adaptive methods")
                       ->delimiter(',')->check(positive_number())->default_str("1e-4,1e-6,1e-8,1e-10");
    adaptive.add_to(command, false);
    csv_option = command.add_option("--csv", csv, "write the table to FILE");
    plot_option = command.add_option("--plot", plot, "draw the work-precision diagram to FILE.png (gnuplot)");
    plot_c_option = command.add_option("--plot-c", plot_c, "draw |C(t) - C(t0)| of every run to FILE.png (gnuplot)");
    // One run at a time by default: the table reports each run's wall time, which runs side by
    // side on shared cores would lengthen.
    study.add_to(command, "runs at once, on threads (under mpirun the runs go to the ranks)");
  }

  int execute(const MpiSession& session) const {
    StudyFrame frame(study, session);
    if (find_kinematic_model(common.model) != nullptr) {
      throw UsageError("MODEL: " + common.model + " is a kinematic model, audited by its constraint drift: use run or "
                       "stability, not compare");
    }
    const ModelEntry& entry = find_model(common.model);
    common.check_applicable(entry);
    const ModelSetup setup = common.setup();
    ComparisonPlan plan;
    plan.base = common.settings();
    plan.base.adaptive = adaptive.options();
    plan.base.options = {"--methods", "--steps", "--rtols"};
    plan.steps = steps;
    plan.rtols = rtols;
    plan.drift_curves = plot_c_option->count() > 0;
    for (const std::string& name : methods) plan.methods.push_back(find_method(name, "--methods"));
    const MethodsUsed used = methods_used(plan.methods, join(methods));
    check_lists_apply(used, plan.base.options, steps_option->count() > 0, rtols_option->count() > 0);
    adaptive.check_applicable(used);
    comparison_runs(entry, setup, plan);  // every run's settings are checked before anything is written

    CommandOutputs outputs;
    outputs.add("--csv", csv_option->count() > 0, csv);
    outputs.add("--plot", plot_option->count() > 0, plot, OutputKind::Plot);
    outputs.add("--plot-c", plot_c_option->count() > 0, plot_c, OutputKind::Plot);
    plan.base.stop = frame.start(outputs);

    const Comparison comparison = compare(entry, setup, plan, frame.pool());
    const std::vector<ComparisonRow>& rows = comparison.rows;
    std::vector<DriftCurve> curves;
    for (const ComparisonRow& row : rows) {
      if (!plan.drift_curves) break;
      DriftCurve curve{row.method, (row.adaptive ? "rtol=" : "h=") + to_text(row.resolution()), row.drift_curve};
      curve.summary = (row.delta_C ? "delta_C " + printf_text("%.2g", *row.delta_C) + ", " : std::string()) + row.verdict;
      if (row.dC_first_above_threshold) curve.marks.emplace_back(*row.dC_first_above_threshold, "first above threshold");
      if (row.dC_fastest_growth_at) curve.marks.emplace_back(*row.dC_fastest_growth_at, "fastest growth");
      curves.push_back(std::move(curve));
    }
    const auto print = [&](std::ostream& out) {
      out << "model " << entry.name << " (form " << form_name(form_of(entry, plan.base)) << ": "
          << comparison.equations << ")\n";
      print_comparison(out, orders_as_printed(rows));
      if (comparison.workers.count() > 1) out << "the runs ran on " << comparison.workers.text() << "\n";
      if (rows.size() < comparison.planned) {
        out << "interrupted: " << comparison.planned - rows.size() << " of " << comparison.planned
            << " runs not started\n";
      }
    };
    frame.finish(print, [&] {
      // The plots first: if gnuplot fails, no output of this invocation is left, the table included.
      outputs.commit("--plot", [&](OutputFile& file) {
        std::vector<WorkPrecisionPoint> points;
        for (const ComparisonRow& row : rows) {
          if (row.finished && row.delta_C) {
            points.push_back({row.method, static_cast<double>(row.rhs_evaluations), *row.delta_C, row.verdict});
          }
        }
        plot_work_precision(file, "work-precision of " + comparison_summary(entry.name, rows), points,
                            plan.base.audit.threshold);
      });
      outputs.commit("--plot-c", [&](OutputFile& file) {
        plot_control_drift(file, "|C(t) - C(t0)| of " + comparison_summary(entry.name, rows), curves);
      });
      outputs.commit("--csv", [&](OutputFile& file) { write_comparison_csv(file, without_negative_zero_orders(rows)); });
    });
    if (interruption_signal() != 0) return exit_status(exit_failure);
    if (common.fail_on_verdict) {
      for (const ComparisonRow& row : rows) {
        if (row.verdict != "pass") return exit_verdict;
      }
    }
    return exit_finished;
  }
};

}  // namespace

Command add_compare_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("compare", "audit one model over several methods and steps");
  auto options = std::make_shared<CompareCommand>();
  options->add_to(*command);
  return {command, [options](const MpiSession& session) { return options->execute(session); }, true};
}

}  // namespace energy_audit::cli
