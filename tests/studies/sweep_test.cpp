// A sweep (sweep.hpp) against the library, not the command line, on a mass on a linear spring
// (study_models.hpp): its runs are the Cartesian product of its lists, each combination once;
// each run's δ_C is that of run_model given the same combination (another path to the same
// number, to the bit) and the closed form of the oscillator, which depends on the parameters only
// through ω = √(k/m) and not at all on the start; a name the model lacks is refused before any run.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <energy_audit/studies/assignment.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/studies/sweep.hpp>

#include "study_models.hpp"

namespace es = energy_audit::studies;
namespace st = energy_audit::study_tests;

namespace {

es::AssignmentList list(const std::string& name, std::vector<double> values) {
  es::AssignmentList l;
  l.name = name;
  l.values = std::move(values);
  return l;
}

const es::Method& method(const std::string& name) { return es::find_method(es::fixed_step_methods(), name); }

/// m ∈ {1, 4} kg, k ∈ {1, 4} N/m (ω = 1, 0.5, 2, 1 rad/s), q0 ∈ {1, 0.5} m, euler, rk2 and rk4,
/// h ∈ {0.1, 0.05} s: 2 · 2 · 2 · 3 · 2 = 48 runs of 10 or 20 steps.
es::SweepPlan plan() {
  es::SweepPlan plan;
  plan.parameters = {list("m", {1.0, 4.0}), list("k", {1.0, 4.0})};
  plan.initial_values = {list("q", {1.0, 0.5})};
  plan.methods = {method("euler"), method("rk2"), method("rk4")};
  plan.steps = {0.1, 0.05};
  return plan;
}

/// The value of `name` among a run's assignments.
double value_of(const std::vector<es::Assignment>& assignments, const std::string& name) {
  for (const es::Assignment& a : assignments) {
    if (a.name == name) return a.value;
  }
  BOOST_FAIL("no assignment of " << name);
  return 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_runs_are_the_product_of_the_lists_each_combination_once) {
  const es::SweepPlan p = plan();
  const es::SweepResult result =
      es::run_sweep(st::oscillator_entry(), p, es::plan_runs(st::oscillator_entry(), p), es::RunPool(1));
  BOOST_TEST(!result.interrupted);
  BOOST_TEST(result.workers.threads == 1);
  BOOST_REQUIRE_EQUAL(result.runs.size(), 2u * 2u * 2u * 3u * 2u);
  std::set<std::tuple<double, double, double, std::string, double>> seen;
  for (const es::SweepRun& run : result.runs) {
    BOOST_TEST(run.parameters.size() == 2u);
    BOOST_TEST(run.initial_values.size() == 1u);
    BOOST_TEST(!run.adaptive);
    seen.emplace(value_of(run.parameters, "m"), value_of(run.parameters, "k"),
                 value_of(run.initial_values, "q"), run.method, run.resolution);
  }
  std::set<std::tuple<double, double, double, std::string, double>> expected;
  for (double m : {1.0, 4.0}) {
    for (double k : {1.0, 4.0}) {
      for (double q : {1.0, 0.5}) {
        for (const char* name : {"euler", "rk2", "rk4"}) {
          for (double h : {0.1, 0.05}) expected.emplace(m, k, q, name, h);
        }
      }
    }
  }
  BOOST_TEST(seen.size() == result.runs.size());  // no combination twice
  BOOST_TEST((seen == expected));
}

BOOST_AUTO_TEST_CASE(each_run_is_the_run_of_its_combination_and_the_closed_form) {
  const es::SweepPlan p = plan();
  const es::SweepResult result =
      es::run_sweep(st::oscillator_entry(), p, es::plan_runs(st::oscillator_entry(), p), es::RunPool(1));
  BOOST_REQUIRE_EQUAL(result.runs.size(), 48u);
  for (const es::SweepRun& run : result.runs) {
    const double m = value_of(run.parameters, "m"), k = value_of(run.parameters, "k");
    const double q = value_of(run.initial_values, "q");
    BOOST_TEST_CONTEXT(run.method << " at h = " << run.resolution << ", m = " << m << ", k = " << k
                                  << ", q = " << q) {
      // The same combination run alone.
      es::RunSettings settings;
      settings.method = method(run.method);
      settings.step = run.resolution;
      settings.audit.store_every = 0;
      const es::RunOutcome alone = es::run_model(st::oscillator_entry(), {{{"m", m}, {"k", k}}, {{"q", q}}}, settings);
      BOOST_REQUIRE(alone.audit.has_value());
      BOOST_TEST(run.delta_C == alone.audit->relative_drift());
      BOOST_TEST(run.verdict == alone.verdict());
      BOOST_TEST(run.steps == alone.steps);
      BOOST_TEST(run.rhs_evaluations == alone.rhs_evaluations);
      BOOST_TEST(run.steps == static_cast<std::size_t>(std::lround(1.0 / run.resolution)));  // over [0, 1] s
      // The closed form of ω = √(k/m): relative 1e-6, or rounding's ε per step where δ_C is tiny
      // (rk4 at θ = 0.025: δ_C ≈ 7e-11).
      const int order = run.method == "euler" ? 1 : run.method == "rk2" ? 2 : 4;
      const double expected = st::oscillator_delta_C(order, std::sqrt(k / m), run.resolution, 1.0);
      const double rounding = 16 * std::numeric_limits<double>::epsilon() * double(run.steps);
      BOOST_TEST(std::abs(run.delta_C - expected) <= 1e-6 * expected + rounding,
                 "delta_C " << run.delta_C << ", closed form " << expected);
      // The verdict is δ_C against the default threshold 1e-3 (euler fails, rk2 and rk4 pass).
      BOOST_TEST(run.verdict == (expected <= 1e-3 ? "pass" : "fail"));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_name_the_model_lacks_is_refused_before_any_run) {
  es::SweepPlan p = plan();
  p.parameters.push_back(list("c", {0.1, 0.2}));  // the oscillator has no damper
  BOOST_CHECK_EXCEPTION(es::plan_runs(st::oscillator_entry(), p), es::SettingsError, [](const es::SettingsError& e) {
    return std::string(e.what()).find("has no 'c'") != std::string::npos;
  });
}
