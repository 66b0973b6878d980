// The command line's arguments, in every command: a bad value, an unknown command or option and
// an option a command does not take are one-line usage errors that name them; --help lists a
// command's own options.
#include <string>

#include <boost/test/unit_test.hpp>

#include "cli_test_support.hpp"

BOOST_AUTO_TEST_SUITE(arguments)

BOOST_AUTO_TEST_CASE(bad_input_is_a_one_line_usage_error_naming_it) {
  expect_usage_error("run no-such-model", "no-such-model");
  expect_usage_error("run crane --method rk5", "rk5");
  expect_usage_error("run crane --set mass=3", "mass");
  expect_usage_error("run crane --init theta=3", "theta");
  expect_usage_error("run crane --step 0", "--step");
  expect_usage_error("run crane --step -1e-3", "--step");
  expect_usage_error("run crane --step abc", "--step");
  expect_usage_error("run crane --step 6", "--step");            // longer than [0, 5]
  expect_usage_error("run crane --t-end 2 --step 3", "--step");  // longer than [0, 2]
  expect_usage_error("run crane --t-end 0", "--t-end");
  expect_usage_error("run crane --t-end -1", "--t-end");
  expect_usage_error("run crane --t-end inf", "--t-end");
  expect_usage_error("run crane --t-end nan", "--t-end");
  expect_usage_error("run crane --set m1", "m1");
  expect_usage_error("run crane --set =3", "=3");
  expect_usage_error("run crane --set m1=", "m1=");
  expect_usage_error("run crane --set m1=heavy", "heavy");
  expect_usage_error("run crane --init x1=1=2", "x1");
  expect_usage_error("run crane --threshold -1e-3", "--threshold");
  expect_usage_error("run crane --every 0", "--every");
  expect_usage_error("run crane --no-such-option", "--no-such-option");
  expect_usage_error("run", "MODEL");
  expect_usage_error("compare crane --methods rk4,rk5", "rk5");
  expect_usage_error("compare crane --steps 1e-2,-1e-3", "--step");
  expect_usage_error("compare no-such-model", "no-such-model");
  expect_usage_error("run crane --method cvode-bdf --rtol 0", "--rtol");
  expect_usage_error("run crane --method cvode-bdf --atol -1", "--atol");
  expect_usage_error("run crane --method cvode-bdf --rtol fine", "--rtol");
  expect_usage_error("run crane --method cvode-bdf --max-steps 0", "--max-steps");
  expect_usage_error("run crane --method cvode-adams --z-as memory", "--z-as");
  expect_usage_error("run crane --method cvode-adams --iteration picard", "--iteration");
  expect_usage_error("compare crane --methods cvode-bdf --rtols 1e-6,0", "--rtols");
  expect_usage_error("run crane --method idas", "idas");            // a method that cannot run the model:
  expect_usage_error("run crane --method idas", "crane");           // both are named
  expect_usage_error("run crane-dae --stabilize ggl", "rk4");       // ggl needs idas
  expect_usage_error("run crane --stabilize baumgarte", "crane");   // nothing to stabilize
  expect_usage_error("run crane-dae --stabilize projection", "--stabilize");
  expect_usage_error("run crane-dae --stabilize baumgarte --baumgarte 5", "--baumgarte");
  expect_usage_error("run crane-dae --stabilize baumgarte --baumgarte 5,-1", "--baumgarte");
  expect_usage_error("compare crane --methods rk4,idas", "idas");
  // Guards against runs that would take hours or all memory, or fail only at their end.
  expect_usage_error("run crane --step 1e-300", "--step");
  expect_usage_error("run crane --t-end 1e300", "steps");
  expect_usage_error("run crane --method cvode-bdf --max-step 1e-300", "--max-step");
  expect_usage_error("run crane --method cvode-bdf --max-steps 9223372036854775808", "--max-steps");
  expect_usage_error("run crane --csv /nonexistent-dir/x.csv", "--csv");
  expect_usage_error("run crane --json /nonexistent-dir/x.json", "--json");
  expect_usage_error("compare crane --methods rk4 --steps 1e-2,10", "--steps");  // checked before any run
  expect_usage_error("compare crane --methods rk4 --steps 1e-2 --plot /nonexistent-dir/p.png", "--plot");
  expect_usage_error("run crane --set m1=-4.5", "m1");
  expect_usage_error("run crane --set l=0", "l = 0");
  expect_usage_error("run crane --method cvode-bdf --max-steps 18446744073709551617", "too large");  // not clamped
  expect_usage_error("run crane --every 18446744073709551617", "--every");
  expect_usage_error("run crane-dae --stabilize baumgarte --baumgarte 0,1e200", "--baumgarte");  // beta^2 overflows
  expect_usage_error("run crane --csv ''", "--csv");  // an empty file name
  expect_usage_error("run crane --method cvode-bdf --t-end 1e-300", "--t-end");  // too short for CVODES to start
  expect_usage_error("run crane-dae --method idas --t-end 1e-300", "--t-end");
}

