#include "reproduce_seed002.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <utility>

#include <nlohmann/json.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/history.hpp>

#include "example_models.hpp"
#include "number_text.hpp"
#include "plots.hpp"
#include "run_plot.hpp"

namespace energy_audit::cli {
namespace {

constexpr double paper_step = 1e-3;      // seed 002, section 2.3
constexpr double half_step = paper_step / 2;
constexpr double reference_step = 1e-4;  // rk4: its error is far below both methods' at h = 1e-3
constexpr double paper_threshold = 1e-3;  // seed 000's criterion δ_C ≤ 1e-3 (the audit's default)
constexpr double paper_data_saving = 0.70;
constexpr double not_compared = std::numeric_limits<double>::quiet_NaN();
// The second half of the interval: after the trolley's start, at least one swing of the rod
// (about 2 s) long.
constexpr double half_time = 2.5, end_time = 5;

// The values one step writes in the paper's schemes: Euler–Cromer (its eq. 21) writes ÿ_i, ẏ_{i+1}
// and y_{i+1} for each of x1 and φ; RK2 (its eqs. 21, 22) writes y1…y4 and the increments
// k11…k41, k12…k42.
constexpr std::size_t euler_cromer_values = 6;
constexpr std::size_t euler_cromer_state_values = 4;  // ẏ and y of x1 and φ, the accelerations not kept
constexpr std::size_t rk2_values = 12;

// The columns of a history row of the crane in Lagrange's form: t, x1, φ, ẋ1, φ̇, then the energies.
constexpr std::size_t x1_column = 1, phi_column = 2, x1_dot_column = 3, phi_dot_column = 4;

struct PlannedRun {
  const char* method;
  double step;
  std::size_t values_per_step;
};

constexpr PlannedRun planned_runs[] = {
    {"euler-cromer", paper_step, euler_cromer_values}, {"rk2", paper_step, rk2_values},
    {"euler-cromer", half_step, euler_cromer_values},  {"rk2", half_step, rk2_values},
    {"rk4", reference_step, 0},
};

const Seed002Run& find_run(const Seed002Reproduction& r, std::string_view method, double step) {
  for (const Seed002Run& run : r.runs) {
    if (run.method == method && run.step == step) return run;
  }
  throw Error("reproduce seed002: no run of " + std::string(method));
}

/// (column a, column b) of every stored history row: a time series (a = 0) or a phase portrait.
std::vector<std::pair<double, double>> columns(const RunOutcome& run, std::size_t a, std::size_t b) {
  std::vector<std::pair<double, double>> points;
  const History& history = run.audit->history();
  for (std::size_t i = 0; i < history.rows(); ++i) {
    const std::span<const double> row = history.row(i);
    points.emplace_back(row[a], row[b]);
  }
  return points;
}

/// (t, column − the reference's column at the same t): the reference stores every step, and its
/// step divides the run's, so row i of the run is row i × stride of the reference.
std::vector<std::pair<double, double>> deviation(const RunOutcome& run, const RunOutcome& reference, std::size_t column) {
  const History& mine = run.audit->history();
  const History& ref = reference.audit->history();
  const auto stride = static_cast<std::size_t>(std::lround(run.step / reference.step));
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < mine.rows() && i * stride < ref.rows(); ++i) {
    const std::span<const double> row = mine.row(i), other = ref.row(i * stride);
    if (std::abs(row[0] - other[0]) > 1e-9) throw Error("reproduce seed002: the reference's times do not line up");
    points.emplace_back(row[0], row[column] - other[column]);
  }
  return points;
}

double largest_magnitude(const std::vector<std::pair<double, double>>& points) {
  double largest = 0;
  for (const auto& point : points) largest = std::max(largest, std::abs(point.second));
  return largest;
}

/// sup |column| over the stored rows with t in [from, to].
double largest_between(const RunOutcome& run, std::size_t column, double from, double to) {
  double largest = 0;
  for (const auto& [t, value] : columns(run, 0, column)) {
    if (t >= from && t <= to) largest = std::max(largest, std::abs(value));
  }
  return largest;
}

/// The half-width (max − min) / 2 of a column over the rows with t in [from, to]: the amplitude of
/// an oscillation about any centre.
double half_range_between(const RunOutcome& run, std::size_t column, double from, double to) {
  double low = INFINITY, high = -INFINITY;
  for (const auto& [t, value] : columns(run, 0, column)) {
    if (t < from || t > to) continue;
    low = std::min(low, value);
    high = std::max(high, value);
  }
  return (high - low) / 2;
}

std::string sci(double value, int digits = 2) { return std::isfinite(value) ? printf_text("%.*e", digits, value) : "-"; }
std::string percent(double fraction) { return printf_text("%.0f", 100 * fraction) + " %"; }

double observed_order(double coarse, double fine) { return std::log2(coarse / fine); }

std::string run_command(const std::string& method, double step) {
  return "energy-audit run crane --method " + method + " --step " + shortest_text(step);
}

std::vector<ClaimCheck> check_claims(const Seed002Reproduction& r) {
  const Seed002Run& ec = find_run(r, "euler-cromer", paper_step);
  const Seed002Run& rk2 = find_run(r, "rk2", paper_step);
  const Seed002Run& ec_half = find_run(r, "euler-cromer", half_step);
  const Seed002Run& rk2_half = find_run(r, "rk2", half_step);
  const double ec_order = observed_order(ec.delta_C(), ec_half.delta_C());
  const double rk2_order = observed_order(rk2.delta_C(), rk2_half.delta_C());
  std::vector<ClaimCheck> claims;

  // "roppant stabil": the run stays bounded over the whole interval.
  const auto bounds = [](const RunOutcome& run) {
    return "|x1| <= " + printf_text("%.3g", largest_between(run, x1_column, half_time, end_time)) +
           " m, the rod's swing +-" + printf_text("%.3g", half_range_between(run, phi_column, half_time, end_time)) + " rad";
  };
  claims.push_back(
      {"Euler-Cromer at h = 0.001 is very stable (section 3)",
       "it runs to t = 5 s (" + std::to_string(ec.run.steps) + " steps) without diverging, as rk2 does; over t = 2.5...5 s " +
           bounds(ec.run) + " (rk2: " + bounds(rk2.run) + ")",
       ec.run.finished() && std::isfinite(ec.delta_C()), run_command("euler-cromer", paper_step)});

  // "pontos": seed 000's criterion on C, and the distance from the reference trajectory.
  const bool ec_passes = ec.delta_C() <= paper_threshold;
  // The step at which Euler–Cromer's δ_C would reach the threshold, by its observed order.
  const double threshold_step = paper_step * std::pow(paper_threshold / ec.delta_C(), 1 / ec_order);
  claims.push_back(
      {"Euler-Cromer at h = 0.001 is very accurate (section 3)",
       "delta_C = " + sci(ec.delta_C()) + (ec_passes ? " <= " : " > ") + "1e-3, seed 000's threshold: " +
           (ec_passes ? "it passes" : "it fails (by its observed order it would pass from h = " + sci(threshold_step) +
                                        ", about " + sci((ec.run.interval.t_end - ec.run.interval.t0) / threshold_step, 1) +
                                        " steps)") +
           "; rk2 at the same step: delta_C = " + sci(rk2.delta_C()) + ", " +
           printf_text("%.0f", ec.delta_C() / rk2.delta_C()) + " times smaller. Against rk4 at h = 1e-4, max |x1 error| = " +
           sci(ec.max_error_x1) + " m and max |phi error| = " + sci(ec.max_error_phi) + " rad (rk2: " +
           sci(rk2.max_error_x1) + " m, " + sci(rk2.max_error_phi) + " rad). Halving h divides delta_C by " +
           printf_text("%.2f", std::exp2(ec_order)) + " (order " + printf_text("%.2f", ec_order) + "), rk2's by " +
           printf_text("%.2f", std::exp2(rk2_order)) + " (order " + printf_text("%.2f", rk2_order) +
           ": on an oscillation the energy error of an order-2 method is of order 3)",
       ec_passes, "energy-audit compare crane --methods euler-cromer,rk2 --steps 0.001,0.0005"});

  // "70 %-al kevesebb adatot": every count the runs or the paper's scheme offer.
  const auto saving = [](double ec_count, double rk2_count) { return 1 - ec_count / rk2_count; };
  const double evaluations = saving(double(ec.run.rhs_evaluations), double(rk2.run.rhs_evaluations));
  const double steps = saving(double(ec.run.steps), double(rk2.run.steps));
  const double values = saving(double(ec.stored_values()), double(rk2.stored_values()));
  const double state_values = saving(double(euler_cromer_state_values), double(rk2_values));
  // The steps Euler–Cromer would need for rk2's δ_C at h = 1e-3, by its observed order.
  const double equal_accuracy_step = paper_step * std::pow(rk2.delta_C() / ec.delta_C(), 1 / ec_order);
  const double equal_accuracy_steps = (ec.run.interval.t_end - ec.run.interval.t0) / equal_accuracy_step;
  const bool any_seventy = std::abs(evaluations - paper_data_saving) < 0.005 || std::abs(steps - paper_data_saving) < 0.005 ||
                           std::abs(values - paper_data_saving) < 0.005 ||
                           std::abs(state_values - paper_data_saving) < 0.005;
  claims.push_back(
      {"Euler-Cromer needs 70 % less data than RK2 (section 3)",
       "at h = 0.001: right-hand-side evaluations " + std::to_string(ec.run.rhs_evaluations) + " against " +
           std::to_string(rk2.run.rhs_evaluations) + " (1 against 2 per step): " + percent(evaluations) + " less; steps " +
           std::to_string(ec.run.steps) + " against " + std::to_string(rk2.run.steps) + ": " + percent(steps) +
           " less; values the paper's eqs. 21-22 write, " + std::to_string(ec.values_per_step) + " against " +
           std::to_string(rk2.values_per_step) + " per step (" + std::to_string(ec.stored_values()) + " against " +
           std::to_string(rk2.stored_values()) + "): " + percent(values) + " less, or " + percent(state_values) +
           " less when Euler-Cromer keeps only x1, phi and their velocities (" +
           std::to_string(euler_cromer_state_values) + " per step). None is 70 %. At equal delta_C (rk2's at h = 0.001) "
           "Euler-Cromer would need h = " + sci(equal_accuracy_step) + ", about " + sci(equal_accuracy_steps, 1) +
           " steps (by its observed order): more data, not less",
       any_seventy, "energy-audit compare crane --methods euler-cromer,rk2 --steps 0.001"});

  // Section 3's reading of figs. 3 and 5.
  const double x1_end = largest_between(ec.run, x1_column, half_time, end_time);
  const double x1_dot_end = largest_between(ec.run, x1_dot_column, half_time, end_time);
  claims.push_back(
      {"the trolley's phase portrait converges near zero without reaching it, the rod's motion being undamped (fig. 3)",
       "from x1(0) = 0.5 m, over t = 2.5...5 s |x1| <= " + printf_text("%.3g", x1_end) + " m and |x1_dot| <= " +
           printf_text("%.3g", x1_dot_end) + " m/s (Euler-Cromer; rk2 " +
           printf_text("%.3g", largest_between(rk2.run, x1_column, half_time, end_time)) + " m, " +
           printf_text("%.3g", largest_between(rk2.run, x1_dot_column, half_time, end_time)) + " m/s)",
       x1_end > 0 && x1_end < 0.05 * 0.5, run_command("euler-cromer", paper_step) + " --csv FILE"});
  const double swing_start = half_range_between(ec.run, phi_column, 0, half_time);
  const double swing_end = half_range_between(ec.run, phi_column, half_time, end_time);
  claims.push_back(
      {"the rod swings undamped, steadily after the trolley's start (fig. 5)",
       "the rod's swing, (max - min) / 2 of phi, is " + printf_text("%.3g", swing_start) + " rad over t = 0...2.5 s and " +
           printf_text("%.3g", swing_end) + " rad over t = 2.5...5 s (Euler-Cromer; rk2 " +
           printf_text("%.3g", half_range_between(rk2.run, phi_column, 0, half_time)) + " and " +
           printf_text("%.3g", half_range_between(rk2.run, phi_column, half_time, end_time)) +
           " rad); no damper acts on phi, and the energy the trolley's damper takes (Z) is part of C",
       swing_end > 0.8 * swing_start, run_command("euler-cromer", paper_step) + " --csv FILE"});
  return claims;
}

}  // namespace

