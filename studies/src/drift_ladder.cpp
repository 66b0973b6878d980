#include <energy_audit/studies/drift_ladder.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "printf_text.hpp"

namespace energy_audit::studies {
namespace {

using detail::printf_text;

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
    case DriftKind::WithinThreshold: return "within threshold";
    case DriftKind::Undecided: break;
  }
  return "undecided";
}

double round_off_bound(const DriftPoint& point, const DriftExpectation& expectation) {
  const double steps = point.steps > 0                                    ? point.steps
                       : !expectation.adaptive && expectation.span > 0 ? expectation.span / point.resolution
                                                                       : unknown_step_count;
  return std::numeric_limits<double>::epsilon() * steps;
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
  const char* step = expectation.adaptive ? "rtol" : "step";
  const std::string left_out =
      c.unfinished ? printf_text(" (%zu level(s) left out: their runs did not finish)", c.unfinished) : std::string();
  if (n < 3) {
    c.explanation = printf_text("not enough finished levels to classify: %zu of the 3 needed", n) + left_out;
    return c;
  }
  const double threshold = expectation.threshold;
  const double bound = round_off_bound(c.levels.back(), expectation);
  c.round_off_bound = bound;
  c.all_meet_threshold =
      std::all_of(c.levels.begin(), c.levels.end(), [&](const DriftPoint& p) { return p.delta_C <= threshold; });
  const std::string meets =
      c.all_meet_threshold ? printf_text("; the coarsest %s already meets the threshold %.2g", step, threshold) : std::string();

  // 1. Round-off, a floor: δ_C is smallest at an inner level (it fell to it), rises at a finer
  // one, and that smallest value is within rounding's bound there.
  const std::size_t m = static_cast<std::size_t>(
      std::min_element(c.levels.begin(), c.levels.end(),
                       [](const DriftPoint& a, const DriftPoint& b) { return a.delta_C < b.delta_C; }) -
      c.levels.begin());
  const double smallest = c.levels[m].delta_C;
  const double finer_largest =
      std::max_element(c.levels.begin() + static_cast<std::ptrdiff_t>(m), c.levels.end(),
                       [](const DriftPoint& a, const DriftPoint& b) { return a.delta_C < b.delta_C; })
          ->delta_C;
  const bool rose = finer_largest >= expectation.rise_factor * smallest;
  if (m > 0 && m + 1 < n && rose && smallest <= round_off_bound(c.levels[m], expectation)) {
    c.kind = DriftKind::RoundOff;
    c.floor = smallest;
    c.floor_at = c.levels[m].resolution;
    c.explanation = printf_text("round-off: delta_C falls to a floor of %.2g at %s = %.2g and rises %.1f-fold below it, "
                           "within rounding's bound (eps N = %.2g): a finer %s only adds rounding",
                           smallest, r, c.levels[m].resolution, finer_largest / std::max(smallest, 1e-300),
                           round_off_bound(c.levels[m], expectation), step) + meets + left_out;
    return c;
  }

  // 2. A plateau: the finest two observed orders are flat; it starts where the flat run begins.
  // Far above rounding's bound no step removes it: a model error, whatever the threshold.
  const auto flat = [&](double slope) { return std::abs(slope) <= expectation.plateau_slope; };
  if (flat(c.observed_orders[n - 2]) && flat(c.observed_orders[n - 3])) {
    std::size_t start = n - 3;
    while (start > 0 && flat(c.observed_orders[start - 1])) --start;
    const double value = c.levels.back().delta_C;
    const double fold = c.levels[start].resolution / c.levels.back().resolution;
    if (value > bound) {
      c.kind = DriftKind::ModelError;
      c.plateau = value;
      c.plateau_from = c.levels[start].resolution;
      c.explanation =
          printf_text("model error: delta_C stays at %.2g while the %s shrinks %.0f-fold from %s = %.2g, far above "
                 "rounding's bound (eps N = %.2g): the equations of motion do work that T, V and the forces do not "
                 "account for",
                 value, step, fold, r, c.levels[start].resolution, bound) +
          (value <= threshold ? printf_text(" (below the threshold %.2g: the runs pass, the equations are still not the "
                                       "model's)",
                                       threshold)
                              : std::string()) +
          left_out;
    } else {
      c.kind = DriftKind::RoundOff;
      c.floor = value;
      c.floor_at = c.levels[start].resolution;
      c.explanation = printf_text("round-off: delta_C stays at a floor of %.2g from %s = %.2g, within rounding's bound "
                             "(eps N = %.2g): a finer %s does not lower it",
                             value, r, c.levels[start].resolution, bound, step) + meets + left_out;
    }
    return c;
  }

  // 3. Rounding at every level: each δ_C within its level's bound, and δ_C does not fall.
  const double slope = least_squares_slope(c.levels);
  const bool all_within_bound = std::all_of(c.levels.begin(), c.levels.end(), [&](const DriftPoint& p) {
    return p.delta_C <= round_off_bound(p, expectation);
  });
  if (all_within_bound && slope <= expectation.plateau_slope) {
    c.kind = DriftKind::RoundOff;
    c.floor = smallest;
    c.floor_at = c.levels[m].resolution;
    c.explanation = printf_text("round-off: delta_C is within rounding's bound (eps N, %.2g at the finest level) at every "
                           "level and does not fall as the %s shrinks (slope %.1f): a finer %s only adds rounding",
                           bound, step, slope, step) + meets + left_out;
    return c;
  }

  // 4. Step error. A fixed step: the finest two observed orders (the asymptotic range) reach the
  // expected order, less the margin. An rtol ladder: an adaptive method meets its tolerance only
  // roughly from level to level, so the least-squares slope of log δ_C on log rtol over every
  // level is what must reach it.
  const double finest = c.observed_orders[n - 2], next = c.observed_orders[n - 3];
  const double observed = expectation.adaptive ? slope : 0.5 * (finest + next);
  const double expected = expectation.order;
  const double margin = expectation.margin_in_effect();
  c.order = observed;
  const std::string expected_text = printf_text("expected %g%s", expected, expectation.adaptive ? ", tolerance proportionality" : "");
  if ((expectation.adaptive ? observed : std::min(finest, next)) >= expected - margin) {
    const DriftPoint& last = c.levels.back();
    const double estimate = last.resolution * std::exp((std::log(threshold) - log_drift(last.delta_C)) / observed);
    c.estimated_resolution = estimate;
    if (c.all_meet_threshold) {
      c.kind = DriftKind::WithinThreshold;
      c.explanation = printf_text("within threshold: the coarsest %s already meets the threshold %.2g; delta_C falls at "
                             "order %.1f (%s)",
                             step, threshold, observed, expected_text.c_str()) + left_out;
    } else {
      c.kind = DriftKind::StepError;
      c.explanation = printf_text("step error: delta_C falls at order %.1f (%s); about %s = %.2g meets %.2g", observed,
                             expected_text.c_str(), r, estimate, threshold) + left_out;
    }
    return c;
  }

  // 5. Not yet asymptotic, or not falling: what to run next. A model error is never said here:
  // it needs a plateau (or a failing equation check, which the ladder does not see).
  std::string orders;
  for (const double p : c.observed_orders) orders += (orders.empty() ? "" : ", ") + printf_text("%.2f", p);
  const double next_start = c.levels[1].resolution;
  const std::string what_to_run =
      printf_text("run finer %ss or more levels (from %s = %.2g with %zu levels)", step, r, next_start, n + 2);
  std::string shape;
  const double largest_order = *std::max_element(c.observed_orders.begin(), c.observed_orders.end());
  const bool orders_fall_level_by_level =
      std::is_sorted(c.observed_orders.begin(), c.observed_orders.end(), std::greater<>());
  if (!expectation.adaptive && largest_order >= expected - margin && !orders_fall_level_by_level) {
    shape = printf_text("the observed orders (%s) scatter around the method's order %g: the %ss are not yet in the "
                   "asymptotic range; %s",
                   orders.c_str(), expected, step, what_to_run.c_str());
  } else if (observed > 0) {
    shape = printf_text("delta_C falls at order %.1f, below the expected %g (less %g; observed orders %s): the %ss are not "
                   "yet in the asymptotic range; %s",
                   observed, expected, margin, orders.c_str(), step, what_to_run.c_str());
  } else {
    shape = printf_text("delta_C does not fall as the %s shrinks (order %.1f; observed orders %s) and has no plateau; %s",
                   step, observed, orders.c_str(), what_to_run.c_str());
  }
  if (c.all_meet_threshold) {
    c.kind = DriftKind::WithinThreshold;
    c.explanation = printf_text("within threshold: the coarsest %s already meets the threshold %.2g; ", step, threshold) +
                    shape + left_out;
  } else {
    c.explanation = "undecided: " + shape + left_out;
  }
  return c;
}

}  // namespace energy_audit::studies
