// audit_trajectory on samples of closed-form solutions: the damped oscillator's exact samples
// give Z = the energy the damper took, to the O(h⁴) of the Hermite quadrature (its observed
// order), and pass; so do those of a spring whose anchor moves, whose Ż = −∂V/∂t depends on q
// and so on the q interpolant; the exact samples of the same oscillator with its damping's sign slipped
// fail against the correct energies; a templated model's energies give the same audit as
// hand-written ones; bad samples are refused.
#include <cmath>
#include <string>

#include <boost/test/unit_test.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/trajectory_audit.hpp>

#include "oscillator.hpp"

namespace ea = energy_audit;

namespace {

constexpr double mass = 2.0, stiffness = 18.0, damping = 0.4, q0 = 1.0, t_end = 10.0;

/// Exact samples every h of m q'' = −c q' − s q (slip = −1: m q'' = +c q' − s q) from q0 at rest.
ea::TrajectorySamples oscillator_samples(double h, double slip = 1.0) {
  const double gamma = slip * damping / (2 * mass), omega0_sq = stiffness / mass;
  const double omega = std::sqrt(omega0_sq - gamma * gamma);
  const auto count = static_cast<ea::Index>(std::lround(t_end / h)) + 1;
  ea::TrajectorySamples s{ea::Vector(count), ea::Matrix(1, count), ea::Matrix(1, count), ea::Matrix(1, count)};
  for (ea::Index i = 0; i < count; ++i) {
    const double t = static_cast<double>(i) * h, decay = std::exp(-gamma * t);
    const double q = decay * q0 * (std::cos(omega * t) + gamma / omega * std::sin(omega * t));
    const double v = -decay * q0 * omega0_sq / omega * std::sin(omega * t);
    s.t[i] = t;
    s.q(0, i) = q;
    s.v(0, i) = v;
    s.a(0, i) = (-slip * damping * v - stiffness * q) / mass;
  }
  return s;
}

/// Exact samples every h of m q'' = −s (q − u(t)), a spring whose anchor moves as
/// u = A sin Ωt, from q0 at rest: q = q0 cos ωt + D sin ωt + B sin Ωt with ω² = s/m,
/// B = s A / (s − m Ω²) (the forced motion) and D = −B Ω/ω (v(0) = 0).
constexpr double anchor_amplitude = 0.5, anchor_frequency = 1.3;

double anchor(double t) { return anchor_amplitude * std::sin(anchor_frequency * t); }
double anchor_velocity(double t) {
  return anchor_amplitude * anchor_frequency * std::cos(anchor_frequency * t);
}

ea::TrajectorySamples moving_anchor_samples(double h) {
  const double omega = std::sqrt(stiffness / mass), Omega = anchor_frequency;
  const double B = stiffness * anchor_amplitude / (stiffness - mass * Omega * Omega), D = -B * Omega / omega;
  const auto count = static_cast<ea::Index>(std::lround(t_end / h)) + 1;
  ea::TrajectorySamples s{ea::Vector(count), ea::Matrix(1, count), ea::Matrix(1, count),
                          ea::Matrix(1, count)};
  for (ea::Index i = 0; i < count; ++i) {
    const double t = static_cast<double>(i) * h;
    s.t[i] = t;
    s.q(0, i) = q0 * std::cos(omega * t) + D * std::sin(omega * t) + B * std::sin(Omega * t);
    s.v(0, i) =
        omega * (-q0 * std::sin(omega * t) + D * std::cos(omega * t)) + B * Omega * std::cos(Omega * t);
    s.a(0, i) = -stiffness / mass * (s.q(0, i) - anchor(t));
  }
  return s;
}

/// T = m v²/2, V = s (q − u(t))²/2 and ∂V/∂t = −s (q − u) u̇: the power the anchor puts in.
ea::TrajectoryEnergies moving_anchor_energies() {
  ea::TrajectoryEnergies e;
  e.kinetic_energy = [](const ea::Vector&, const ea::Vector& v, double) { return 0.5 * mass * v[0] * v[0]; };
  e.potential_energy = [](const ea::Vector& q, double t) {
    return 0.5 * stiffness * (q[0] - anchor(t)) * (q[0] - anchor(t));
  };
  e.potential_energy_rate = [](const ea::Vector& q, double t) {
    return -stiffness * (q[0] - anchor(t)) * anchor_velocity(t);
  };
  return e;
}

/// Audits samples(h) for h = 0.1, 0.05, 0.025: each passes, and sup |C − C0|, the quadrature's
/// error in Z, falls as h⁴ (observed order within 0.3 of 4).
template <class Samples>
void check_fourth_order_in_h(const Samples& samples_every, const ea::TrajectoryEnergies& energies) {
  double previous_error = 0;
  for (const double h : {0.1, 0.05, 0.025}) {
    const ea::TrajectorySamples samples = samples_every(h);
    const ea::Audit audit = ea::audit_trajectory(samples, energies);
    const double error = audit.max_abs_drift();
    BOOST_TEST_MESSAGE("h = " << h << ": delta_C = " << audit.relative_drift()
                              << ", sup |C - C0| = " << error);
    BOOST_TEST(audit.passed());
    BOOST_TEST(audit.accepted_steps() == static_cast<std::size_t>(samples.t.size()));
    if (previous_error > 0) {
      const double order = std::log2(previous_error / error);
      BOOST_TEST_MESSAGE("  observed order " << order);
      BOOST_TEST(std::abs(order - 4) < 0.3);
    }
    previous_error = error;
  }
}

ea::TrajectoryEnergies oscillator_energies() {
  return {[](const ea::Vector&, const ea::Vector& v, double) { return 0.5 * mass * v[0] * v[0]; },
          [](const ea::Vector& q, double) { return 0.5 * stiffness * q[0] * q[0]; },
          [](const ea::Vector&, const ea::Vector& v, double) { return -damping * v[0] * v[0]; }};
}

}  // namespace

