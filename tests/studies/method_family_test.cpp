// A method family of one's own (method_family.hpp) reaches the studies through make_entry: the
// entry lists its methods after the fixed-step ones, a run of one of them goes to the family's
// run, and a method of a family the entry was not compiled for is a usage error.
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace es = energy_audit::studies;

namespace {

// A pendulum of length 1 m, its start angle by name.
struct Pendulum {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = energy_audit::VectorN<S, 1>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    return -9.81 * cos(q[0]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  double angle = 0.3;
  static constexpr energy_audit::Interval interval{0.0, 2.0};
  static constexpr std::array<std::string_view, 1> coordinate_names() { return {"phi"}; }
  static constexpr auto parameters() { return std::array<energy_audit::NamedMember<Pendulum>, 0>{}; }
  static constexpr auto initial_values() {
    return std::array{energy_audit::NamedMember<Pendulum>{"phi", &Pendulum::angle, "angle [rad]"}};
  }
  energy_audit::InitialState<1> initial_state() const {
    energy_audit::InitialState<1> state;
    state.q[0] = angle;
    state.v[0] = 0.0;
    return state;
  }
};

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
  static const es::ModelEntry entry = es::make_entry<Pendulum, Families>("pendulum", "a pendulum of 1 m");
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
  BOOST_CHECK_EXCEPTION(es::check_settings(pendulum(), {}, settings), es::SettingsError, [](const es::SettingsError& e) {
    return std::string(e.what()) ==
           "--method: model pendulum does not run elsewhere (it runs: euler, euler-cromer, rk2, rk3, rk4, rkg, verlet, "
           "record-a, record-b)";
  });
  // The studies' own entries run the fixed-step methods only.
  const es::ModelEntry fixed_only = es::make_entry<Pendulum>("pendulum", "a pendulum of 1 m");
  settings.method = Families::find("record-a");
  BOOST_CHECK_THROW(es::check_settings(fixed_only, {}, settings), es::SettingsError);
}
