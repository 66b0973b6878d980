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
#include <energy_audit/history_work_ledger.hpp>

#include "crane.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Crane;
using energy_audit::examples::CraneWrong;
using energy_audit::examples::CraneDamperMissing;
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

namespace {

/// A crane whose one named force is twice its forces(): a ledger that could not close.
struct CraneMisnamed : Crane {
  std::array<::Coordinates, 1> named_forces(const ::Coordinates& q, const ::Coordinates& v, double t) const {
    return {2.0 * forces(q, v, t)};
  }
};

double last_Z(const ea::History& history) {
  const auto row = history.row(history.rows() - 1);
  return row[history.layout().energy_offset() + 7];  // T, T2, T1, T0, V, E, H, Z, C
}

}  // namespace

BOOST_AUTO_TEST_CASE(crane_ledger_closes_Z_to_second_order) {
  static_assert(ea::NamedForcesModel<Crane> && ea::NamedForcesModel<CraneDamperMissing>);
  static_assert(!ea::NamedForcesModel<ea::examples::CraneParameters>);
  double previous_gap = 0;
  for (double h : {2e-3, 1e-3}) {
    const auto result = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), h);
    const ea::WorkLedger ledger = ea::work_ledger(Crane{}, result.audit.history());
    BOOST_TEST_REQUIRE(ledger.force_names() == std::vector<std::string>{"damper"});
    const double Z = last_Z(result.audit.history());
    const double W_damper = ledger.works()[0];
    // The audit's own ledger, fed at every step, is the same sum.
    BOOST_TEST_REQUIRE(result.audit.work_ledger().has_value());
    BOOST_TEST(result.audit.work_ledger()->works()[0] == W_damper, boost::test_tools::tolerance(1e-12));
    // Scleronomic: no explicit-time work, and Z (integrated by the stepper) is −W_damper.
    BOOST_TEST(ledger.explicit_time_work() == 0.0);
    BOOST_TEST(W_damper < -1.0);
    const double gap = std::abs(W_damper + Z);
    BOOST_TEST(gap <= 1e-4 * std::abs(Z));
    BOOST_TEST(std::abs(ledger.ledger_Z() - Z) == gap, boost::test_tools::tolerance(1e-9));
    if (previous_gap > 0) {  // the trapezoid rule: the gap falls by at least four per halving
      BOOST_TEST_MESSAGE("h = " << h << ": |W_damper + Z| = " << gap << ", ratio " << previous_gap / gap);
      BOOST_TEST(std::log2(previous_gap / gap) >= 1.9);
    }
    previous_gap = gap;
  }
}

BOOST_AUTO_TEST_CASE(damper_left_out_of_f_fails_and_its_power_is_the_residual_power) {
  const auto missing = run<CraneDamperMissing>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3);
  BOOST_TEST(!missing.audit.passed());
  BOOST_TEST(missing.audit.equation_check().relative_residual() > 1e-3);  // model error
  const ea::History& history = missing.audit.history();
  const ea::WorkLedger ledger = ea::work_ledger(CraneDamperMissing{}, history);
  BOOST_TEST(ledger.works().empty());
  BOOST_TEST_REQUIRE(missing.audit.work_ledger().has_value());  // it names its forces: none
  BOOST_TEST(missing.audit.work_ledger()->residual_work() == ledger.residual_work(), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!ledger.suspect().has_value());  // no named force explains it
  // The reference: the damper's power −k x1_dot², from the trajectory's velocities, averaged
  // over each step as the finite difference of C averages the residual power.
  const double k = CraneDamperMissing{}.k;
  BOOST_TEST_REQUIRE(ledger.residual_power().size() == history.rows() - 1);
  double largest = 0, largest_difference = 0, damper_work = 0;
  for (std::size_t i = 0; i + 1 < history.rows(); ++i) {
    const double v0 = history.row(i)[3], v1 = history.row(i + 1)[3];  // t, x1, phi, x1_dot
    const double damper_power = -0.5 * k * (v0 * v0 + v1 * v1);
    damper_work += (history.row(i + 1)[0] - history.row(i)[0]) * damper_power;
    largest = std::max(largest, std::abs(damper_power));
    largest_difference = std::max(largest_difference, std::abs(ledger.residual_power()[i].power - damper_power));
  }
  BOOST_TEST(largest > 1.0);
  BOOST_TEST(largest_difference <= 1e-3 * largest);
  BOOST_TEST(ledger.residual_work() == damper_work, boost::test_tools::tolerance(1e-4));
}

BOOST_AUTO_TEST_CASE(named_forces_that_do_not_sum_to_f_are_an_error) {
  const CraneMisnamed model;
  const Coordinates q(0.1, -1.0), v(0.5, 0.2);
  BOOST_CHECK_NO_THROW(ea::check_named_forces_sum(Crane{}, q, v, 0.0));
  BOOST_CHECK_EXCEPTION(ea::check_named_forces_sum(model, q, v, 0.0), ea::InvalidArgument,
                        [](const ea::InvalidArgument& e) {
                          return std::string(e.what()).find("do not sum to forces()") != std::string::npos;
                        });
  // The audit checks the sum at its first two steps: the run stops there.
  BOOST_CHECK_THROW(run<CraneMisnamed>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-2), ea::InvalidArgument);
  // So does a ledger made afterwards from the rows of a run without that check.
  const auto rows = run<Crane>(ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-2);
  BOOST_CHECK_THROW(ea::work_ledger(model, rows.audit.history()), ea::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(suspect_is_named_only_when_the_residual_power_has_its_shape) {
  // Two forces with powers cos²(t) and sin(2t); C drifts at half the first one's power.
  ea::WorkLedger ledger({"drag", "drive"});
  double C = 0;
  const double h = 1e-3;
  for (int i = 0; i <= 6000; ++i) {
    const double t = i * h;
    const double powers[] = {-std::cos(t) * std::cos(t), std::sin(2 * t)};
    if (i > 0) C += 0.5 * (0.5 * (-std::cos(t - h) * std::cos(t - h)) + 0.5 * powers[0]) * h;
    ledger.record(t, powers, 0.0, C);
  }
  const auto suspect = ledger.suspect();
  BOOST_TEST_REQUIRE(suspect.has_value());
  BOOST_TEST(suspect->force == 0u);
  BOOST_TEST(suspect->correlation == 1.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(suspect->ratio == 0.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(ledger.works()[1] == (1 - std::cos(12.0)) / 2, boost::test_tools::tolerance(1e-5));

  ea::WorkLedger unrelated({"drive"});
  for (int i = 0; i <= 6000; ++i) {
    const double t = i * h;
    const double power[] = {std::sin(2 * t)};
    unrelated.record(t, power, 0.0, 1e-3 * std::sin(t) * std::sin(t) * std::sin(t));
  }
  BOOST_TEST(!unrelated.suspect().has_value());
}
