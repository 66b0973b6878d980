// The trolley crane of seed 002: hand (eq. 19) and derived accelerations agree; δ_C of rk4
// falls by about 16 per halving of h; the wrong twin fails where the crane passes.
#include <cmath>
#include <random>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Crane;
using energy_audit::examples::CraneWrong;
using Coordinates = Crane::Coordinates<double>;

namespace {

template <class Model>
struct Run {
  ea::Audit audit;
  ea::Vector final_state;
};

template <class Model>
Run<Model> run(ea::FixedStepMethod method, double h,
               ea::AccelerationSource source = ea::AccelerationSource::Hand) {
  const Model model;
  const ea::LagrangeSystem<Model> system(model, source);
  const auto start = model.initial_state();
  Run<Model> result{ea::Audit{}, system.initial_state(start.q, start.v)};
  ea::FixedStepper stepper(method);
  const auto outcome = ea::integrate_const(stepper, system, result.final_state, Model::interval.t0,
                                           Model::interval.t_end, h, ea::watch(system, result.audit));
  BOOST_REQUIRE(!outcome.diverged());
  return result;
}

}  // namespace

BOOST_AUTO_TEST_CASE(hand_and_derived_accelerations_agree_to_round_off) {
  const Crane model;
  std::mt19937 random(2002);
  std::uniform_real_distribution<double> position(-1.0, 1.0), angle(-M_PI, M_PI), speed(-5.0, 5.0);
  for (int i = 0; i < 200; ++i) {
    const Coordinates q(position(random), angle(random)), v(speed(random), speed(random));
    const Coordinates hand = model.accelerations(q, v, 0.0);
    const Coordinates derived = ea::derived_accelerations(model, q, v, 0.0);
    const double scale = hand.cwiseAbs().maxCoeff() + model.g / model.l;
    BOOST_TEST((hand - derived).cwiseAbs().maxCoeff() <= 1e-13 * scale);
  }
}

BOOST_AUTO_TEST_CASE(hand_and_derived_runs_give_the_same_trajectory) {
  const auto hand = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3, ea::AccelerationSource::Hand);
  const auto derived = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3, ea::AccelerationSource::Derived);
  BOOST_TEST((hand.final_state - derived.final_state).cwiseAbs().maxCoeff() < 1e-10);
}

BOOST_AUTO_TEST_CASE(rk4_drift_falls_by_about_sixteen_per_halving) {
  double previous = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 4e-3).audit.relative_drift();
  for (double h : {2e-3, 1e-3}) {
    const double delta = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), h).audit.relative_drift();
    BOOST_TEST_MESSAGE("h = " << h << ": delta_C = " << delta << ", ratio " << previous / delta);
    BOOST_TEST(std::log2(previous / delta) == 4.0, boost::test_tools::tolerance(0.1));
    previous = delta;
  }
}

BOOST_AUTO_TEST_CASE(wrong_twin_fails_where_the_crane_passes) {
  for (const auto method : {ea::FixedStepMethod::of<ea::methods::Rk4>(), ea::FixedStepMethod::of<ea::methods::Rkg>(), ea::FixedStepMethod::of<ea::methods::Rk3>()}) {
    for (double h : {1e-3, 5e-4}) {
      const auto right = run<Crane>(method, h);
      const auto wrong = run<CraneWrong>(method, h);
      BOOST_TEST(right.audit.passed(), method.info().name << " h = " << h);
      BOOST_TEST(!wrong.audit.passed(), method.info().name << " h = " << h);
      // The wrong trajectory stays bounded and plausible: only C tells.
      BOOST_TEST(std::abs(wrong.final_state[0]) < 1.0);
      BOOST_TEST(std::abs(wrong.final_state[1] + M_PI / 2) < M_PI);
    }
  }
}
