#include "stability_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <string_view>

#include <energy_audit/studies/study_records.hpp>

#include "number_text.hpp"
#include "plots.hpp"

namespace energy_audit::cli {
namespace {

/// "a | b" with as many significant digits (6 at least) as it takes the two to differ.
std::string pair_text(double a, double b) {
  std::string first, second;
  for (int digits = 6;; ++digits) {
    first = printf_text("%.*g", digits, a);
    second = printf_text("%.*g", digits, b);
    if (a == b || first != second || digits == std::numeric_limits<double>::max_digits10) break;
  }
  return first + " | " + second;
}

std::string boundary_text(const std::optional<OperationalBoundary>& b) {
  if (!b) return "none";
  std::string text = pair_text(b->last_stable, b->first_unstable);
  if (b->passing_beyond > 0) text += " (" + std::to_string(b->passing_beyond) + " passing beyond)";
  return text;
}

std::string optional_text(const std::optional<double>& value) { return value ? printf_text("%.6g", *value) : "none"; }

/// The points of one method, τ and start.
std::vector<const MapPoint*> points_of(const StabilityMap& map, const std::string& method, double tau,
                                       const std::string& start) {
  std::vector<const MapPoint*> points;
  for (const MapPoint& p : map.points) {
    if (p.method == method && p.tau == tau && p.start == start && !p.verdict.empty()) points.push_back(&p);
  }
  return points;
}

/// "stability of ellipse, euler and rk4 (verdict against k and tau): stable 120, unstable 42":
/// the model, the methods and the verdicts counted. A kinematic model has no δ_C: its runs are
/// judged by the constraint drift f, whose verdicts the map shows.
std::string stability_title(const std::string& model, const StabilityMap& map) {
  std::vector<std::string> methods;
  std::map<std::string, int> verdicts;
  for (const MapPoint& p : map.points) {
    if (p.verdict.empty()) continue;
    if (std::find(methods.begin(), methods.end(), p.method) == methods.end()) methods.push_back(p.method);
    ++verdicts[p.verdict];
  }
  std::string title = "stability of " + model;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    title += (i == 0 ? ", " : i + 1 == methods.size() ? " and " : ", ") + methods[i];
  }
  title += " (verdict against k and tau):";
  bool first = true;
  for (const auto& [verdict, count] : verdicts) {
    title += (first ? " " : ", ") + verdict + " " + std::to_string(count);
    first = false;
  }
  return title;
}

}  // namespace

void print_stability_map(std::ostream& out, const std::string& model, const StabilityMap& map) {
  std::set<std::string> starts;
  for (const MapPoint& p : map.points) starts.insert(p.start);
  out << "stability map of " << model << ": " << map.points.size() << " runs on " << map.workers.text() << "\n";
  out << "linear theory: a small constraint error does not grow for z*/tau < k < -d/tau "
         "(z*: real stability limit of R, d = |R(i w)|^2 - 1, w the rotation per step)\n";
  for (const MethodStepSummary& s : map.summaries) {
    out << "\n" << s.method << ", tau = " << printf_text("%.6g", s.tau) << ": linear interval " << printf_text("%.6g", s.linear.lower)
        << " < k < " << printf_text("%.6g", s.linear.upper);
    if (s.starts.empty()) {  // every start gets its boundaries when the searches run
      out << "; rho(k) = 1 and the boundaries not searched (--no-boundaries)\n";
    } else {
      out << "; rho(k) = 1 at " << optional_text(s.rho_one_lower) << " and " << optional_text(s.rho_one_upper) << "\n";
    }
    for (const StartBoundaries& b : s.starts) {
      out << "  " << b.start << ": operational boundaries (last stable | first unstable): lower "
          << boundary_text(b.lower) << ", upper " << boundary_text(b.upper) << "\n";
    }
    for (const std::string& start : starts) {
      std::map<std::string, int> counts;
      double stable_min = INFINITY, stable_max = -INFINITY;
      for (const MapPoint* p : points_of(map, s.method, s.tau, start)) {
        ++counts[p->verdict];
        if (p->verdict == "stable") {
          stable_min = std::min(stable_min, p->k);
          stable_max = std::max(stable_max, p->k);
        }
      }
      out << "  " << start << ": map verdicts";
      for (const auto& [verdict, count] : counts) out << " " << verdict << " " << count;
      if (stable_min <= stable_max) out << "; stable from k = " << printf_text("%.6g", stable_min) << " to " << printf_text("%.6g", stable_max);
      out << "\n";
    }
  }
  if (map.interrupted) out << "interrupted: the map or the searches did not finish\n";
}

void write_stability_csv(OutputFile& file, const StabilityMap& map) {
  file.write("method,tau,start,k,f_max,f_final,rho,verdict\n");
  for (const MapPoint& p : map.points) {
    if (p.verdict.empty()) continue;  // not run (interrupted)
    std::string row = p.method;
    for (const std::string& field :
         {shortest_text(p.tau), p.start, shortest_text(p.k), shortest_text(p.f_max), shortest_text(p.f_final), shortest_text(p.rho), p.verdict}) {
      row += ',';
      row += field;
    }
    row += '\n';
    file.write(row);
  }
}

void write_stability_json(OutputFile& file, const std::string& model, const StabilityMap& map) {
  file.write(stability_record(model, map).dump(1) + "\n");
}

void plot_stability_map(OutputFile& png, const std::string& model, const StabilityMap& map) {
  std::vector<StabilityPanel> panels;
  for (const MapPoint& p : map.points) {
    if (p.verdict.empty()) continue;
    auto panel = std::find_if(panels.begin(), panels.end(), [&](const StabilityPanel& s) { return s.method == p.method; });
    if (panel == panels.end()) {
      panels.push_back({p.method, {}, {}, {}});
      panel = panels.end() - 1;
    }
    panel->points.push_back({p.k, p.tau, p.start, p.verdict});
  }
  for (const MethodStepSummary& s : map.summaries) {
    for (StabilityPanel& panel : panels) {
      if (panel.method != s.method) continue;
      panel.lower_limit.emplace_back(s.linear.lower, s.tau);
      panel.upper_limit.emplace_back(s.linear.upper, s.tau);
    }
  }
  plot_verdict_map(png, stability_title(model, map), panels);
}

}  // namespace energy_audit::cli