// A parameter or initial value given twice is refused, not silently the last one; a sweep's
// message says how it takes several values.
BOOST_AUTO_TEST_CASE(a_name_given_twice_is_a_usage_error) {
  expect_usage_error("run crane --set m1=1 --set m1=2", "--set: m1 is given twice (m1=1, m1=2)");
  expect_usage_error("run crane --init x1=0.1 --init x1=0.2", "--init: x1 is given twice");
  expect_usage_error("compare crane --methods rk4 --set m1=1 --set s=1 --set m1=2", "m1 is given twice");
  expect_usage_error("advise crane --set m1=1 --set m1=1", "m1 is given twice");
  expect_usage_error("stability ellipse --set c=1 --set c=2", "c is given twice");
  expect_usage_error("audit-trajectory crane x.csv --set m1=1 --set m1=2", "m1 is given twice");
  expect_usage_error("sweep crane --set m1=1 --set m1=2,3", "in one: --set m1=1,2,3");
  expect_usage_error("sweep crane --init x1=0.1 --init x1=0.2", "--init x1=0.1,0.2");
}

// A fixed step longer than the interval is refused on the kinematic models as on the others.
BOOST_AUTO_TEST_CASE(a_step_longer_than_the_interval_is_refused_on_kinematic_models) {
  expect_usage_error("run ellipse --step 30", "--step: 30 is longer than the interval [0, 20]");
  expect_usage_error("run ellipse --t-end 1 --step 2", "--step: 2 is longer than the interval [0, 1]");
  expect_usage_error("stability ellipse --steps 0.01,30", "--steps: 30 is longer than the interval [0, 20]");
  expect_usage_error("run ellipse --step 1e-300", "--step");  // too many steps
}

// A command's --help lists only the options it takes.
BOOST_AUTO_TEST_CASE(help_lists_only_the_options_a_command_takes) {
  const Result advise = energy_audit("advise --help");
  BOOST_TEST(advise.status == 0);
  // An option's line starts with it (the footer names --fail-on-verdict too).
  BOOST_TEST(advise.out.find("\n  --target") != std::string::npos, advise.out);
  BOOST_TEST(advise.out.find("\n  --threshold") == std::string::npos, advise.out);
  BOOST_TEST(advise.out.find("\n  --fail-on-verdict") == std::string::npos, advise.out);
  const Result run = energy_audit("run --help");
  BOOST_TEST(run.out.find("\n  --threshold") != std::string::npos, run.out);
  BOOST_TEST(run.out.find("\n  --fail-on-verdict") != std::string::npos, run.out);
  expect_usage_error("advise crane --fail-on-verdict", "--fail-on-verdict");
}

BOOST_AUTO_TEST_CASE(an_unknown_command_is_named_with_the_commands) {
  const Result r = energy_audit("bogus");
  BOOST_TEST(r.status == 2);
  BOOST_TEST(line_count(r.err) == 1u, r.err);
  BOOST_TEST(r.err.find("'bogus'") != std::string::npos, r.err);
  for (const char* command : {"list", "run", "compare", "reproduce"}) {
    BOOST_TEST(r.err.find(command) != std::string::npos, command);
  }
}

