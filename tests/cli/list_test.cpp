// energy-audit list: every model and method by name.
#include <string>

#include <boost/test/unit_test.hpp>

#include "cli_test_support.hpp"

BOOST_AUTO_TEST_SUITE(list)

BOOST_AUTO_TEST_CASE(list_names_every_model_and_method) {
  const Result r = energy_audit("list");
  BOOST_TEST(r.status == 0);
  for (const char* name : {"crane ", "crane-derived", "crane-wrong", "crane-damper-missing", "euler ", "euler-cromer", "rk2", "rk3", "rk4", "rkg",
                           "verlet", "cvode-bdf", "cvode-adams", "idas", "crane-dae", "crane3d ", "crane3d-drop",
                           "crane3d-wrong ", "crane3d-wrong-drop", "mechanism ", "mechanism-wrong ",
                           "mechanism-wrong2 ", "pendulum ", "pendulum-wrong"}) {
    BOOST_TEST(r.out.find(name) != std::string::npos, name);
  }
}

BOOST_AUTO_TEST_CASE(list_says_which_forms_run_a_model_s_own_equations) {
  const Result r = energy_audit("list");
  BOOST_TEST(r.status == 0);
  // crane-wrong's flipped sign is in its hand-derived accelerations, which only lagrange runs.
  BOOST_TEST(r.out.find("forms: lagrange (own), hamilton (derived)") != std::string::npos, r.out);
  const std::size_t line = r.out.find("  crane-wrong ");
  BOOST_TEST_REQUIRE(line != std::string::npos);
  const std::string crane_wrong = r.out.substr(line, r.out.find('\n', line) - line);
  BOOST_TEST(crane_wrong.find("forms: lagrange (own), hamilton (derived)") != std::string::npos, crane_wrong);
}

BOOST_AUTO_TEST_SUITE_END()
