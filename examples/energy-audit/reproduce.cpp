#include "reproduce.hpp"

#include <cstdio>
#include <limits>
#include <span>
#include <utility>

#include <nlohmann/json.hpp>

#include <energy_audit/history.hpp>

#include "example_models.hpp"
#include "number_text.hpp"
#include "plots.hpp"
#include "run_plot.hpp"

namespace energy_audit::cli {
namespace {

constexpr double unattributed = std::numeric_limits<double>::quiet_NaN();
constexpr double paper_threshold = 1e-3;  // seed 000's criterion δ_C ≤ 1e-3

constexpr std::string_view mechanism_note =
    "Table 1 prints 1.1e-4 with Figs. 2b, 3b and 9.4e-2 with 2a, 3a; the captions (a: correct, b: wrong) and the "
    "text's ratio of about 670 pair 1.1e-4 with the correct equations. No method or step is given: rk4, h = 1e-3";
constexpr std::string_view crane3d_note =
    "Table 1 gives three values for Fig. 4's four steps and states neither the steps nor which value is which; "
    "the crane's geometry and start are reconstructions: not comparable run by run";
constexpr std::string_view container_wrong_note =
    "the paper names neither the flipped term nor the rope end's path: dV/dphi flipped, both paths run";

/// "1.10e-04" (`digits` after the point); "-" for a value the paper does not give (NaN).
std::string scientific(double value, int digits = 2) {
  return std::isnan(value) ? "-" : printf_text("%.*e", digits, value);
}

/// (t, column − offset) of every stored history row.
std::vector<std::pair<double, double>> column(const RunOutcome& run, std::size_t index, double offset = 0) {
  std::vector<std::pair<double, double>> points;
  const History& history = run.audit->history();
  for (std::size_t i = 0; i < history.rows(); ++i) {
    const std::span<const double> row = history.row(i);
    points.emplace_back(row[0], row[index] - offset);
  }
  return points;
}

std::size_t energy_column(const RunOutcome& run, std::string_view name) {
  std::size_t k = 0;
  while (History::energy_columns[k] != name) ++k;
  return run.audit->history().layout().energy_offset() + k;
}

std::vector<std::pair<double, double>> energy(const RunOutcome& run, std::string_view name) {
  return column(run, energy_column(run, name));
}

/// The values times `factor` (the paper draws C magnified beside E).
std::vector<std::pair<double, double>> scaled(std::vector<std::pair<double, double>> points, double factor) {
  for (auto& point : points) point.second *= factor;
  return points;
}

/// C(t) − C(t0).
std::vector<std::pair<double, double>> control_change(const RunOutcome& run) {
  const std::size_t c = energy_column(run, "C");
  return column(run, c, run.audit->history().row(0)[c]);
}

const ReproducedRun& find_run(const std::vector<ReproducedRun>& rows, std::string_view model, double step) {
  for (const ReproducedRun& row : rows) {
    if (row.paper.model == model && row.paper.step == step) return row;
  }
  throw Error("reproduce: no run of " + std::string(model));
}

}  // namespace

const std::vector<PaperRun>& seed000_runs() {
  static const std::vector<PaperRun> runs{
      {"6", "2a, 3a", "mechanism", Form::Lagrange, "rk4", 1e-3, "1.1e-4", 1.1e-4, mechanism_note},
      {"1", "2b, 3b", "mechanism-wrong", Form::Lagrange, "rk4", 1e-3, "9.4e-2", 9.4e-2,
       "which sign the paper flipped is not given: m3 l sin(gamma) cos(gamma) gamma_dot^2"},
      {"2, 4, 5", "4", "crane3d", Form::Lagrange, "rkg", 0.08, "1.9e-2, 5.1e-4, 1.3e-4", unattributed, crane3d_note},
      {"2, 4, 5", "4", "crane3d", Form::Lagrange, "rkg", 0.04, "1.9e-2, 5.1e-4, 1.3e-4", unattributed, crane3d_note},
      {"2, 4, 5", "4", "crane3d", Form::Lagrange, "rkg", 0.02, "1.9e-2, 5.1e-4, 1.3e-4", unattributed, crane3d_note},
      {"2, 4, 5", "4", "crane3d", Form::Lagrange, "rkg", 0.01, "1.9e-2, 5.1e-4, 1.3e-4", unattributed, crane3d_note},
      {"8", "5", "container-line", Form::Maggi, "rkg", 0.04, "1.9e-6", 1.9e-6,
       "the rope end's velocity profile and the interval are reconstructions"},
      {"7", "6", "container-circle", Form::Maggi, "rkg", 0.04, "1.7e-5", 1.7e-5,
       "the interval and the start at full jib speed are reconstructions"},
      {"3", "7, 8", "container-line-wrong", Form::Maggi, "rkg", 0.04, "1.94e-3", 1.94e-3, container_wrong_note},
      {"3", "7, 8", "container-circle-wrong", Form::Maggi, "rkg", 0.04, "1.94e-3", 1.94e-3, container_wrong_note},
  };
  return runs;
}

std::string ReproducedRun::paper_verdict() const {
  if (std::isnan(paper.paper_value)) return "";
  return paper.paper_value <= paper_threshold ? "pass" : "fail";
}

std::string ReproducedRun::note() const {
  const std::string paper_says = paper_verdict();
  if (!paper_says.empty() && paper_says != run.verdict()) return "verdicts differ; " + std::string(paper.note);
  return std::string(paper.note);
}

std::vector<ReproducedRun> reproduce(const std::vector<PaperRun>& runs, const StopRequest* stop) {
  std::vector<ReproducedRun> rows;
  for (const PaperRun& paper : runs) {
    if (stop != nullptr && stop->requested()) break;
    const ModelEntry& entry = find_model(std::string(paper.model));
    RunSettings settings;
    settings.form = paper.form;
    settings.method = find_method(std::string(paper.method));
    settings.step = paper.step;
    settings.stop = stop;
    rows.push_back({paper, run_model(entry, ModelSetup{}, settings)});
  }
  return rows;
}

void print_reproduction(std::ostream& out, const std::vector<ReproducedRun>& rows) {
  char line[512];
  std::snprintf(line, sizeof line, "%-8s %-7s %-23s %-9s %-6s %-6s %-23s %-9s %-6s %-6s %s\n", "item", "figure",
                "model", "form", "method", "step", "paper delta_C", "ours", "paper", "ours", "note");
  out << line;
  for (const ReproducedRun& row : rows) {
    const std::string paper_verdict = row.paper_verdict();
    std::snprintf(line, sizeof line, "%-8s %-7s %-23s %-9s %-6s %-6s %-23s %-9s %-6s %-6s ",
                  std::string(row.paper.items).c_str(), std::string(row.paper.figures).c_str(),
                  std::string(row.paper.model).c_str(), form_name(row.paper.form),
                  std::string(row.paper.method).c_str(), printf_text("%g", row.paper.step).c_str(),
                  std::string(row.paper.paper_delta_C).c_str(),
                  scientific(row.run.audit ? row.run.audit->relative_drift() : std::nan("")).c_str(),
                  paper_verdict.empty() ? "-" : paper_verdict.c_str(), row.run.verdict().c_str());
    out << line << row.note() << "\n";
  }
}

void write_reproduction_csv(OutputFile& file, const std::vector<ReproducedRun>& rows) {
  const auto quoted = [](std::string_view text) {
    std::string field = "\"";
    for (const char c : text) field += c == '"' ? std::string("\"\"") : std::string(1, c);
    return field + "\"";
  };
  file.write("item,figure,model,form,method,step,paper_delta_C,delta_C,paper_verdict,verdict,note\n");
  for (const ReproducedRun& row : rows) {
    file.write(quoted(row.paper.items) + "," + quoted(row.paper.figures) + "," + std::string(row.paper.model) + "," +
               form_name(row.paper.form) + "," + std::string(row.paper.method) + "," + printf_text("%g", row.paper.step) +
               "," + quoted(row.paper.paper_delta_C) + "," +
               scientific(row.run.audit ? row.run.audit->relative_drift() : std::nan(""), 6) + "," +
               row.paper_verdict() + "," + row.run.verdict() + "," + quoted(row.note()) + "\n");
  }
}

void write_reproduction_json(OutputFile& file, const std::vector<ReproducedRun>& rows) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ReproducedRun& row : rows) {
    nlohmann::ordered_json j;
    j["item"] = row.paper.items;
    j["figure"] = row.paper.figures;
    j["model"] = row.paper.model;
    j["form"] = form_name(row.paper.form);
    j["method"] = row.paper.method;
    j["step"] = row.paper.step;
    j["paper_delta_C"] = row.paper.paper_delta_C;
    if (std::isnan(row.paper.paper_value)) {
      j["paper_value"] = nullptr;
    } else {
      j["paper_value"] = row.paper.paper_value;
    }
    const double ours = row.run.audit ? row.run.audit->relative_drift() : std::nan("");
    if (std::isfinite(ours)) {
      j["delta_C"] = ours;
    } else {
      j["delta_C"] = nullptr;
    }
    if (const std::string paper_verdict = row.paper_verdict(); paper_verdict.empty()) {
      j["paper_verdict"] = nullptr;
    } else {
      j["paper_verdict"] = paper_verdict;
    }
    j["verdict"] = row.run.verdict();
    j["note"] = row.note();
    list.push_back(std::move(j));
  }
  nlohmann::ordered_json document;
  document["paper"] = "seed000";
  document["threshold"] = paper_threshold;
  document["runs"] = std::move(list);
  file.write(document.dump(2) + "\n");
}

