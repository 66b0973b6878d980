// compare (compare.hpp) against the library, not the command line: one row per method and step in
// the plan's order, each row's δ_C that of a run of its own (run_model: another path to the same
// number), and the observed orders against references outside the code under test — on a
// pendulum swinging to 2.5 rad, far from linear, δ_C of a method of order p falls by ≈ 2^p per
// halving of h (rk2: 2, rk4: 4);
// on a linear oscillator δ_C is a closed form (study_models.hpp), by which rk3 keeps its order 3
// while rk4 gains one (|R(iθ)|² − 1 = −θ⁶/72 + θ⁸/576: order 5).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <energy_audit/studies/compare.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

#include "study_models.hpp"

namespace es = energy_audit::studies;
namespace st = energy_audit::study_tests;

namespace {

/// The plan of `methods`, each over `steps`, with the settings' defaults otherwise.
es::ComparisonPlan plan_of(const std::vector<std::string>& methods, const std::vector<double>& steps) {
  es::ComparisonPlan plan;
  for (const std::string& name : methods)
    plan.methods.push_back(es::find_method(es::fixed_step_methods(), name));
  plan.steps = steps;
  return plan;
}

/// δ_C of one run of `model` by `method` at `step`, outside compare.
double delta_C_of_run(const es::ModelEntry& model, const std::string& method, double step) {
  es::RunSettings settings;
  settings.method = es::find_method(es::fixed_step_methods(), method);
  settings.step = step;
  settings.audit.store_every = 0;
  const es::RunOutcome run = es::run_model(model, {}, settings);
  BOOST_TEST_REQUIRE(run.finished(), run.stop_description());
  return run.audit->relative_drift();
}

}  // namespace

BOOST_AUTO_TEST_CASE(rows_follow_the_plan_and_each_equals_a_run_of_its_own) {
  const std::vector<double> steps{0.01, 0.005, 0.0025};
  const es::Comparison comparison =
      es::compare(st::pendulum_entry(), {}, plan_of({"rk2", "rk4"}, steps), es::RunPool(1));
  BOOST_TEST(comparison.planned == 6u);
  BOOST_TEST(comparison.workers.threads == 1);
  BOOST_REQUIRE_EQUAL(comparison.rows.size(), 6u);
  for (std::size_t i = 0; i < comparison.rows.size(); ++i) {
    const es::ComparisonRow& row = comparison.rows[i];
    const std::string method = i < 3 ? "rk2" : "rk4";
    BOOST_TEST_CONTEXT(row.method << " at h = " << row.step) {
      BOOST_TEST(row.method == method);
      BOOST_TEST(!row.adaptive);
      BOOST_TEST(row.step == steps[i % 3]);
      BOOST_TEST(row.resolution() == row.step);
      BOOST_TEST(row.finished);
      BOOST_TEST(row.verdict == "pass");  // δ_C far below the default threshold 1e-3
      BOOST_TEST(row.steps == static_cast<std::size_t>(std::lround(2.0 / row.step)));  // [0, 2] s
      BOOST_REQUIRE(row.delta_C.has_value());
      BOOST_TEST(*row.delta_C > 0);
      // The same settings run alone give the same number, to the bit: compare adds nothing to a run.
      BOOST_TEST(*row.delta_C == delta_C_of_run(st::pendulum_entry(), method, row.step));
    }
  }
}

BOOST_AUTO_TEST_CASE(delta_C_falls_by_two_to_the_order_per_halving_on_a_pendulum) {
  // From h = 0.01 the orders are within 0.11 of p (rk2: 1.97, 1.98; rk4: 4.11, 4.06); at 1 rad
  // the linear part still dominates there and both read about p + 1 (see the oscillator below).
  const es::Comparison comparison =
      es::compare(st::pendulum_entry(), {}, plan_of({"rk2", "rk4"}, {0.01, 0.005, 0.0025}), es::RunPool(1));
  BOOST_REQUIRE_EQUAL(comparison.rows.size(), 6u);
  for (std::size_t i = 0; i < comparison.rows.size(); ++i) {
    const es::ComparisonRow& row = comparison.rows[i];
    BOOST_TEST_CONTEXT(row.method << " at h = " << row.step) {
      if (i % 3 == 0) {  // a method's first run has no run before it
        BOOST_TEST(std::isnan(row.observed_order));
        continue;
      }
      const es::ComparisonRow& coarser = comparison.rows[i - 1];
      // The order read here from the two δ_C (h halved: log2 of their ratio) is the row's.
      const double order = std::log2(*coarser.delta_C / *row.delta_C);
      BOOST_TEST(row.observed_order == order, boost::test_tools::tolerance(1e-9));
      const double p = row.method == "rk4" ? 4.0 : 2.0;
      BOOST_TEST(row.observed_order == p, boost::test_tools::tolerance(0.15 / p));  // within ±0.15
    }
  }
}

BOOST_AUTO_TEST_CASE(delta_C_on_a_linear_oscillator_is_the_closed_form_and_rk4_gains_an_order) {
  // ω = 1, h = 0.1 and 0.05 over [0, 1]: θ = 0.1, 0.05; δ_C of rk4 from ≈ 1e-8, far above rounding.
  const es::Comparison comparison =
      es::compare(st::oscillator_entry(), {}, plan_of({"euler", "rk3", "rk4"}, {0.1, 0.05}), es::RunPool(1));
  BOOST_REQUIRE_EQUAL(comparison.rows.size(), 6u);
  const std::vector<int> orders{1, 3, 4};
  // The energy's orders: p for odd p; p + 1 for rk4, whose leading term of |R(iθ)|² − 1 is the
  // real part of i^5 θ^5 / 120 ... = 0: the first that remains is −θ⁶/72.
  const std::vector<double> energy_orders{1, 3, 5};
  for (std::size_t i = 0; i < comparison.rows.size(); ++i) {
    const es::ComparisonRow& row = comparison.rows[i];
    BOOST_TEST_CONTEXT(row.method << " at h = " << row.step) {
      BOOST_REQUIRE(row.delta_C.has_value());
      const int p = orders[i / 2];
      BOOST_TEST(*row.delta_C == st::oscillator_delta_C(p, 1.0, row.step, 1.0),
                 boost::test_tools::tolerance(1e-6));
      if (i % 2 == 1) {
        // 2^q with a little of the next term: within 0.2 of the energy's order q.
        BOOST_TEST(row.observed_order == energy_orders[i / 2],
                   boost::test_tools::tolerance(0.2 / energy_orders[i / 2]));
      }
    }
  }
}