double Seed002Run::delta_C() const { return run.audit ? run.audit->relative_drift() : std::nan(""); }

Seed002Reproduction reproduce_seed002(const StopRequest* stop) {
  Seed002Reproduction r;
  const ModelEntry& crane = find_model("crane");
  for (const PlannedRun& planned : planned_runs) {
    if (stop_requested(stop)) break;
    RunSettings settings;
    settings.method = find_method(planned.method);
    settings.step = planned.step;
    settings.audit.threshold = paper_threshold;
    settings.stop = stop;
    // The crane's defaults are the paper's parameters and start (docs/models.md): no --set, no --init.
    r.runs.push_back({planned.method, planned.step, planned.values_per_step, run_model(crane, ModelSetup{}, settings),
                      not_compared, not_compared});
  }
  r.finished = r.runs.size() == std::size(planned_runs) &&
               std::all_of(r.runs.begin(), r.runs.end(), [](const Seed002Run& run) { return run.run.finished(); });
  if (!r.finished) return r;
  const RunOutcome& reference = r.runs.back().run;
  for (Seed002Run& run : r.runs) {
    if (&run.run == &reference) continue;
    run.max_error_x1 = largest_magnitude(deviation(run.run, reference, x1_column));
    run.max_error_phi = largest_magnitude(deviation(run.run, reference, phi_column));
  }
  r.claims = check_claims(r);
  return r;
}

