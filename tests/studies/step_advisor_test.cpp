// The advisor (step_advisor.hpp) against the library, not the command line, on a mass on a linear
// spring (ω = 1 rad/s over [0, 1] s, study_models.hpp), whose δ_C at any step is a closed form:
// for each method its answer is a run that meets the target, a run at twice the answer misses it
// (checked by run_model and by the closed form, both outside the advisor), the answer lies near
// the step where the closed form's leading term reaches the target (rk4: T ω⁶ h⁵ / 72, rk2:
// T ω⁴ h³ / 4), it is printed as it was run (two significant digits), and the recommended method
// is the one whose answer took the fewest right-hand-side evaluations (rk4, at a step 17 times
// larger than rk2's).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/step_advisor.hpp>

#include "study_models.hpp"

namespace es = energy_audit::studies;
namespace st = energy_audit::study_tests;

namespace {

constexpr double target = 1e-8;  ///< δ_C

const es::Method& method(const std::string& name) { return es::find_method(es::fixed_step_methods(), name); }

/// δ_C of one run by `name` at `step`, outside the advisor.
double delta_C_of_run(const std::string& name, double step) {
  es::RunSettings settings;
  settings.method = method(name);
  settings.step = step;
  settings.audit.store_every = 0;
  const es::RunOutcome run = es::run_model(st::oscillator_entry(), {}, settings);
  BOOST_TEST_REQUIRE(run.finished(), run.stop_description());
  return run.audit->relative_drift();
}

/// The advice on rk2 and rk4, searched once for the test cases.
const es::Advice& advice() {
  static const es::Advice a = [] {
    es::AdviceSettings settings;
    settings.target = target;
    return es::advise(st::oscillator_entry(), {}, {method("rk2"), method("rk4")}, settings, es::RunPool(1));
  }();
  return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(each_answer_meets_the_target_and_twice_it_misses) {
  const es::Advice& a = advice();
  BOOST_TEST(!a.interrupted);
  BOOST_REQUIRE_EQUAL(a.methods.size(), 2u);
  for (const es::MethodAdvice& m : a.methods) {
    BOOST_TEST_CONTEXT(m.method) {
      const int order = m.method == "rk4" ? 4 : 2;
      BOOST_TEST(!m.adaptive);
      BOOST_TEST(!m.not_monotone, m.note);
      BOOST_TEST(!m.round_off_floor);
      BOOST_TEST(!m.model_error);
      BOOST_REQUIRE(m.answer);
      BOOST_REQUIRE(m.next);
      const double h = m.answer->resolution;
      BOOST_TEST_MESSAGE(m.method << ": h = " << h << " (delta_C " << m.answer->delta_C << "), next "
                                  << m.next->resolution << " (delta_C " << m.next->delta_C << "), "
                                  << m.probes.size() << " probes");
      BOOST_TEST(m.answer->meets);
      BOOST_TEST(m.answer->finished);
      BOOST_TEST(m.answer->missed == "");
      // The answer's δ_C is that of a run of its own, and the closed form's.
      const double at_answer = delta_C_of_run(m.method, h);
      BOOST_TEST(m.answer->delta_C == at_answer);
      BOOST_TEST(at_answer <= target);
      BOOST_TEST(at_answer == st::oscillator_delta_C(order, 1.0, h, 1.0), boost::test_tools::tolerance(1e-4));
      // Twice the answer misses, by both paths.
      BOOST_TEST(delta_C_of_run(m.method, 2 * h) > target);
      BOOST_TEST(st::oscillator_delta_C(order, 1.0, 2 * h, 1.0) > target);
      // The bracket's other end: a larger step that missed, within 5 % of the unrounded answer,
      // which two digits rounded down lowered by less than 10 %.
      BOOST_TEST(!m.next->meets);
      BOOST_TEST(m.next->delta_C > target);
      BOOST_TEST(m.next->resolution > h);
      BOOST_TEST(m.next->resolution <= 1.05 * 1.1 * h);
      // Printed as run: two significant digits.
      BOOST_TEST(es::two_significant_digits_down(h) == h);
      // Near the step where the leading term T ω^6 h^5 / 72 (rk4) or T ω^4 h^3 / 4 (rk2) is the
      // target: 0.0591 and 0.00342 s. The rounding takes the answer down by at most 10 %, the
      // bracket by 5 %; a shortened last step may let a step slightly larger meet it.
      const double leading = order == 4 ? std::pow(72 * target, 1.0 / 5) : std::pow(4 * target, 1.0 / 3);
      BOOST_TEST(h >= 0.85 * leading);
      BOOST_TEST(h <= 1.03 * leading);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_recommended_method_took_the_fewest_evaluations) {
  const es::Advice& a = advice();
  BOOST_REQUIRE_EQUAL(a.methods.size(), 2u);
  BOOST_REQUIRE(a.methods[0].answer);
  BOOST_REQUIRE(a.methods[1].answer);
  BOOST_TEST(a.methods[0].method == "rk2");
  BOOST_TEST(a.methods[1].method == "rk4");
  // rk4 at h = 0.058 takes 18 steps of 4 evaluations; rk2 at h = 0.0033 takes 304 of 2.
  BOOST_TEST(a.methods[1].answer->rhs_evaluations < a.methods[0].answer->rhs_evaluations);
  BOOST_REQUIRE(a.recommended);
  BOOST_TEST(*a.recommended == 1u);
}

BOOST_AUTO_TEST_CASE(every_probe_is_a_run_of_its_step) {
  // The search's probes are runs: each δ_C and its verdict on the target are a run's.
  const es::Advice& a = advice();
  for (const es::MethodAdvice& m : a.methods) {
    BOOST_TEST(m.probes.size() >= 4u);  // grown or shrunk, bracketed, rounded
    for (const es::Probe& p : m.probes) {
      BOOST_TEST_CONTEXT(m.method << " at " << p.resolution) {
        const double delta_C = delta_C_of_run(m.method, p.resolution);
        BOOST_TEST(p.delta_C == delta_C);
        BOOST_TEST(p.meets == (delta_C <= target));
      }
    }
  }
}