BOOST_AUTO_TEST_CASE(z_of_exact_samples_is_the_energy_lost_to_fourth_order) {
  // C(t) − C(0) = E(t) + Z(t) − E(0): the quadrature's error in the energy the damper took.
  check_fourth_order_in_h([](double h) { return oscillator_samples(h); }, oscillator_energies());
}

// Ż = s (q − u) u̇ is read on the q interpolant between samples: an interpolant wrong in its
// O(h) terms leaves an O(h) error in Z, where the exact one leaves O(h⁴).
BOOST_AUTO_TEST_CASE(z_read_on_the_q_interpolant_converges_at_fourth_order) {
  check_fourth_order_in_h(moving_anchor_samples, moving_anchor_energies());
}

BOOST_AUTO_TEST_CASE(a_slipped_sign_in_the_equations_fails) {
  const ea::Audit right = ea::audit_trajectory(oscillator_samples(0.01), oscillator_energies());
  const ea::Audit wrong = ea::audit_trajectory(oscillator_samples(0.01, -1.0), oscillator_energies());
  BOOST_TEST_MESSAGE("right: " << right.relative_drift() << ", slipped: " << wrong.relative_drift());
  BOOST_TEST(right.relative_drift() < 1e-8);
  BOOST_TEST(wrong.relative_drift() > 0.1);
  BOOST_TEST(right.passed());
  BOOST_TEST(!wrong.passed());
}