void print_seed002(std::ostream& out, const Seed002Reproduction& r) {
  out << "seed 002, the trolley crane (model crane with its defaults, the paper's values: m1 = 10 kg, m2 = 1 kg, l = 1 m,\n"
         "g = 9.81 m/s^2, k = 50 N s/m, s = 3000 N/m; x1(0) = 0.5 m, phi(0) = -pi/6 = -30 deg, which the paper\n"
         "rounds to -0.5235 rad; velocities 0), t = 0...5 s. pass: delta_C <= 1e-3 (seed 000's threshold).\n"
         "values/step: what one step of the paper's scheme writes (eq. 21 Euler-Cromer, eqs. 21-22 RK2);\n"
         "max |error|: against the rk4 run at h = 1e-4.\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-13s %-7s %-6s %-10s %-12s %-14s %-9s %-8s %-16s %s\n", "method", "h", "steps",
                "rhs evals", "values/step", "stored values", "delta_C", "verdict", "max |x1 error|", "max |phi error|");
  out << line;
  for (const Seed002Run& run : r.runs) {
    const bool reference = run.values_per_step == 0;
    std::snprintf(line, sizeof line, "%-13s %-7s %-6zu %-10zu %-12s %-14s %-9s %-8s %-16s %s", run.method.c_str(),
                  printf_text("%g", run.step).c_str(), run.run.steps, run.run.rhs_evaluations,
                  reference ? "-" : std::to_string(run.values_per_step).c_str(),
                  reference ? "-" : std::to_string(run.stored_values()).c_str(), sci(run.delta_C()).c_str(),
                  run.run.verdict().c_str(), reference ? "(reference)" : (sci(run.max_error_x1) + " m").c_str(),
                  reference ? "" : (sci(run.max_error_phi) + " rad").c_str());
    std::string text = line;
    text.erase(text.find_last_not_of(' ') + 1);
    out << text << "\n";
  }
  if (!r.finished) {
    out << "\nnot every run finished: the claims are not checked\n";
    return;
  }
  out << "\nthe paper's claims beside what the runs show\n";
  for (const ClaimCheck& c : r.claims) {
    out << "\n" << (c.agrees ? "agrees:   " : "DIFFERS:  ") << c.claim << "\n"
        << "          computed: " << c.computed << "\n"
        << "          shown by: " << c.command << "\n";
  }
}

