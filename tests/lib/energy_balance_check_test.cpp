// check_energy_balance() and EA_CHECK_ENERGY_BALANCE on the crane and on crane-wrong (one sign
// flipped in its hand-derived accelerations): the one holds, the other fails and says why.
#include <algorithm>
#include <cmath>
#include <string>

#include <boost/test/unit_test.hpp>

#include <energy_audit/energy_audit.hpp>
#include <energy_audit/testing/check_energy_balance.hpp>

#include "crane.hpp"

namespace ea = energy_audit;
using ea::examples::Crane;
using ea::examples::CraneWrong;
using ea::testing::check_energy_balance;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The time of the largest |C − C(t0)| read off a stored history of the same run, by a path
/// that does not use Audit::time_of_max_drift().
template <class Model>
double time_of_largest_drift_in_history(const Model& model, double step) {
  const ea::LagrangeSystem<Model> system{model};
  ea::Vector y = system.initial_state(model.initial_state().q, model.initial_state().v);
  ea::FixedStepper rk4(ea::methods::Rk4{});
  ea::Audit audit;
  ea::integrate_const(rk4, system, y, Model::interval.t0, Model::interval.t_end, step, ea::watch(system, audit));
  const ea::History& history = audit.history();
  const std::size_t t_column = 0, c_column = audit.layout().energy_offset() + 8;  // t; C after T ... Z
  BOOST_TEST_REQUIRE(std::string(ea::History::energy_columns[8]) == "C");
  const double C0 = history.row(0)[c_column];
  double largest = -1, at = 0;
  for (std::size_t i = 0; i < history.rows(); ++i) {
    const double drift = std::abs(history.row(i)[c_column] - C0);
    if (drift > largest) largest = drift, at = history.row(i)[t_column];
  }
  return at;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_crane_holds_with_its_equations_checked) {
  const auto report = check_energy_balance(Crane{}, "rk4", 1e-3, 1e-6);
  BOOST_TEST(report.passed, report);
  BOOST_TEST((report.verdict == ea::Verdict::Pass));
  BOOST_TEST(report.relative_drift < 2e-9);  // rk4 at h = 1 ms: just above what compare shows
  BOOST_TEST(report.steps == 5001u);
  BOOST_TEST(report.t_reached == 5.0);
  BOOST_TEST(report.equation_checks == report.steps);  // the hand accelerations, at every state
  BOOST_TEST(report.equation_residual < 1e-14);
  BOOST_TEST(contains(report.explanation, "energy balance holds: delta_C = "), report);
}

BOOST_AUTO_TEST_CASE(crane_wrong_fails_and_the_message_says_why) {
  const auto report = check_energy_balance(CraneWrong{}, "rk4", 1e-3, 1e-6);
  BOOST_TEST(!report.passed);
  BOOST_TEST((report.verdict == ea::Verdict::Fail));
  BOOST_TEST(report.relative_drift > 1e-3);  // the flipped sign moves C by percents
  BOOST_TEST(report.equation_residual > 1e-3);
  BOOST_TEST(report.time_of_max_drift == time_of_largest_drift_in_history(CraneWrong{}, 1e-3));
  BOOST_TEST(report.time_of_max_drift > 0.0);
  const std::string& line = report.explanation;
  BOOST_TEST(contains(line, "energy balance fails: delta_C = "), line);
  BOOST_TEST(contains(line, "> threshold 1e-06"), line);
  BOOST_TEST(contains(line, "largest drift at t = "), line);
  BOOST_TEST(contains(line, "(rk4, h = 0.001, 5001 states to t = 5)"), line);
  BOOST_TEST(contains(line, "the accelerations do not follow from T, V and the forces"), line);
  BOOST_TEST(std::count(line.begin(), line.end(), '\n') == 0);
}

BOOST_AUTO_TEST_CASE(a_coarse_step_fails_on_the_drift_alone) {
  // The right equations at a step the threshold cannot accept: δ_C fails, the equations hold.
  const auto report = check_energy_balance(Crane{}, "euler", 1e-2, 1e-6);
  BOOST_TEST(!report.passed);
  BOOST_TEST(report.relative_drift > 1e-6);
  BOOST_TEST(report.equation_residual < 1e-14);
  BOOST_TEST(!contains(report.explanation, "do not follow"), report);
}

BOOST_AUTO_TEST_CASE(a_given_start_and_interval_and_an_unknown_method) {
  const ea::InitialState<2> start{{0.0, 0.1}, {0.0, 0.0}};
  const auto report = check_energy_balance(Crane{}, "rkg", 1e-3, 1e-6, start, {0.0, 1.0});
  BOOST_TEST(report.passed, report);
  BOOST_TEST(report.steps == 1001u);
  BOOST_CHECK_EXCEPTION(check_energy_balance(Crane{}, "rk5", 1e-3, 1e-6), ea::InvalidArgument,
                        [](const ea::InvalidArgument& e) {
                          return contains(e.what(), "no fixed-step method 'rk5'; the methods are euler, ");
                        });
}

BOOST_AUTO_TEST_CASE(the_macro_passes_on_the_crane) { EA_CHECK_ENERGY_BALANCE(Crane{}, "rk4", 1e-3, 1e-6); }

// Both outcomes of the macro: on crane-wrong it records exactly one failed check (the test case
// passes only if it does).
BOOST_AUTO_TEST_CASE(the_macro_fails_on_crane_wrong, *boost::unit_test::expected_failures(1)) {
  EA_CHECK_ENERGY_BALANCE(CraneWrong{}, "rk4", 1e-3, 1e-6);
}

BOOST_AUTO_TEST_CASE(the_macro_takes_a_start_and_an_interval) {
  const ea::InitialState<2> start{{0.0, 0.1}, {0.0, 0.0}};
  EA_CHECK_ENERGY_BALANCE(Crane{}, ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3, 1e-6, start, ea::Interval{0, 1});
}
