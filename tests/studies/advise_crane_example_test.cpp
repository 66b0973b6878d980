// The studies' example program (examples/advise_crane) as a user runs it, its advice checked by
// runs of the crane outside the advisor (studies::run_model, one run for each resolution): at
// each listed method's printed step or rtol δ_C meets the program's target 1e-6, at a step four
// times larger (an rtol ten times looser) it misses it, and the recommended method is the
// listed one whose run took the fewest right-hand-side evaluations.
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/sundials/cvodes_methods.hpp>

#include "crane.hpp"
#include "program_run.hpp"

namespace studies = energy_audit::studies;

namespace {

constexpr double target = 1e-6;  // the program's settings.target

using Methods = studies::MethodFamilies<studies::FixedStepFamily, energy_audit::sun::CvodesMethods>;

/// One line "method h|rtol resolution: delta_C = d, n rhs evaluations" of the program.
struct Listed {
  std::string method, unit;
  double resolution = 0, delta_C = 0;
  std::size_t rhs_evaluations = 0;
};

/// δ_C of the crane run by `method` at `resolution`; infinite for a run that did not finish,
/// which meets no target.
double crane_delta_C(const std::string& method, double resolution) {
  static const studies::ModelEntry crane =
      studies::make_entry<energy_audit::examples::Crane, Methods>("crane", "the trolley crane");
  studies::RunSettings settings;
  settings.method = Methods::find(method);
  (settings.method.adaptive() ? settings.adaptive.rtol : settings.step) = resolution;
  settings.audit.store_every = 0;
  const studies::RunOutcome run = studies::run_model(crane, {}, settings);
  const double delta_C = run.finished() && run.audit ? run.audit->relative_drift() : INFINITY;
  BOOST_TEST_MESSAGE(method << " at " << resolution << ": delta_C " << delta_C << " " << run.stop_description());
  return delta_C;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_recommended_step_meets_the_target_and_a_coarser_one_misses_it) {
  const energy_audit::testing::ProgramRun program = energy_audit::testing::run_shell_command(ADVISE_CRANE);
  BOOST_TEST_REQUIRE(program.exit_status == 0, program.output);
  std::vector<Listed> listed;
  std::string recommended, recommended_unit;
  double recommended_resolution = 0;
  std::istringstream lines(program.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    Listed l;
    std::string colon, equals, comma_count;
    if (line.rfind("recommended: ", 0) == 0) {
      std::string at;
      words >> colon >> recommended >> at >> recommended_unit >> recommended_resolution;
      BOOST_TEST_REQUIRE((!words.fail() && at == "at"), line);
      continue;
    }
    std::string resolution;
    words >> l.method >> l.unit >> resolution >> colon >> equals >> l.delta_C;
    BOOST_TEST_REQUIRE((!words.fail() && resolution.back() == ':' && colon == "delta_C" && equals == "="), line);
    l.resolution = std::stod(resolution.substr(0, resolution.size() - 1));
    words.ignore(1);  // the comma
    words >> l.rhs_evaluations;
    BOOST_TEST_REQUIRE(!words.fail(), line);
    listed.push_back(l);
  }
  BOOST_TEST_REQUIRE(listed.size() == 2u, program.output);  // rk4 and cvode-bdf both meet it
  BOOST_TEST_REQUIRE(!recommended.empty(), program.output);

  const Listed* fewest = &listed.front();
  for (const Listed& l : listed) {
    BOOST_TEST_CONTEXT(l.method << " at " << l.unit << " " << l.resolution) {
      const bool adaptive = l.unit == "rtol";
      BOOST_TEST(l.unit == (Methods::find(l.method).adaptive() ? "rtol" : "h"));
      const double delta_C = crane_delta_C(l.method, l.resolution);
      BOOST_TEST(delta_C <= target);
      BOOST_TEST(delta_C == l.delta_C, boost::test_tools::tolerance(0.02));  // printed to 3 digits
      BOOST_TEST(crane_delta_C(l.method, adaptive ? 10 * l.resolution : 4 * l.resolution) > target);
      if (l.rhs_evaluations < fewest->rhs_evaluations) fewest = &l;
    }
  }
  BOOST_TEST(recommended == fewest->method);
  BOOST_TEST(recommended_unit == (fewest->unit == "rtol" ? "rtol" : "step"));
  BOOST_TEST(recommended_resolution == fewest->resolution);
}