void write_seed002_csv(OutputFile& file, const Seed002Reproduction& r) {
  file.write("method,step,steps,rhs_evaluations,values_per_step,stored_values,delta_C,verdict,max_error_x1,max_error_phi\n");
  for (const Seed002Run& run : r.runs) {
    const bool reference = run.values_per_step == 0;
    file.write(run.method + "," + shortest_text(run.step) + "," + std::to_string(run.run.steps) + "," +
               std::to_string(run.run.rhs_evaluations) + "," + (reference ? "" : std::to_string(run.values_per_step)) +
               "," + (reference ? "" : std::to_string(run.stored_values())) + "," + shortest_text(run.delta_C()) + "," +
               run.run.verdict() + "," + (std::isfinite(run.max_error_x1) ? shortest_text(run.max_error_x1) : "") + "," +
               (std::isfinite(run.max_error_phi) ? shortest_text(run.max_error_phi) : "") + "\n");
  }
}

void write_seed002_json(OutputFile& file, const Seed002Reproduction& r) {
  const auto number = [](double value) { return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(); };
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const Seed002Run& run : r.runs) {
    const bool reference = run.values_per_step == 0;
    nlohmann::ordered_json j;
    j["method"] = run.method;
    j["step"] = run.step;
    j["reference"] = reference;
    j["steps"] = run.run.steps;
    j["rhs_evaluations"] = run.run.rhs_evaluations;
    j["values_per_step"] = reference ? nlohmann::ordered_json() : nlohmann::ordered_json(run.values_per_step);
    j["stored_values"] = reference ? nlohmann::ordered_json() : nlohmann::ordered_json(run.stored_values());
    j["delta_C"] = number(run.delta_C());
    j["verdict"] = run.run.verdict();
    j["max_error_x1"] = number(run.max_error_x1);
    j["max_error_phi"] = number(run.max_error_phi);
    runs.push_back(std::move(j));
  }
  nlohmann::ordered_json claims = nlohmann::ordered_json::array();
  for (const ClaimCheck& c : r.claims) {
    claims.push_back({{"claim", c.claim}, {"computed", c.computed}, {"agrees", c.agrees}, {"command", c.command}});
  }
  nlohmann::ordered_json document;
  document["paper"] = "seed002";
  document["model"] = "crane";
  document["threshold"] = paper_threshold;
  document["runs"] = std::move(runs);
  document["claims"] = std::move(claims);
  file.write(document.dump(2) + "\n");
}

