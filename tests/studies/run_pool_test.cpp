// The studies' independent runs on a pool of threads give what they give serially, run by run:
// advise and a sweep of the trolley crane (seed 002), each on one thread and on four, compared
// field by field (all but the wall times). The runs are those of EnergyAudit::studies on an entry
// made here from the example model, as a user would make one for a model of their own.

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <vector>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#include <energy_audit/studies/sweep.hpp>

#include <energy_audit/sundials/cvodes_methods.hpp>

#include "crane.hpp"

namespace es = energy_audit::studies;
using Methods = es::MethodFamilies<es::FixedStepFamily, energy_audit::sun::CvodesMethods>;

namespace {

const es::ModelEntry& crane() {
  static const es::ModelEntry entry = es::make_entry<energy_audit::examples::Crane, Methods>("crane", "trolley crane");
  return entry;
}

void check_same_probe(const es::Probe& serial, const es::Probe& threaded) {
  BOOST_TEST(threaded.resolution == serial.resolution);
  BOOST_TEST(threaded.delta_C == serial.delta_C);
  BOOST_TEST(threaded.meets == serial.meets);
  BOOST_TEST(threaded.rhs_evaluations == serial.rhs_evaluations);
  BOOST_TEST(threaded.end == serial.end);
  BOOST_TEST(threaded.finished == serial.finished);
  BOOST_TEST(threaded.missed == serial.missed);
}

es::Advice advise_crane(int threads) {
  es::AdviceSettings settings;
  settings.target = 1e-6;
  settings.base.t_end = 1.0;
  const std::vector<es::Method> methods{Methods::find("euler"), Methods::find("rk4"), Methods::find("rkg"),
                                        Methods::find("cvode-bdf")};
  return es::advise(crane(), {}, methods, settings, es::RunPool(threads));
}

es::SweepResult sweep_crane(int threads) {
  es::SweepPlan plan;
  es::AssignmentList masses;
  masses.name = "m2";
  masses.values = {0.5, 1.0, 2.0};
  plan.parameters = {masses};
  plan.methods = {Methods::find("rk2"), Methods::find("rk4"), Methods::find("cvode-adams")};
  plan.steps = {1e-2, 2e-3};
  plan.rtols = {1e-5, 1e-8};
  plan.base.t_end = 1.0;
  return es::run_sweep(crane(), plan, es::plan_runs(crane(), plan), es::RunPool(threads));
}

}  // namespace

BOOST_AUTO_TEST_CASE(advise_on_threads_equals_the_serial_advice) {
  const es::Advice serial = advise_crane(1);
  const es::Advice threaded = advise_crane(4);
  BOOST_TEST(serial.workers.threads == 1);
  BOOST_TEST(threaded.workers.threads == 4);
  BOOST_TEST(!serial.interrupted);
  BOOST_TEST(!threaded.interrupted);
  BOOST_REQUIRE(serial.recommended.has_value());
  BOOST_TEST((threaded.recommended == serial.recommended));
  BOOST_REQUIRE_EQUAL(serial.methods.size(), 4u);
  BOOST_REQUIRE_EQUAL(threaded.methods.size(), serial.methods.size());
  for (std::size_t i = 0; i < serial.methods.size(); ++i) {
    const es::MethodAdvice& s = serial.methods[i];
    const es::MethodAdvice& t = threaded.methods[i];
    BOOST_TEST_CONTEXT("method " << s.method) {
      BOOST_TEST(t.method == s.method);
      BOOST_TEST(t.answer.has_value() == s.answer.has_value());
      if (s.answer && t.answer) check_same_probe(*s.answer, *t.answer);
      BOOST_TEST(t.note == s.note);
      BOOST_TEST(!s.probes.empty());
      BOOST_REQUIRE_EQUAL(t.probes.size(), s.probes.size());
      for (std::size_t p = 0; p < s.probes.size(); ++p) check_same_probe(s.probes[p], t.probes[p]);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_sweep_on_threads_equals_the_serial_sweep) {
  const es::SweepResult serial = sweep_crane(1);
  const es::SweepResult threaded = sweep_crane(4);
  BOOST_TEST(threaded.workers.threads == 4);
  // 3 masses × (2 fixed-step methods × 2 steps + 1 adaptive method × 2 rtols)
  BOOST_REQUIRE_EQUAL(serial.runs.size(), 18u);
  BOOST_REQUIRE_EQUAL(threaded.runs.size(), serial.runs.size());
  for (std::size_t i = 0; i < serial.runs.size(); ++i) {
    const es::SweepRun& s = serial.runs[i];
    const es::SweepRun& t = threaded.runs[i];
    BOOST_TEST_CONTEXT("run " << i << ": " << s.method << " at " << s.resolution) {
      BOOST_TEST(!s.verdict.empty());
      BOOST_TEST(t.method == s.method);
      BOOST_TEST(t.resolution == s.resolution);
      BOOST_TEST(t.parameters.at(0).value == s.parameters.at(0).value);
      BOOST_TEST(t.delta_C == s.delta_C);
      BOOST_TEST(t.verdict == s.verdict);
      BOOST_TEST(t.steps == s.steps);
      BOOST_TEST(t.rhs_evaluations == s.rhs_evaluations);
    }
  }
}
