#include "plots.hpp"

#include <sys/wait.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>

#include <energy_audit/error.hpp>
#include <energy_audit/history.hpp>

namespace energy_audit::cli {
namespace {

std::string label_of(const RunOutcome& run) {
  std::ostringstream label;
  label << run.method.name << (run.method.adaptive() ? " rtol=" : " h=") << run.resolution();
  return label.str();
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Runs gnuplot on `script`. gnuplot's own messages are dropped: the one line we print names
/// what failed (the output path was checked to be writable before the runs).
void run_gnuplot(const std::string& script, const std::string& png_path) {
  // Without gnuplot the shell closes the pipe; writing to it must not kill us with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  FILE* pipe = popen("gnuplot 2>/dev/null", "w");
  if (!pipe) throw energy_audit::Error("cannot start a shell to run gnuplot");
  std::fputs(script.c_str(), pipe);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    throw energy_audit::Error("gnuplot not found: install the Debian package gnuplot-nox to draw '" + png_path + "'");
  }
  if (status != 0) throw energy_audit::Error("gnuplot failed to draw '" + png_path + "'");
}

std::string preamble(const std::string& png_path, const std::string& title) {
  std::ostringstream s;
  s << "set terminal pngcairo size 1000,700 noenhanced\n"
    << "set output " << quoted(png_path) << "\n"
    << "set title " << quoted(title) << "\n"
    << "set grid\nset key outside right\n";
  return s.str();
}

}  // namespace

void plot_work_precision(const std::string& png_path, const std::string& model,
                         const std::vector<ComparisonRow>& rows) {
  std::map<std::string, std::vector<const RunOutcome*>> by_method;
  std::vector<std::string> order;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    if (!run.finished() || !run.audit || !(run.audit->relative_drift() > 0)) continue;
    if (!by_method.count(run.method.name)) order.push_back(run.method.name);
    by_method[run.method.name].push_back(&run);
  }
  std::ostringstream s;
  s << std::setprecision(17) << preamble(png_path, "work-precision: " + model)
    << "set logscale xy\nset format y \"%.0e\"\nset xlabel \"right-hand-side evaluations\"\n"
    << "set ylabel \"delta_C\"\n";
  for (std::size_t m = 0; m < order.size(); ++m) {
    s << "$m" << m << " << EOD\n";
    for (const RunOutcome* run : by_method[order[m]]) s << run->rhs_evaluations << " " << run->audit->relative_drift() << "\n";
    s << "EOD\n";
  }
  if (order.empty()) throw energy_audit::Error("nothing to plot: no finished run with delta_C > 0");
  s << "plot ";
  for (std::size_t m = 0; m < order.size(); ++m) {
    s << (m ? ", " : "") << "$m" << m << " with linespoints title " << quoted(order[m]);
  }
  s << "\n";
  run_gnuplot(s.str(), png_path);
}

void plot_control_drift(const std::string& png_path, const std::string& model,
                        const std::vector<ComparisonRow>& rows) {
  std::ostringstream s;
  s << std::setprecision(17) << preamble(png_path, "|C(t) - C(t0)|: " + model)
    << "set logscale y\nset format y \"%.0e\"\nset xlabel \"t [s]\"\nset ylabel \"|C(t) - C(t0)| [J]\"\n";
  std::vector<std::string> titles;
  for (const ComparisonRow& row : rows) {
    const RunOutcome& run = row.run;
    if (!run.audit || run.audit->history().rows() < 2) continue;
    const History& history = run.audit->history();
    const std::size_t c_column = history.layout().multiplier_offset() - 1;  // C ends the energies
    s << "$r" << titles.size() << " << EOD\n";
    for (std::size_t r = 0; r < history.rows(); ++r) {
      const double drift = std::abs(history.row(r)[c_column] - run.audit->initial_control());
      if (drift > 0 && std::isfinite(drift)) s << history.row(r)[0] << " " << drift << "\n";
    }
    s << "EOD\n";
    titles.push_back(label_of(run));
  }
  if (titles.empty()) throw energy_audit::Error("nothing to plot: no run kept a history");
  s << "plot ";
  for (std::size_t r = 0; r < titles.size(); ++r) {
    s << (r ? ", " : "") << "$r" << r << " with lines title " << quoted(titles[r]);
  }
  s << "\n";
  run_gnuplot(s.str(), png_path);
}

}  // namespace energy_audit::cli
