#include <energy_audit/studies/drift_ladder.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace energy_audit::studies {
namespace {

std::string format(const char* pattern, auto... values) {
  char text[320];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

/// δ_C on a log scale: an exact 0 counts as the smallest positive double.
double log_drift(double delta_C) { return std::log(std::max(delta_C, std::numeric_limits<double>::min())); }

/// The slope of the least-squares line through (log r, log δ_C): positive while δ_C falls with r.
double least_squares_slope(const std::vector<DriftPoint>& levels) {
  double mean_x = 0, mean_y = 0;
  for (const DriftPoint& p : levels) {
    mean_x += std::log(p.resolution) / double(levels.size());
    mean_y += log_drift(p.delta_C) / double(levels.size());
  }
  double xy = 0, xx = 0;
  for (const DriftPoint& p : levels) {
    const double x = std::log(p.resolution) - mean_x;
    xy += x * (log_drift(p.delta_C) - mean_y);
    xx += x * x;
  }
  return xy / xx;
}

}  // namespace

const char* drift_kind_name(DriftKind kind) {
  switch (kind) {
    case DriftKind::StepError: return "step error";
    case DriftKind::ModelError: return "model error";
    case DriftKind::RoundOff: return "round-off";
    case DriftKind::Undecided: break;
  }
  return "undecided";
}

DriftClassification classify_drift_ladder(std::vector<DriftPoint> points, const DriftExpectation& expectation) {
  DriftClassification c;
  for (const DriftPoint& p : points) {
    if (p.finished && std::isfinite(p.delta_C) && p.resolution > 0) {
      c.levels.push_back(p);
    } else {
      ++c.unfinished;
    }
  }
  std::sort(c.levels.begin(), c.levels.end(),
            [](const DriftPoint& a, const DriftPoint& b) { return a.resolution > b.resolution; });
  const std::size_t n = c.levels.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    c.observed_orders.push_back((log_drift(c.levels[i].delta_C) - log_drift(c.levels[i + 1].delta_C)) /
                                std::log(c.levels[i].resolution / c.levels[i + 1].resolution));
  }
  const char* r = expectation.adaptive ? "rtol" : "h";
  const std::string left_out =
      c.unfinished ? format(" (%zu level(s) left out: their runs did not finish)", c.unfinished) : std::string();
  if (n < 3) {
    c.explanation = format("not enough finished levels to classify: %zu of the 3 needed", n) + left_out;
    return c;
  }

  // Round-off: δ_C fell to its smallest value at an inner level and rises at a finer one.
  const std::size_t m = static_cast<std::size_t>(
      std::min_element(c.levels.begin(), c.levels.end(),
                       [](const DriftPoint& a, const DriftPoint& b) { return a.delta_C < b.delta_C; }) -
      c.levels.begin());
  const double smallest = c.levels[m].delta_C;
  const auto finer_largest = std::max_element(c.levels.begin() + static_cast<std::ptrdiff_t>(m), c.levels.end(),
                                              [](const DriftPoint& a, const DriftPoint& b) {
                                                return a.delta_C < b.delta_C;
                                              });
  const bool fell = c.levels.front().delta_C >= 2 * expectation.rise_factor * smallest;
  if (m > 0 && m + 1 < n && fell && finer_largest->delta_C >= expectation.rise_factor * smallest) {
    c.kind = DriftKind::RoundOff;
    c.floor = smallest;
    c.floor_at = c.levels[m].resolution;
    c.explanation = format("round-off: delta_C falls to a floor of %.2g at %s = %.2g and rises below it", smallest, r,
                           c.levels[m].resolution) + left_out;
    return c;
  }

  // A plateau: the finest two observed orders are flat; it starts where the flat run begins.
  const auto flat = [&](double slope) { return std::abs(slope) <= expectation.plateau_slope; };
  if (flat(c.observed_orders[n - 2]) && flat(c.observed_orders[n - 3])) {
    std::size_t start = n - 3;
    while (start > 0 && flat(c.observed_orders[start - 1])) --start;
    const double value = c.levels.back().delta_C;
    const double fold = c.levels[start].resolution / c.levels.back().resolution;
    if (value > expectation.threshold) {
      c.kind = DriftKind::ModelError;
      c.plateau = value;
      c.explanation = format("model error: delta_C stays at %.2g while the %s shrinks %.0f-fold: the equations of motion "
                             "do work that T, V and the forces do not account for",
                             value, expectation.adaptive ? "rtol" : "step", fold) + left_out;
    } else {
      c.kind = DriftKind::RoundOff;
      c.floor = value;
      c.floor_at = c.levels[start].resolution;
      c.explanation = format("round-off: delta_C stops falling at a floor of %.2g (below the threshold %.2g) from %s = "
                             "%.2g: a finer %s does not lower it",
                             value, expectation.threshold, r, c.levels[start].resolution, r) + left_out;
    }
    return c;
  }

  // Step error. A fixed step: the finest two observed orders (the asymptotic range) reach the
  // expected order, less the margin. An rtol ladder: an adaptive method meets its tolerance only
  // roughly from level to level, so the least-squares slope of log δ_C on log rtol over every
  // level is what must reach it.
  const double finest = c.observed_orders[n - 2], next = c.observed_orders[n - 3];
  const double observed = expectation.adaptive ? least_squares_slope(c.levels) : 0.5 * (finest + next);
  const double expected = expectation.order;
  const double margin = expectation.margin_in_effect();
  if ((expectation.adaptive ? observed : std::min(finest, next)) >= expected - margin) {
    c.kind = DriftKind::StepError;
    c.order = observed;
    const DriftPoint& last = c.levels.back();
    const double estimate =
        last.resolution * std::exp((std::log(expectation.threshold) - log_drift(last.delta_C)) / observed);
    c.estimated_resolution = estimate;
    c.explanation = format("step error: delta_C falls at order %.1f (expected %g%s); about %s = %.2g meets %.2g",
                           observed, expected, expectation.adaptive ? ", tolerance proportionality" : "", r, estimate,
                           expectation.threshold) + left_out;
    return c;
  }
  c.order = observed;
  c.explanation = observed > 0
                      ? format("undecided: delta_C falls at order %.1f, not the expected %g (less %g): the method is "
                               "not in its asymptotic range, or a model error adds to the step error",
                               observed, expected, margin) + left_out
                      : format("undecided: delta_C does not fall as the %s shrinks (order %.1f) and has no plateau",
                               expectation.adaptive ? "rtol" : "step", observed) + left_out;
  return c;
}

}  // namespace energy_audit::studies
