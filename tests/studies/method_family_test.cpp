// A method family of one's own (method_family.hpp) reaches the studies through make_entry: the
// entry lists its methods after the fixed-step ones, a run of one of them goes to the family's
// run, and a method of a family the entry was not compiled for is a usage error.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/settings_error.hpp>

#include "study_models.hpp"

namespace es = energy_audit::studies;
namespace st = energy_audit::study_tests;

namespace {

// A family of two methods whose run takes no step: it records which of its methods ran (as the
// step count, 10 + its variant) and the state it was handed (the start angle, as t_reached).
struct RecordingFamily {
  static constexpr const char* name = "recording";
  static const std::vector<es::Method>& methods() {
    static const std::vector<es::Method> list{{"record-a", "the first", name, 0}, {"record-b", "the second", name, 1}};
    return list;
  }
  template <class System>
  static void run(es::RunOutcome& outcome, const System&, energy_audit::Vector& y, const es::RunSettings& settings) {
    outcome.steps = 10 + settings.method.variant;
    outcome.t_reached = y[0];
    outcome.end = energy_audit::RunEnd::Finished;
  }
};
static_assert(es::MethodFamily<RecordingFamily>);

using Families = es::MethodFamilies<es::FixedStepFamily, RecordingFamily>;

const es::ModelEntry& pendulum() {
  // A pendulum of length 1 m (study_models.hpp) from 0.3 rad, its start angle by name.
  static const es::ModelEntry entry =
      es::make_entry<st::Pendulum, Families>("pendulum", "a pendulum of 1 m", st::Pendulum{.angle = 0.3});
  return entry;
}

}  // namespace

BOOST_AUTO_TEST_CASE(entry_lists_its_families_methods_in_order) {
  std::vector<std::string> expected = es::method_names(es::fixed_step_methods());
  expected.insert(expected.end(), {"record-a", "record-b"});
  BOOST_TEST(es::method_names(pendulum().methods) == expected, boost::test_tools::per_element());
  BOOST_TEST(Families::find("record-b").variant == 1u);
}

BOOST_AUTO_TEST_CASE(run_goes_to_the_family_of_its_method) {
  es::RunSettings settings;
  settings.method = Families::find("record-b");
  settings.audited = false;
  const es::RunOutcome outcome = es::run_model(pendulum(), {{}, {{"phi", 0.25}}}, settings);
  BOOST_TEST(outcome.error == "");
  BOOST_TEST(outcome.steps == 11u);
  BOOST_TEST(outcome.t_reached == 0.25);
}

BOOST_AUTO_TEST_CASE(fixed_step_methods_still_integrate) {
  es::RunSettings settings;  // rk4, audited
  settings.step = 1e-3;
  const es::RunOutcome outcome = es::run_model(pendulum(), {}, settings);
  BOOST_TEST(outcome.finished());
  BOOST_TEST(outcome.steps >= 2000u);  // 2 s at 1 ms
  BOOST_TEST(outcome.steps <= 2001u);
}

BOOST_AUTO_TEST_CASE(method_of_another_family_is_a_usage_error) {
  es::RunSettings settings;
  settings.method = es::Method{"elsewhere", "a method of a family not compiled in", "other", 0};
  // The message names the entry's methods: the fixed-step family's, then the recording family's.
  std::vector<std::string> runs = es::method_names(es::fixed_step_methods());
  runs.insert(runs.end(), {"record-a", "record-b"});
  const std::string expected = "--method: model pendulum does not run elsewhere (it runs: " + es::join(runs) + ")";
  BOOST_CHECK_EXCEPTION(es::check_settings(pendulum(), {}, settings), es::SettingsError,
                        [&](const es::SettingsError& e) { return std::string(e.what()) == expected; });
  // The studies' own entries run the fixed-step methods only.
  const es::ModelEntry fixed_only = es::make_entry<st::Pendulum>("pendulum", "a pendulum of 1 m");
  settings.method = Families::find("record-a");
  BOOST_CHECK_THROW(es::check_settings(fixed_only, {}, settings), es::SettingsError);
}