// Every option is either used by the run or refused, naming the option and why.
BOOST_AUTO_TEST_CASE(options_that_do_not_apply_are_usage_errors) {
  for (const char* option : {"--rtol 1e-6", "--atol 1e-9", "--max-steps 10", "--z-as quadrature",
                             "--iteration fixed-point", "--initial-step 1e-4", "--max-step 1e-2"}) {
    const std::string name = std::string(option).substr(0, std::string(option).find(' '));
    expect_usage_error(std::string("run crane --method rk4 ") + option, name);  // a fixed-step method
  }
  expect_usage_error("run crane --method cvode-bdf --step 1e-3", "--step");
  expect_usage_error("run crane-dae --method idas --step 1e-3", "--step");
  expect_usage_error("run crane --method cvode-bdf --iteration newton", "--iteration");
  expect_usage_error("run crane-dae --method idas --iteration newton", "--iteration");
  expect_usage_error("run crane-dae --baumgarte 1,1", "--baumgarte");  // without --stabilize baumgarte
  expect_usage_error("run crane-dae --stabilize ggl --method idas --baumgarte 1,1", "--baumgarte");
  expect_usage_error("run crane --drift-threshold 1e-6", "--drift-threshold");  // no constraints
  expect_usage_error("run crane --every 10", "--every");                        // no --csv to thin
  expect_usage_error("run crane --no-audit --threshold 1e-6", "--threshold");
  expect_usage_error("run crane --no-audit --fail-on-verdict", "--fail-on-verdict");
  expect_usage_error("compare crane --methods rk4 --rtols 1e-6", "--rtols");
  expect_usage_error("compare crane --methods cvode-bdf --steps 1e-3", "--steps");
  expect_usage_error("compare crane --methods rk4,cvode-bdf --iteration newton", "--iteration");
  expect_usage_error("compare crane --methods rk4 --z-as quadrature", "--z-as");
  expect_usage_error("run crane-derived --no-equation-check", "--no-equation-check");  // nothing hand-derived
  expect_usage_error("run crane-dae --equation-check-every 1", "--equation-check-every");
  expect_usage_error("run crane --no-equation-check --equation-threshold 1e-6", "--equation-threshold");
  expect_usage_error("run crane --no-audit --equation-check-every 1", "--equation-check-every");
  // ... and the same options where they apply are accepted; a large step budget is no size limit.
  BOOST_TEST(energy_audit("run crane --method cvode-bdf --max-steps 100000000").status == 0);
  BOOST_TEST(energy_audit("run crane --method cvode-adams --iteration fixed-point --rtol 1e-6 --t-end 0.5").status == 0);
  BOOST_TEST(energy_audit("run crane-dae --stabilize baumgarte --baumgarte 1,1 --drift-threshold 1e-2 --t-end 0.5")
                 .status == 0);
}

// The message of an option that does not apply names every method it applies to.
BOOST_AUTO_TEST_CASE(a_refused_option_names_every_method_it_applies_to) {
#ifdef ENERGY_AUDIT_WITH_ARKODE
  const std::string adaptive = "applies to the adaptive methods cvode-bdf, cvode-adams, idas, arkode-erk and arkode-dirk";
  expect_usage_error("run crane --method rk4 --rtol 1e-6", "--rtol: " + adaptive + ", not to rk4");
  expect_usage_error("run crane --max-steps 10", "--max-steps: " + adaptive + ", not to rk4");
  expect_usage_error("compare crane --methods rk4,rkg --atol 1e-9", "--atol: " + adaptive + ", not to rk4, rkg");
  // run takes arkode-erk and arkode-dirk at --step; the studies' ladders and lists do not.
  expect_usage_error("run crane --method cvode-bdf --step 1e-3",
                     "--step: applies to the fixed-step methods and to arkode-erk and arkode-dirk, not to cvode-bdf");
  expect_usage_error("diagnose crane --method cvode-bdf --step 1e-3",
                     "--step: applies to the fixed-step methods, not to cvode-bdf");
  expect_usage_error("run crane --method rk4 --relax", "--relax: applies to arkode-erk and arkode-dirk only, not to rk4");
#endif
  expect_usage_error("run crane --method cvode-bdf --iteration newton", "--iteration: applies to cvode-adams only");
  const Result help = energy_audit("run --help");
  BOOST_TEST(help.out.find("relative tolerance, < 1 (cvode-bdf, cvode-adams, idas") != std::string::npos, help.out);
}

// A relative tolerance of 1 or more passes any step: refused, naming the option, in run and in the
// studies' lists alike.
BOOST_AUTO_TEST_CASE(a_relative_tolerance_of_one_or_more_is_refused) {
  expect_usage_error("run crane --method cvode-bdf --rtol 1", "--rtol: 1 must be < 1");
#ifdef ENERGY_AUDIT_WITH_ARKODE
  expect_usage_error("run crane --method arkode-erk --rtol 1e300", "--rtol: 1e+300 must be < 1");
#endif
  expect_usage_error("compare crane --methods cvode-bdf --rtols 1e-6,2", "--rtols: 2 must be < 1");
  expect_usage_error("diagnose crane --method cvode-bdf --rtol 5", "--rtol: 5 must be < 1");
  BOOST_TEST(energy_audit("run crane --method cvode-bdf --rtol 0.5 --t-end 0.5").status == 0);
}

BOOST_AUTO_TEST_SUITE_END()