std::vector<std::string> seed002_figure_paths(const std::string& directory) {
  std::vector<std::string> paths;
  for (int figure = 2; figure <= 5; ++figure) paths.push_back(directory + "/fig" + std::to_string(figure) + ".png");
  return paths;
}

void plot_seed002_figures(const std::vector<std::string>& paths, const Seed002Reproduction& r) {
  const RunOutcome& ec = find_run(r, "euler-cromer", paper_step).run;
  const RunOutcome& rk2 = find_run(r, "rk2", paper_step).run;
  const RunOutcome& reference = r.runs.back().run;
  const std::string ec_label = "Euler-Cromer, h = 0.001", rk2_label = "RK2, h = 0.001";
  const auto time_figure = [&](std::size_t index, const std::string& title, std::size_t column, const std::string& y_label) {
    OutputFile png(paths[index]);
    plot_time_series(png, title,
                     {{"both methods", y_label, {{ec_label, columns(ec, 0, column)}, {rk2_label, columns(rk2, 0, column)}}},
                      {"difference from rk4 at h = 1e-4", y_label,
                       {{ec_label, deviation(ec, reference, column)}, {rk2_label, deviation(rk2, reference, column)}}}});
    png.commit();
  };
  const auto phase_figure = [&](std::size_t index, const std::string& title, std::size_t column, std::size_t velocity,
                                const std::string& x_label, const std::string& y_label) {
    OutputFile png(paths[index]);
    plot_phase_portrait(png, title, x_label, y_label,
                        {{ec_label, columns(ec, column, velocity)}, {rk2_label, columns(rk2, column, velocity)}});
    png.commit();
  };
  // Each title names the runs drawn, a line each: model, method, step, δ_C and verdict.
  std::string runs = run_title(ec);
  runs.insert(0, 1, '\n');
  runs += '\n';
  runs += run_title(rk2);
  time_figure(0, "Fig. 2: trolley position x1(t)" + runs, x1_column, "x1 [m]");
  phase_figure(1, "Fig. 3: phase portrait of the trolley" + runs, x1_column, x1_dot_column, "x1 [m]", "x1_dot [m/s]");
  time_figure(2, "Fig. 4: crane (rod) angle phi(t)" + runs, phi_column, "phi [rad]");
  phase_figure(3, "Fig. 5: phase portrait of the crane (rod)" + runs, phi_column, phi_dot_column, "phi [rad]",
               "phi_dot [rad/s]");
}

}  // namespace energy_audit::cli
