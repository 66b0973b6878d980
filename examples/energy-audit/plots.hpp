#pragma once
/// \file
/// Figures of the command line, drawn by gnuplot (Debian package gnuplot-nox) as PNG, SVG or PDF,
/// the format the file name's extension names (figure_format).
///
/// gnuplot runs without a shell (posix_spawnp), reads its script from a pipe and writes the
/// image to the OutputFile's descriptor: no file name ever reaches gnuplot's command language,
/// and titles (model and method names) go in single-quoted strings, where gnuplot substitutes
/// nothing. When gnuplot fails, the error carries the first line of its own message.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "output_file.hpp"

namespace energy_audit::cli {

/// The formats a figure is drawn in: gnuplot's pngcairo, svg and pdfcairo terminals.
enum class FigureFormat { Png, Svg, Pdf };

/// The format the extension of `path` names: .png, .svg or .pdf, in any case; PNG for a name
/// without an extension and for a descriptor's name ("-": standard output). Absent for any other
/// extension.
std::optional<FigureFormat> format_of_name(std::string_view path);

/// The format of `path` (format_of_name); a UsageError naming `option` for an extension that names
/// no format it draws, as in "--plot: cannot draw 'out.jpg': name the figure .png, .svg or .pdf".
FigureFormat figure_format(std::string_view option, std::string_view path);

/// One run of the work–precision diagram.
struct WorkPrecisionPoint {
  std::string method;
  double rhs_evaluations;
  double delta_C;
  std::string verdict = {};  ///< counted per method in the key ("rk4: pass 2, fail 1")
};

/// |C(t) − C(t0)| of one run (e.g. DriftEnvelope::points()), drawn in its method's panel under
/// `label` ("h=0.001", "rtol=1e-06").
struct DriftCurve {
  std::string method;
  std::string label;
  std::vector<std::pair<double, double>> points;  ///< (t, value) in time order
  /// Times marked on the curve with their kinds ("first above threshold", "fastest growth"): a
  /// point where the curve is at that time, of a shape per kind that the panel's key names once.
  std::vector<std::pair<double, std::string>> marks = {};
  /// What the key says of the run after its label: "delta_C 1.2e-06, pass".
  std::string summary = {};
};

/// Throws energy_audit::Error("gnuplot not found: install the Debian package gnuplot-nox to
/// draw --plot") unless an executable gnuplot is on PATH; the command line calls it before any
/// run, so a missing gnuplot does not cost the runs.
void require_gnuplot(std::string_view option);

/// δ_C against right-hand-side evaluations, log–log, under `title`, one line per method (in
/// order of first appearance, each through its points in the given order, its verdicts counted in
/// the key), and `threshold` as a horizontal dashed line labelled "threshold 1e-3", below the
/// top of the frame. Points that a log scale cannot show (≤ 0 or not finite) are left out, and so
/// is a threshold of 0. The key sits inside the frame. Throws energy_audit::Error when nothing is
/// left to draw or gnuplot fails; `png` is left uncommitted.
void plot_work_precision(OutputFile& png, const std::string& title, const std::vector<WorkPrecisionPoint>& points,
                         double threshold);

/// |C(t) − C(t0)| on a log scale under `title`: a grid of panels, one per method (in order of
/// first appearance), sharing their axes, each with its runs' labels and summaries in a key inside
/// its frame. A curve with no value > 0 is named in its panel's key as "(nothing > 0)". A
/// curve's marks are drawn as points on it, a shape per kind of mark, each kind named once in the
/// panel's key (a mark at a time the curve does not reach, or where it is 0, is left out). Throws
/// energy_audit::Error when no curve has a value > 0 or gnuplot fails; `png` is left uncommitted.
void plot_control_drift(OutputFile& png, const std::string& title, const std::vector<DriftCurve>& curves);

/// One curve of a time-series panel: (t, value) in time order.
struct TimeSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
};

/// Curves against t on linear axes, under a title and a y label; each mark a vertical line at its
/// time, a dash type and colour per mark, named in the key with its time (no text in the frame
/// that marks at near times could overprint).
struct TimeSeriesPanel {
  std::string title;
  std::string y_label;
  std::vector<TimeSeries> series;
  std::vector<std::pair<double, std::string>> marks = {};
};

/// The panels stacked in one column under `title`, t [s] on each x axis, each with its key inside
/// its frame; non-finite points are left out. Throws energy_audit::Error when a panel has nothing to draw or gnuplot fails; `png`
/// is left uncommitted.
void plot_time_series(OutputFile& png, const std::string& title, const std::vector<TimeSeriesPanel>& panels);

/// One method's panel of a stability map: the verdict of every run at (k, τ) from a named start,
/// and the linear limits as (k, τ) points, one per τ.
struct StabilityPanel {
  struct Point {
    double k;
    double tau;
    std::string start;
    std::string verdict;  ///< stable, neutral, drifting, unstable (others drawn grey)
  };
  std::string method;
  std::vector<Point> points;
  std::vector<std::pair<double, double>> lower_limit, upper_limit;  ///< (k, τ)
};

/// One panel per method: k on a symmetric-log x axis (linear within the spacing of the gains, so
/// that boundaries near -1000 and near 0 both show), τ on a log y axis (the starts drawn just below and above
/// their τ), a colour per verdict, and the linear limits as lines, under `title`, the key inside
/// each frame above the points. Throws energy_audit::Error
/// when there is nothing to draw or gnuplot fails; `png` is left uncommitted.
void plot_verdict_map(OutputFile& png, const std::string& title, const std::vector<StabilityPanel>& panels);

/// A phase portrait: each curve's (coordinate, velocity) points joined in the order given, on
/// linear axes labelled `x_label` and `y_label`, under `title`; the first curve drawn widest, so
/// that curves lying on one another all show. Non-finite points are left out. Throws
/// energy_audit::Error when a curve has nothing to draw or gnuplot fails; `png` is left uncommitted.
void plot_phase_portrait(OutputFile& png, const std::string& title, const std::string& x_label,
                         const std::string& y_label, const std::vector<TimeSeries>& curves);

}  // namespace energy_audit::cli
