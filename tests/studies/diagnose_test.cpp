// diagnose (diagnose.hpp) against the library, not the command line, on ladders whose answer is
// known from outside the classifier: rk4 and rk2 on a pendulum far from linear are step errors of
// their orders (δ_C ∝ h^p, study_models.hpp), and the advisor's step meets the threshold; a damped
// oscillator whose hand-derived accelerations carry the damper with the wrong sign (as crane-wrong
// flips one term) is a model error, its plateau the closed form of the work the wrong equation
// does, and with the sign right it is not; a flipped sign that does no work (a gyroscopic force)
// leaves δ_C to the step, and the equation check alone makes it a model error; and a ladder whose
// coarsest level already meets the threshold is within the threshold.
#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>

#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/studies/diagnose.hpp>
#include <energy_audit/studies/drift_ladder.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_pool.hpp>

#include "gyroscopic_oscillator.hpp"
#include "oscillator.hpp"
#include "study_models.hpp"

namespace ea = energy_audit;
namespace es = energy_audit::studies;
namespace st = energy_audit::study_tests;

namespace {

/// A mass of 1 kg on a spring of 4 N/m (ω = 2 rad/s) with a damper f = −c v over [0, 2] s from
/// q = 1 m (the oscillator of tests/fixtures/oscillator.hpp), with hand-derived accelerations
/// a = −k q + s c v: s = −1 is Lagrange's equation of T, V and f; s = +1 pushes with the damper
/// instead of against it (the flipped sign).
struct DampedOscillator : ea::testing::Oscillator {
  DampedOscillator() : ea::testing::Oscillator{.mass = 1.0, .stiffness = 4.0, .damping = 0.1} {}
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double) const {
    return Coordinates<double>(-stiffness * q[0] + damper_sign * damping * v[0]);
  }
  double q0 = 1.0;
  double damper_sign = -1.0;  ///< the sign of the damper's term in the hand-derived a: −1 is right
  static constexpr ea::Interval interval{0.0, 2.0};
  static constexpr std::array<std::string_view, 1> coordinate_names() { return {"q"}; }
  static constexpr auto parameters() {
    return std::array{ea::NamedMember<DampedOscillator>{"c", &DampedOscillator::damping, "damping [N s/m]"}};
  }
  static constexpr auto initial_values() {
    return std::array{ea::NamedMember<DampedOscillator>{"q", &DampedOscillator::q0, "start position [m]"}};
  }
  ea::InitialState<1> initial_state() const { return st::at_rest(q0); }
};
static_assert(ea::HasHandAccelerations<DampedOscillator>);

/// A unit mass in the plane on an isotropic spring of 4 N/m (T and V those of
/// tests/fixtures/gyroscopic_oscillator.hpp) with the gyroscopic force f = g J v,
/// J v = (v_y, −v_x), which does no work (vᵀ J v = 0), over [0, 2] s from (1, 0) at rest; its
/// hand-derived accelerations a = −k q − g J v carry the force with the wrong sign. The wrong flow
/// conserves H as the right one does, so δ_C cannot tell them apart.
struct GyroscopicSignFlipped : ea::testing::GyroscopicOscillator {
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return Coordinates<S>(gyro * v[1], -gyro * v[0]);
  }
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double) const {
    return Coordinates<double>(-stiffness * q[0] - gyro * v[1], -stiffness * q[1] + gyro * v[0]);
  }
  double gyro = 1.0;
  static constexpr ea::Interval interval{0.0, 2.0};
  static constexpr std::array<std::string_view, 2> coordinate_names() { return {"x", "y"}; }
  static constexpr auto parameters() { return std::array<ea::NamedMember<GyroscopicSignFlipped>, 0>{}; }
  static constexpr auto initial_values() { return std::array<ea::NamedMember<GyroscopicSignFlipped>, 0>{}; }
  ea::InitialState<2> initial_state() const {
    ea::InitialState<2> state;
    state.q << 1.0, 0.0;
    state.v << 0.0, 0.0;
    return state;
  }
};
static_assert(ea::HasHandAccelerations<GyroscopicSignFlipped>);

/// δ_C of the flipped damper's exact flow over [0, 2] s, the plateau no step removes. The wrong
/// equation q'' = −k q + c q' has q = e^{αt} (cos βt − (α/β) sin βt), v = −(k/β) e^{αt} sin βt
/// (α = c/2, β = √(k − α²)); along it Ḣ = c v² and Ż = −vᵀf = c v², so with W = c ∫ v² dt,
/// H and C − C0 = 2W grow monotonically and δ_C = 2 W(2) / (H0 + W(2)), H0 = k/2. W by Simpson's
/// rule on 2000 intervals (its error ~1e-14).
double flipped_damper_plateau(double k, double c) {
  const double alpha = c / 2, beta = std::sqrt(k - alpha * alpha);
  const auto power = [&](double t) {
    const double v = -(k / beta) * std::exp(alpha * t) * std::sin(beta * t);
    return c * v * v;
  };
  constexpr int intervals = 2000;
  const double h = 2.0 / intervals;
  double sum = power(0) + power(2.0);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 == 1 ? 4 : 2) * power(i * h);
  const double W = sum * h / 3;
  return 2 * W / (k / 2 + W);
}

