#include "advice_report.hpp"

#include <cmath>
#include <cstdio>

#include <energy_audit/studies/study_records.hpp>

#include "number_text.hpp"

namespace energy_audit::cli {
namespace {

std::string g(double value) { return printf_text("%.4g", value); }

}  // namespace

void print_advice(std::ostream& out, const std::string& model, const AdviceSettings& settings, const Advice& advice) {
  out << "advice for " << model << ": the largest step (adaptive: loosest rtol) with delta_C <= " << g(settings.target)
      << (settings.drift_target > 0 ? ", constraint drift <= " + g(settings.drift_target) + " (multiplier models)" : "")
      << "\n";
  out << "equations  " << advice.equations << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %-16s %-11s %-11s %-9s %s\n", "method", "step / rtol", "delta_C", "rhs evals",
                "wall [s]", "next larger: delta_C");
  out << line;
  for (const MethodAdvice& m : advice.methods) {
    if (m.answer) {
      const std::string next = m.next ? g(m.next->resolution) + ": " + g(m.next->delta_C) : "-";
      std::snprintf(line, sizeof line, "%-12s %-16s %-11s %-11zu %-9.3g %s\n", m.method.c_str(),
                    ((m.adaptive ? "rtol " : "h ") + shortest_text(m.answer->resolution)).c_str(), g(m.answer->delta_C).c_str(),
                    m.answer->rhs_evaluations, m.answer->wall_seconds, next.c_str());
      out << line;
    } else {
      std::snprintf(line, sizeof line, "%-12s %-16s\n", m.method.c_str(), "none");
      out << line;
    }
    if (!m.note.empty()) out << "  " << m.method << ": " << m.note << "\n";
    for (const char* end : {"diverged", "error", "interrupted"}) {
      const std::vector<double> resolutions = m.probes_ending(end);
      if (resolutions.empty()) continue;
      std::string list;
      for (const double r : resolutions) list += (list.empty() ? "" : ", ") + g(r);
      out << "  " << m.method << ": " << (std::string(end) == "error" ? "ended in an error" : end) << " at "
          << (m.adaptive ? "rtol = " : "h = ") << list << "\n";
    }
  }
  if (advice.recommended) {
    const MethodAdvice& best = advice.methods[*advice.recommended];
    out << "recommended: " << best.method << (best.adaptive ? " with rtol " : " with step ")
        << shortest_text(best.answer->resolution) << " (" << best.answer->rhs_evaluations
        << " right-hand-side evaluations, the fewest)\n";
  } else {
    out << "recommended: none: no method met the target\n";
  }
  out << "the searches ran on " << advice.workers.text() << "\n";
  if (advice.interrupted) out << "interrupted: the search did not finish\n";
}

void write_advice_json(OutputFile& file, const std::string& model, const AdviceSettings& settings,
                       const Advice& advice) {
  file.write(advice_record(model, settings, advice).dump(2) + "\n");
}

}  // namespace energy_audit::cli
