#pragma once
/// \file
/// Plots of a comparison as PNG images, drawn by gnuplot (Debian package gnuplot-nox).
///
/// gnuplot runs without a shell (posix_spawnp), reads its script from a pipe and writes the
/// image to the OutputFile's descriptor: no file name ever reaches gnuplot's command language,
/// and titles (model and method names) go in single-quoted strings, where gnuplot substitutes
/// nothing. When gnuplot fails, the error carries the first line of its own message.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "output_file.hpp"

namespace energy_audit::cli {

/// One run of the work–precision diagram.
struct WorkPrecisionPoint {
  std::string method;
  double rhs_evaluations;
  double delta_C;
};

/// |C(t) − C(t0)| of one run (e.g. DriftEnvelope::points()), drawn in its method's panel under
/// `label` ("h=0.001", "rtol=1e-06").
struct DriftCurve {
  std::string method;
  std::string label;
  std::vector<std::pair<double, double>> points;  ///< (t, value) in time order
  /// Times marked on the curve with their labels ("first above threshold", "fastest growth"):
  /// a point where the curve is at that time, and the label beside it.
  std::vector<std::pair<double, std::string>> marks = {};
};

/// Throws energy_audit::Error("gnuplot not found: install the Debian package gnuplot-nox to
/// draw --plot") unless an executable gnuplot is on PATH; the command line calls it before any
/// run, so a missing gnuplot does not cost the runs.
void require_gnuplot(std::string_view option);

/// δ_C against right-hand-side evaluations, log–log, one line per method (in order of first
/// appearance, each through its points in the given order), and `threshold` as a horizontal
/// dashed line labelled "threshold 1e-3". Points that a log scale cannot show (≤ 0 or not
/// finite) are left out, and so is a threshold of 0. Throws energy_audit::Error when nothing is
/// left to draw or gnuplot fails; `png` is left uncommitted.
void plot_work_precision(OutputFile& png, const std::string& model, const std::vector<WorkPrecisionPoint>& points,
                         double threshold);

/// |C(t) − C(t0)| on a log scale: a grid of panels, one per method (in order of first
/// appearance), sharing their axes, each with its runs' labels in the key. A curve with no value
/// > 0 is named in its panel's key as "(nothing > 0)". A curve's marks are drawn as labelled
/// points on it (a mark at a time the curve does not reach, or where it is 0, is left out). Throws energy_audit::Error when no curve
/// has a value > 0 or gnuplot fails; `png` is left uncommitted.
void plot_control_drift(OutputFile& png, const std::string& model, const std::vector<DriftCurve>& curves);

/// One curve of a time-series panel: (t, value) in time order.
struct TimeSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
};

/// Curves against t on linear axes, under a title and a y label; each mark a vertical dashed
/// line at its time, labelled.
struct TimeSeriesPanel {
  std::string title;
  std::string y_label;
  std::vector<TimeSeries> series;
  std::vector<std::pair<double, std::string>> marks = {};
};

/// The panels stacked in one column under `title`, t [s] on each x axis; non-finite points are
/// left out. Throws energy_audit::Error when a panel has nothing to draw or gnuplot fails; `png`
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
/// their τ), a colour per verdict, and the linear limits as lines. Throws energy_audit::Error
/// when there is nothing to draw or gnuplot fails; `png` is left uncommitted.
void plot_verdict_map(OutputFile& png, const std::string& title, const std::vector<StabilityPanel>& panels);

}  // namespace energy_audit::cli