BOOST_AUTO_TEST_CASE(a_models_energies_audit_as_hand_written_ones) {
  ea::testing::Oscillator model;
  model.damping = damping;
  const ea::TrajectorySamples samples = oscillator_samples(0.05);
  const ea::Audit from_model = ea::audit_trajectory(samples, ea::trajectory_energies(model));
  const ea::Audit by_hand = ea::audit_trajectory(samples, oscillator_energies());
  BOOST_TEST(from_model.relative_drift() == by_hand.relative_drift(), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(bad_samples_are_refused) {
  ea::TrajectorySamples one{ea::Vector::Zero(1), ea::Matrix::Zero(1, 1), ea::Matrix::Zero(1, 1), ea::Matrix::Zero(1, 1)};
  BOOST_CHECK_THROW(ea::audit_trajectory(one, oscillator_energies()), ea::InvalidArgument);
  ea::TrajectorySamples mismatched = oscillator_samples(0.5);
  mismatched.a = ea::Matrix::Zero(1, 3);
  BOOST_CHECK_THROW(ea::audit_trajectory(mismatched, oscillator_energies()), ea::InvalidArgument);
  ea::TrajectorySamples backwards = oscillator_samples(0.5);
  backwards.t[3] = backwards.t[2];
  try {
    ea::audit_trajectory(backwards, oscillator_energies());
    BOOST_FAIL("times that do not increase were accepted");
  } catch (const ea::InvalidArgument& e) {
    BOOST_TEST(std::string(e.what()).find("t[3]") != std::string::npos);
  }
  BOOST_CHECK_THROW(ea::audit_trajectory(oscillator_samples(0.5), ea::TrajectoryEnergies{}), ea::InvalidArgument);
}

// A sample that is not finite is an error naming its array and its index, not a δ_C: NaN
// accelerations only enter Z through v(t), so without forces they would pass unseen.
BOOST_AUTO_TEST_CASE(samples_that_are_not_finite_are_refused_by_array_and_index) {
  const auto refusal = [](const ea::TrajectorySamples& samples, const ea::TrajectoryEnergies& energies) {
    try {
      ea::audit_trajectory(samples, energies);
    } catch (const ea::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const ea::TrajectoryEnergies conservative{oscillator_energies().kinetic_energy, oscillator_energies().potential_energy};
  ea::TrajectorySamples nan_a = oscillator_samples(0.5);
  nan_a.a.setConstant(std::nan(""));
  BOOST_TEST(refusal(nan_a, conservative) == "audit_trajectory: a is nan at sample 0, coordinate 0; the samples must be finite");
  ea::TrajectorySamples inf_v = oscillator_samples(0.5);
  inf_v.v(0, 7) = -INFINITY;
  BOOST_TEST(refusal(inf_v, oscillator_energies()) ==
             "audit_trajectory: v is -inf at sample 7, coordinate 0; the samples must be finite");
  ea::TrajectorySamples nan_q = oscillator_samples(0.5);
  nan_q.q(0, 19) = std::nan("");
  BOOST_TEST(refusal(nan_q, oscillator_energies()).find("q is nan at sample 19") != std::string::npos);
}

// An energy that depends on t given without its rate is named: Z would miss that power and the
// audit would fail as if the equations were wrong. With the rate, the same samples audit.
BOOST_AUTO_TEST_CASE(an_energy_that_depends_on_t_without_its_rate_is_named) {
  ea::TrajectoryEnergies stiffening = oscillator_energies();
  stiffening.potential_energy = [](const ea::Vector& q, double t) { return 0.5 * stiffness * (1 + 0.1 * t) * q[0] * q[0]; };
  try {
    ea::audit_trajectory(oscillator_samples(0.05), stiffening);
    BOOST_FAIL("V(q, t) without dV_dt was accepted");
  } catch (const ea::InvalidArgument& e) {
    BOOST_TEST(std::string(e.what()).find("V changes with t at fixed q") != std::string::npos, e.what());
    BOOST_TEST(std::string(e.what()).find("dV_dt") != std::string::npos, e.what());
  }
  stiffening.potential_energy_rate = [](const ea::Vector& q, double) { return 0.5 * stiffness * 0.1 * q[0] * q[0]; };
  BOOST_CHECK_NO_THROW(ea::audit_trajectory(oscillator_samples(0.05), stiffening));
  ea::TrajectoryEnergies moving = oscillator_energies();
  moving.kinetic_energy = [](const ea::Vector&, const ea::Vector& v, double t) { return 0.5 * mass * (v[0] + t) * (v[0] + t); };
  try {
    ea::audit_trajectory(oscillator_samples(0.05), moving);
    BOOST_FAIL("T(q, v, t) without dT_dt was accepted");
  } catch (const ea::InvalidArgument& e) {
    BOOST_TEST(std::string(e.what()).find("T changes with t at fixed q and v") != std::string::npos, e.what());
    BOOST_TEST(std::string(e.what()).find("dT_dt") != std::string::npos, e.what());
  }
}