std::vector<std::string> seed000_figure_paths(const std::string& directory) {
  std::vector<std::string> paths;
  for (int figure = 2; figure <= 8; ++figure) paths.push_back(directory + "/fig" + std::to_string(figure) + ".png");
  return paths;
}

void plot_seed000_figures(const std::vector<std::string>& paths, const std::vector<ReproducedRun>& rows) {
  const RunOutcome& mechanism = find_run(rows, "mechanism", 1e-3).run;
  const RunOutcome& mechanism_wrong = find_run(rows, "mechanism-wrong", 1e-3).run;
  const RunOutcome& line = find_run(rows, "container-line", 0.04).run;
  const RunOutcome& circle = find_run(rows, "container-circle", 0.04).run;
  const RunOutcome& circle_wrong = find_run(rows, "container-circle-wrong", 0.04).run;
  const auto draw = [&](std::size_t index, const std::string& title, const std::vector<TimeSeriesPanel>& panels) {
    OutputFile png(paths[index]);
    plot_time_series(png, title, panels);
    png.commit();
  };
  const auto c_z_e = [](const RunOutcome& run) {
    return std::vector<TimeSeries>{{"C", energy(run, "C")}, {"Z", energy(run, "Z")}, {"E", energy(run, "E")}};
  };
  // Each title names the runs drawn, a line each: model, method, step, δ_C and verdict.
  const std::string mechanisms = "\n" + run_title(mechanism) + "\n" + run_title(mechanism_wrong);
  draw(0, "Fig. 2: C(t) - C(t0) of the mechanism" + mechanisms,
       {{"a) correct equations", "C - C(t0) [J]", {{"mechanism", control_change(mechanism)}}},
        {"b) wrong equations", "C - C(t0) [J]", {{"mechanism-wrong", control_change(mechanism_wrong)}}}});
  draw(1, "Fig. 3: C, Z and E of the mechanism" + mechanisms,
       {{"a) correct equations", "[J]", c_z_e(mechanism)}, {"b) wrong equations", "[J]", c_z_e(mechanism_wrong)}});
  std::vector<TimeSeries> crane_c, crane_e;
  for (const double step : {0.08, 0.04, 0.02, 0.01}) {
    const RunOutcome& run = find_run(rows, "crane3d", step).run;
    crane_c.push_back({"h = " + printf_text("%g", step) + ": delta_C " + printf_text("%.3g", run.audit->relative_drift()) +
                           ", " + run.verdict(),
                       control_change(run)});
    crane_e.push_back({"h = " + printf_text("%g", step), energy(run, "E")});
  }
  draw(2, "Fig. 4: C and E of the 3D crane for four steps\ncrane3d, rkg: delta_C and verdict of each step in the key",
       {{"C(t) - C(t0)", "[J]", crane_c}, {"E(t)", "[J]", crane_e}});
  for (const auto& [index, title, run] : {std::tuple{std::size_t{3}, "Fig. 5: container, rope end on a line", &line},
                                          std::tuple{std::size_t{4}, "Fig. 6: container, rope end on a circle", &circle}}) {
    draw(index, std::string(title) + "\n" + run_title(*run),
         {{"a) E(t) and C(t)", "[J]", {{"E", energy(*run, "E")}, {"C", energy(*run, "C")}}},
          {"b) C(t) - C(t0)", "[J]", {{"C - C(t0)", control_change(*run)}}}});
  }
  // φ is the sixth coordinate; in Maggi's form φ̇ is the fifth independent velocity.
  const std::size_t phi = 1 + 5, phi_dot = 1 + 6 + 4;
  const std::string circles = "\n" + run_title(circle) + "\n" + run_title(circle_wrong);
  draw(5, "Fig. 7: phi and phi_dot of the container (circle), correct and wrong equations" + circles,
       {{"phi", "[rad]", {{"correct", column(circle, phi)}, {"wrong", column(circle_wrong, phi)}}},
        {"phi_dot", "[rad/s]", {{"correct", column(circle, phi_dot)}, {"wrong", column(circle_wrong, phi_dot)}}}});
  draw(6, "Fig. 8: E and C of the container (circle), correct and wrong equations" + circles,
       {{"a) E(t), 100 C(t)", "[J]",
         {{"E", energy(circle, "E")},
          {"100 C correct", scaled(energy(circle, "C"), 100)},
          {"100 C wrong", scaled(energy(circle_wrong, "C"), 100)}}},
        {"b) C(t) - C(t0)", "[J]", {{"correct", control_change(circle)}, {"wrong", control_change(circle_wrong)}}}});
}

}  // namespace energy_audit::cli