const es::ModelEntry& damper_sign_flipped() {
  DampedOscillator flipped;
  flipped.damper_sign = +1.0;
  static const es::ModelEntry entry =
      es::make_entry("damper-flipped", "a damped oscillator, the damper's sign flipped in a", flipped);
  return entry;
}

const es::ModelEntry& gyroscopic_sign_flipped() {
  static const es::ModelEntry entry = es::make_entry<GyroscopicSignFlipped>(
      "gyroscopic-flipped", "a gyroscopic force, its sign flipped in a");
  return entry;
}

const es::ModelEntry& damper_sign_right() {
  static const es::ModelEntry entry = es::make_entry<DampedOscillator>("damped", "a damped oscillator");
  return entry;
}

/// The ladder of `method` from `step` over `levels` halvings, δ_C against `threshold`.
es::DiagnoseSettings ladder(const std::string& method, double step, std::size_t levels, double threshold) {
  es::DiagnoseSettings settings;
  settings.base.method = es::find_method(es::fixed_step_methods(), method);
  settings.base.step = step;
  settings.base.audit.threshold = threshold;
  settings.levels = levels;
  return settings;
}

std::string kind(const es::Diagnosis& d) { return es::drift_kind_name(d.classification.kind); }

/// δ_C of one run of `model` by `method` at `step`, outside the diagnosis.
double delta_C_of_run(const es::ModelEntry& model, const std::string& method, double step) {
  es::RunSettings settings;
  settings.method = es::find_method(es::fixed_step_methods(), method);
  settings.step = step;
  settings.audit.store_every = 0;
  return es::run_model(model, {}, settings).audit->relative_drift();
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_ladder_falling_at_the_methods_order_is_a_step_error_of_that_order) {
  // δ_C of rk4 at h = 0.01 .. 0.00125: 6.3e-9 .. 1.4e-12, each halving 2^4.1 .. 2^4.03 lower;
  // rk2 at the same steps: 1.4e-4 .. 2.3e-6, 2^1.97 .. 2^1.99 lower.
  for (const auto& [method, order, threshold] : {std::tuple{"rk4", 4, 1e-10}, std::tuple{"rk2", 2, 1e-5}}) {
    BOOST_TEST_CONTEXT(method) {
      const es::Diagnosis d =
          es::diagnose(st::pendulum_entry(), {}, ladder(method, 0.01, 4, threshold), es::RunPool(1));
      BOOST_TEST_MESSAGE(method << ": " << d.verdict());
      BOOST_TEST(d.method == method);
      BOOST_TEST(d.order == order);
      BOOST_TEST(!d.adaptive);
      BOOST_TEST(!d.interrupted);
      BOOST_TEST_REQUIRE(kind(d) == "step error", d.classification.explanation);
      BOOST_REQUIRE(d.classification.order);
      BOOST_TEST(*d.classification.order == double(order), boost::test_tools::tolerance(0.15 / order));
      // The levels are h, h/2, h/4, h/8, each the run of its step.
      BOOST_REQUIRE_EQUAL(d.levels.size(), 4u);
      for (std::size_t i = 0; i < d.levels.size(); ++i) {
        BOOST_TEST(d.levels[i].resolution == 0.01 / std::pow(2.0, double(i)));
        BOOST_TEST(d.levels[i].delta_C == delta_C_of_run(st::pendulum_entry(), method, d.levels[i].resolution));
      }
      BOOST_TEST(!d.levels.front().meets);  // the coarsest misses the threshold
      // The advisor's answer: a run at that step meets the threshold, one at twice it misses.
      BOOST_REQUIRE(d.advice);
      BOOST_REQUIRE(d.advice->answer);
      const double h = d.advice->answer->resolution;
      BOOST_TEST(delta_C_of_run(st::pendulum_entry(), method, h) <= threshold);
      BOOST_TEST(delta_C_of_run(st::pendulum_entry(), method, 2 * h) > threshold);
      BOOST_TEST(!d.evidence);  // a step error carries no model error's evidence
      BOOST_TEST(d.what_to_do().find("the advisor names") != std::string::npos, d.what_to_do());
    }
  }
}

