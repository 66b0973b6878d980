// The drift ladder's classifier (drift_ladder.hpp) on ladders from closed forms: δ_C = C h^p
// (step error of order p), C h^p + a constant above the threshold (model error, its plateau),
// C h^p + ε/h (round-off: a floor that rises), δ_C = C rtol (an adaptive method), ladders
// with too few finished runs; ladders built from given observed orders (coarse levels outside
// the asymptotic range, plateaus and floors that begin at a known level), and plateaus read
// against rounding's bound ε N rather than against the threshold.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <energy_audit/studies/drift_ladder.hpp>

namespace es = energy_audit::studies;

namespace {

/// `levels` levels from `start`, each `factor` times finer, δ_C = drift(r).
std::vector<es::DriftPoint> ladder(double start, double factor, int levels, const std::function<double(double)>& drift) {
  std::vector<es::DriftPoint> points;
  for (int i = 0; i < levels; ++i) {
    const double r = start / std::pow(factor, i);
    points.push_back({r, drift(r)});
  }
  return points;
}

/// The kind's name, which the test's messages print.
std::string kind(const es::DriftClassification& c) { return es::drift_kind_name(c.kind); }

/// Halved steps from `start`, δ_C from `first` falling by 2^p_i between level i and i + 1: the
/// ladder whose observed orders are `orders`.
std::vector<es::DriftPoint> ladder_with_orders(double start, double first, const std::vector<double>& orders) {
  std::vector<es::DriftPoint> points{{start, first}};
  for (const double p : orders) points.push_back({points.back().resolution / 2, points.back().delta_C / std::pow(2, p)});
  return points;
}

bool says(const es::DriftClassification& c, const std::string& text) { return c.explanation.find(text) != std::string::npos; }

es::DriftExpectation fixed(double order, double threshold = 1e-3) {
  es::DriftExpectation e;
  e.order = order;
  e.threshold = threshold;
  return e;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_drift_that_falls_at_the_order_is_a_step_error_and_its_step_is_extrapolated) {
  // δ_C = 50 h^4 from h = 0.1: 5e-3 at 0.1, so h^4 = 1e-3 / 50 meets 1e-3.
  const auto c = es::classify_drift_ladder(ladder(0.1, 2, 5, [](double h) { return 50 * std::pow(h, 4); }), fixed(4));
  BOOST_TEST(kind(c) == "step error");
  BOOST_REQUIRE(c.order);
  BOOST_TEST(*c.order == 4.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(c.observed_orders.size() == 4u);
  for (double p : c.observed_orders) BOOST_TEST(p == 4.0, boost::test_tools::tolerance(1e-9));
  BOOST_REQUIRE(c.estimated_resolution);
  BOOST_TEST(*c.estimated_resolution == std::pow(1e-3 / 50, 0.25), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(!c.plateau);
  BOOST_TEST(!c.floor);
  BOOST_TEST(c.explanation.find("order 4.0 (expected 4)") != std::string::npos, c.explanation);
}

BOOST_AUTO_TEST_CASE(a_drift_that_falls_at_half_the_order_is_not_a_step_error_of_that_order) {
  const auto c = es::classify_drift_ladder(ladder(0.1, 2, 5, [](double h) { return 50 * h * h; }), fixed(4));
  BOOST_TEST(kind(c) == "undecided");
  BOOST_TEST(c.explanation.find("order 2.0") != std::string::npos, c.explanation);
  // The same ladder is a step error for a method of order 2, within the margin of 1.
  BOOST_TEST(kind(es::classify_drift_ladder(ladder(0.1, 2, 5, [](double h) { return 50 * h * h; }), fixed(2.8))) ==
             "step error");
}

BOOST_AUTO_TEST_CASE(a_drift_that_stops_falling_above_the_threshold_is_a_model_error_with_its_plateau) {
  // δ_C = 3.9e-2 + h^4: flat within 1e-4 relative over 0.01 .. 0.000625.
  const auto c = es::classify_drift_ladder(ladder(0.01, 2, 5, [](double h) { return 3.9e-2 + std::pow(h, 4); }),
                                           fixed(4));
  BOOST_TEST(kind(c) == "model error");
  BOOST_REQUIRE(c.plateau);
  BOOST_TEST(*c.plateau == 3.9e-2, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(c.explanation.find("stays at 0.039 while the step shrinks 16-fold") != std::string::npos, c.explanation);
  // A step error at the coarse levels that flattens into the plateau at the fine ones.
  const auto mixed = es::classify_drift_ladder(
      ladder(0.8, 2, 6, [](double h) { return 1e-2 + 10 * std::pow(h, 4); }), fixed(4));
  BOOST_TEST(kind(mixed) == "model error");
}

BOOST_AUTO_TEST_CASE(a_drift_that_falls_to_a_floor_and_rises_below_it_is_round_off) {
  // δ_C = h^4 + 1e-16 / h: smallest near h = (1e-16 / 4)^(1/5) ≈ 8.7e-4.
  const auto c = es::classify_drift_ladder(
      ladder(1e-2, 4, 6, [](double h) { return std::pow(h, 4) + 1e-16 / h; }), fixed(4, 1e-16));
  BOOST_TEST(kind(c) == "round-off");
  BOOST_REQUIRE(c.floor);
  BOOST_REQUIRE(c.floor_at);
  BOOST_TEST(*c.floor_at == 1e-2 / 16, boost::test_tools::tolerance(1e-12));  // the level 6.25e-4
  BOOST_TEST(*c.floor == std::pow(6.25e-4, 4) + 1e-16 / 6.25e-4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.observed_orders.back() < 0);  // it rises
  // A floor below the threshold that does not (yet) rise is round-off too, not a model error.
  const auto flat = es::classify_drift_ladder(ladder(1e-3, 2, 5, [](double) { return 2e-13; }), fixed(4));
  BOOST_TEST(kind(flat) == "round-off");
  BOOST_TEST(*flat.floor == 2e-13);
}

BOOST_AUTO_TEST_CASE(an_rtol_ladder_is_read_for_tolerance_proportionality) {
  es::DriftExpectation adaptive;
  adaptive.adaptive = true;
  adaptive.order = 1;
  adaptive.threshold = 1e-6;
  // δ_C = 3 rtol^0.8: within 0.5 of slope 1.
  const auto c = es::classify_drift_ladder(ladder(1e-4, 10, 4, [](double r) { return 3 * std::pow(r, 0.8); }), adaptive);
  BOOST_TEST(kind(c) == "step error");
  BOOST_TEST(*c.order == 0.8, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(c.explanation.find("rtol") != std::string::npos, c.explanation);
  // The points may come in any order; they are read coarsest first.
  auto reversed = ladder(1e-4, 10, 4, [](double r) { return 3 * std::pow(r, 0.8); });
  std::reverse(reversed.begin(), reversed.end());
  BOOST_TEST(kind(es::classify_drift_ladder(reversed, adaptive)) == "step error");
  // An adaptive method meets its tolerance roughly: the levels' orders scatter (0.86, 1.18, 0.12,
  // 0.99: CVODES BDF on the crane), the least-squares slope (0.758) is what is read.
  const std::vector<es::DriftPoint> scattered{
      {1e-4, 3.1e-4}, {1e-5, 4.31e-5}, {1e-6, 2.87e-6}, {1e-7, 2.17e-6}, {1e-8, 2.25e-7}};
  const auto bdf = es::classify_drift_ladder(scattered, adaptive);
  BOOST_TEST(kind(bdf) == "step error");
  BOOST_TEST(*bdf.order == 0.75764, boost::test_tools::tolerance(1e-4));
  // Slope 0.4: not proportional, not flat.
  BOOST_TEST(kind(es::classify_drift_ladder(ladder(1e-4, 10, 4, [](double r) { return std::pow(r, 0.4); }), adaptive)) ==
             "undecided");
}

BOOST_AUTO_TEST_CASE(runs_that_did_not_finish_are_no_evidence) {
  auto points = ladder(0.1, 2, 5, [](double h) { return 50 * std::pow(h, 4); });
  points[0].finished = false;
  points[1].finished = false;
  points[2].delta_C = INFINITY;
  const auto c = es::classify_drift_ladder(points, fixed(4));
  BOOST_TEST(kind(c) == "undecided");
  BOOST_TEST(c.unfinished == 3u);
  BOOST_TEST(c.levels.size() == 2u);
  BOOST_TEST(c.explanation.find("not enough finished levels") != std::string::npos, c.explanation);
}

BOOST_AUTO_TEST_CASE(the_order_is_read_from_the_finest_two_intervals_when_coarse_levels_are_not_asymptotic) {
  // Orders 7.0, 5.5, 4.3, 3.9 (coarsest first): the order reported is the mean of the finest two.
  const auto c = es::classify_drift_ladder(ladder_with_orders(0.1, 1.0, {7.0, 5.5, 4.3, 3.9}), fixed(4));
  BOOST_TEST(kind(c) == "step error", c.explanation);
  BOOST_REQUIRE(c.order);
  BOOST_TEST(*c.order == 4.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(says(c, "falls at order 4.1 (expected 4)"), c.explanation);
  // The extrapolation starts from the finest level: δ_C ∝ h^4.05 from there meets the threshold.
  const es::DriftPoint& last = c.levels.back();
  BOOST_TEST(*c.estimated_resolution == last.resolution * std::pow(1e-3 / last.delta_C, 1 / 4.1),
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_plateau_begins_where_its_flat_orders_begin_and_says_how_far_the_step_shrank) {
  // Orders 4, 4, 0.1, 0.05, 0.02: flat from the third level (h = 0.025) to the sixth (0.003125).
  const auto points = ladder_with_orders(0.1, 2.0, {4, 4, 0.1, 0.05, 0.02});
  const auto c = es::classify_drift_ladder(points, fixed(4));
  BOOST_TEST(kind(c) == "model error", c.explanation);
  BOOST_REQUIRE(c.plateau_from);
  BOOST_TEST(*c.plateau_from == 0.025, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*c.plateau == points.back().delta_C);
  BOOST_TEST(says(c, "shrinks 8-fold from h = 0.025"), c.explanation);
  // The same shape below the bound of rounding is a floor that begins at the same level.
  const auto low = es::classify_drift_ladder(ladder_with_orders(0.1, 2e-12, {4, 4, 0.1, 0.05, 0.02}), fixed(4));
  BOOST_TEST(kind(low) == "round-off", low.explanation);
  BOOST_REQUIRE(low.floor_at);
  BOOST_TEST(*low.floor_at == 0.025, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_plateau_far_above_rounding_is_a_model_error_whatever_the_threshold) {
  // crane-wrong's plateau, 0.039, under a threshold of 0.1: not round-off.
  const auto wrong = es::classify_drift_ladder(ladder(1e-3, 2, 5, [](double h) { return 3.9e-2 + h * h * h * h; }),
                                               fixed(4, 0.1));
  BOOST_TEST(kind(wrong) == "model error", wrong.explanation);
  BOOST_TEST(says(wrong, "below the threshold 0.1"), wrong.explanation);
  // A plateau at 1e-8 over t1 − t0 = 5: ε N = 2.2e-16 · 8e4 = 1.8e-11 at the finest level, far below it.
  es::DriftExpectation over_5_s = fixed(4);
  over_5_s.span = 5;
  const auto small = es::classify_drift_ladder(ladder(1e-3, 2, 5, [](double) { return 1e-8; }), over_5_s);
  BOOST_TEST(kind(small) == "model error", small.explanation);
  BOOST_REQUIRE(small.round_off_bound);
  BOOST_TEST(*small.round_off_bound == std::numeric_limits<double>::epsilon() * 5 / 6.25e-5,
             boost::test_tools::tolerance(1e-9));
  // Steps given per level take the place of the span: 1e9 steps bound it at 2.2e-7, above 1e-8.
  auto counted = ladder(1e-3, 2, 5, [](double) { return 1e-8; });
  for (es::DriftPoint& p : counted) p.steps = 1e9;
  BOOST_TEST(kind(es::classify_drift_ladder(counted, over_5_s)) == "round-off");
  // A floor that rises, far above rounding, is not round-off either.
  const std::vector<es::DriftPoint> rises{{1e-3, 1e-3}, {5e-4, 1e-5}, {2.5e-4, 3e-5}, {1.25e-4, 6e-5}};
  BOOST_TEST(kind(es::classify_drift_ladder(rises, over_5_s)) != "round-off");
}

BOOST_AUTO_TEST_CASE(a_ladder_within_the_threshold_at_every_level_says_so) {
  // δ_C = 1e-3 h^4 from h = 0.1: 1e-7 at the coarsest level, under 1e-3 everywhere.
  const auto c = es::classify_drift_ladder(ladder(0.1, 2, 5, [](double h) { return 1e-3 * std::pow(h, 4); }), fixed(4));
  BOOST_TEST(kind(c) == "within threshold", c.explanation);
  BOOST_TEST(c.all_meet_threshold);
  BOOST_TEST(says(c, "the coarsest step already meets the threshold 0.001"), c.explanation);
  BOOST_TEST(!says(c, "step error"), c.explanation);
  BOOST_REQUIRE(c.order);
  BOOST_TEST(*c.order == 4.0, boost::test_tools::tolerance(1e-9));
  // δ_C rising from 6e-14 to 6e-13 as h halves from 1e-5 over 5 s (crane, rk4): rounding at every level.
  es::DriftExpectation over_5_s = fixed(4);
  over_5_s.span = 5;
  const auto rounding =
      es::classify_drift_ladder(ladder(1e-5, 2, 5, [](double h) { return 6e-19 / h; }), over_5_s);
  BOOST_TEST(kind(rounding) == "round-off", rounding.explanation);
  BOOST_TEST(says(rounding, "the coarsest step already meets the threshold 0.001"), rounding.explanation);
}

BOOST_AUTO_TEST_CASE(orders_that_scatter_around_the_method_s_order_are_not_yet_asymptotic_and_never_a_model_error) {
  // crane3d with rkg from h = 0.08: δ_C 1.02e-6, 7.31e-8, 2.08e-8, 1.03e-9 under a threshold of 1e-9.
  const std::vector<es::DriftPoint> points{{0.08, 1.02e-6}, {0.04, 7.31e-8}, {0.02, 2.08e-8}, {0.01, 1.03e-9}};
  const auto c = es::classify_drift_ladder(points, fixed(4, 1e-10));
  BOOST_TEST(kind(c) == "undecided", c.explanation);
  BOOST_TEST(says(c, "observed orders (3.80, 1.81, 4.34) scatter around the method's order 4"), c.explanation);
  BOOST_TEST(says(c, "run finer steps or more levels (from h = 0.04 with 6 levels)"), c.explanation);
  BOOST_TEST(!says(c, "model error"), c.explanation);
  // Orders that fall level by level (a plateau forming) are not called scatter.
  const auto forming = es::classify_drift_ladder(ladder_with_orders(0.1, 1.0, {4.5, 3.5, 1.5, 0.9}), fixed(4));
  BOOST_TEST(kind(forming) == "undecided", forming.explanation);
  BOOST_TEST(!says(forming, "scatter"), forming.explanation);
  BOOST_TEST(!says(forming, "model error"), forming.explanation);
}