BOOST_AUTO_TEST_CASE(accelerations_with_a_flipped_sign_are_a_model_error) {
  const es::Diagnosis d =
      es::diagnose(damper_sign_flipped(), {}, ladder("rk4", 0.02, 4, 1e-3), es::RunPool(1));
  BOOST_TEST_MESSAGE("flipped damper: " << d.verdict());
  BOOST_TEST_REQUIRE(kind(d) == "model error", d.classification.explanation);
  BOOST_TEST(!d.advice);  // no step helps: the advisor is not asked
  // The ladder's plateau: the work the wrong equation does, the same at every step.
  BOOST_REQUIRE(d.classification.plateau);
  const double plateau = flipped_damper_plateau(4.0, 0.1);  // 0.32
  BOOST_TEST(*d.classification.plateau == plateau, boost::test_tools::tolerance(1e-6));
  for (const es::Probe& level : d.levels)
    BOOST_TEST(level.delta_C == plateau, boost::test_tools::tolerance(1e-6));
  // The finest level's evidence: the equation check names q's equation.
  BOOST_REQUIRE(d.evidence);
  BOOST_TEST(d.evidence->equations_checked);
  BOOST_REQUIRE(d.evidence->equation_check_failed());
  BOOST_TEST(d.evidence->failing_equations.front().coordinate == "q");
  BOOST_TEST(d.what_to_do().find("fix the equation of q") != std::string::npos, d.what_to_do());
}

BOOST_AUTO_TEST_CASE(the_ladder_alone_reads_the_flipped_sign_as_a_plateau_and_the_right_sign_as_none) {
  // Without the equation check, the ladder alone says it; with the sign right, δ_C falls with the
  // step (4e-9 at h = 0.02, 2e-12 at 0.0025), far below the plateau: within the threshold.
  es::DiagnoseSettings settings = ladder("rk4", 0.02, 4, 1e-3);
  settings.base.audit.equation_check_every = 0;
  const es::Diagnosis d = es::diagnose(damper_sign_flipped(), {}, settings, es::RunPool(1));
  BOOST_TEST_REQUIRE(kind(d) == "model error", d.classification.explanation);
  BOOST_REQUIRE(d.evidence);
  BOOST_TEST(!d.evidence->equations_checked);
  const es::Diagnosis right =
      es::diagnose(damper_sign_right(), {}, ladder("rk4", 0.02, 4, 1e-3), es::RunPool(1));
  BOOST_TEST_MESSAGE("right damper: " << right.verdict());
  BOOST_TEST(kind(right) == "within threshold", right.classification.explanation);
  BOOST_TEST(right.levels.front().delta_C < 1e-6 * flipped_damper_plateau(4.0, 0.1));
  BOOST_TEST(!right.evidence);
}

BOOST_AUTO_TEST_CASE(a_flipped_sign_that_does_no_work_is_a_model_error_by_the_equation_check) {
  // The ladder alone sees only the step's error: C is conserved by the wrong flow too.
  es::DiagnoseSettings unchecked = ladder("rk4", 0.02, 4, 1e-3);
  unchecked.base.audit.equation_check_every = 0;
  const es::Diagnosis ladder_only = es::diagnose(gyroscopic_sign_flipped(), {}, unchecked, es::RunPool(1));
  BOOST_TEST_MESSAGE("gyroscopic, unchecked: " << ladder_only.verdict());
  BOOST_TEST(kind(ladder_only) == "within threshold", ladder_only.classification.explanation);
  // The equation check at the finest level fails: a model error whatever the ladder shows.
  const es::Diagnosis d =
      es::diagnose(gyroscopic_sign_flipped(), {}, ladder("rk4", 0.02, 4, 1e-3), es::RunPool(1));
  BOOST_TEST_MESSAGE("gyroscopic: " << d.verdict());
  BOOST_TEST_REQUIRE(kind(d) == "model error", d.classification.explanation);
  BOOST_TEST(d.classification.explanation.find("equation check fails") != std::string::npos,
             d.classification.explanation);
  BOOST_TEST(!d.advice);
  BOOST_REQUIRE(d.evidence);
  BOOST_TEST(d.evidence->equation_check_failed());
  // The check only watches: the levels' runs are those of the unchecked ladder.
  BOOST_REQUIRE_EQUAL(d.levels.size(), ladder_only.levels.size());
  for (std::size_t i = 0; i < d.levels.size(); ++i)
    BOOST_TEST(d.levels[i].delta_C == ladder_only.levels[i].delta_C);
}

BOOST_AUTO_TEST_CASE(a_ladder_whose_coarsest_level_meets_the_threshold_is_within_it) {
  // rk4 at h = 0.01 on the pendulum: δ_C = 6.3e-9, far below 1e-6.
  const es::Diagnosis d = es::diagnose(st::pendulum_entry(), {}, ladder("rk4", 0.01, 3, 1e-6), es::RunPool(1));
  BOOST_TEST_MESSAGE("within: " << d.verdict());
  BOOST_TEST_REQUIRE(kind(d) == "within threshold", d.classification.explanation);
  BOOST_TEST(d.classification.all_meet_threshold);
  for (const es::Probe& level : d.levels) BOOST_TEST(level.meets);
  // The advisor names the largest step that meets it: no smaller than the coarsest level's.
  BOOST_REQUIRE(d.advice);
  BOOST_REQUIRE(d.advice->answer);
  BOOST_TEST(d.advice->answer->resolution >= 0.01);
  BOOST_TEST(delta_C_of_run(st::pendulum_entry(), "rk4", d.advice->answer->resolution) <= 1e-6);
  BOOST_TEST(d.what_to_do().find("the coarsest step is enough") != std::string::npos, d.what_to_do());
}
