// The residual of Lagrange's equations at given accelerations: against closed-form M and r on a
// rheonomic pendulum, at round-off along correct runs (crane, oscillator), orders of magnitude
// above the threshold where the equations are wrong, also where the energy audit cannot see it
// (a gyroscopic term that does no work) and in whichever equation the wrong term is; with
// multipliers on crane-dae; and the check's sup / sup and its edge cases.
// The measured relative residuals are printed with --log_level=message.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/equation_check.hpp>
#include <energy_audit/equation_residual.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/lagrange_terms.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane.hpp"
#include "crane_dae.hpp"
#include "gyroscopic_oscillator.hpp"
#include "mechanism.hpp"
#include "moving_support_pendulum.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Crane;
using energy_audit::examples::CraneDae;
using energy_audit::examples::CraneWrong;
using energy_audit::examples::MechanismWrong;
using energy_audit::testing::GyroscopicOscillator;
using energy_audit::testing::MovingSupportPendulum;
using boost::test_tools::tolerance;

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

/// What one rk4 run with hand accelerations leaves: the energy audit, the equation check of the
/// hand accelerations at every state the audit sees, and the final state; and, kept by the test
/// itself, the time, |(M a − r)_i| and scale of every state.
struct CheckedRun {
  ea::Audit audit;
  ea::EquationCheck check;
  ea::Vector final_state;
  std::vector<double> times, scales;
  std::vector<ea::Vector> coordinate_residuals;
};

template <class Model>
CheckedRun run_and_check(const Model& model, const typename Model::template Coordinates<double>& q0,
                         const typename Model::template Coordinates<double>& v0, double t_end, double h) {
  using Coordinates = typename Model::template Coordinates<double>;
  constexpr int n = Model::dofs;
  const ea::LagrangeSystem<Model> system(model, ea::AccelerationSource::Hand);
  CheckedRun run{ea::Audit{}, ea::EquationCheck{}, system.initial_state(q0, v0), {}, {}, {}};
  const auto audit_observer = ea::watch(system, run.audit);
  ea::FixedStepper stepper(ea::methods::Rk4{});
  const auto outcome = ea::integrate_const(stepper, system, run.final_state, 0.0, t_end, h,
                                           [&](const ea::ConstVectorRef& y, double t) {
                                             audit_observer(y, t);
                                             const Coordinates q = y.template head<n>();
                                             const Coordinates v = y.template segment<n>(n);
                                             const ea::EquationResidual r =
                                                 ea::equation_residual(model, q, v, model.accelerations(q, v, t), t);
                                             run.check.add(r, t);
                                             run.times.push_back(t);
                                             run.scales.push_back(r.scale);
                                             run.coordinate_residuals.push_back(r.coordinates);
                                           });
  BOOST_REQUIRE(!outcome.diverged());
  BOOST_REQUIRE(run.check.checked_steps() == run.audit.accepted_steps());
  return run;
}

/// The times of coordinate i's equation from the run's own record, by the definitions of
/// docs/mathematics.md: the first state where |(M a − r)_i| > threshold × (sup scale so far), and
/// the first where |(M a − r)_i| is largest.
struct CoordinateTimes {
  double first_above = std::nan(""), largest = std::nan("");
};
CoordinateTimes times_of(const CheckedRun& run, Eigen::Index i, double threshold) {
  CoordinateTimes times;
  double scale = 0, largest = 0;
  for (std::size_t k = 0; k < run.times.size(); ++k) {
    scale = std::max(scale, run.scales[k]);
    const double e = run.coordinate_residuals[k][i];
    if (std::isnan(times.first_above) && e > threshold * scale) times.first_above = run.times[k];
    if (e > largest) {
      largest = e;
      times.largest = run.times[k];
    }
  }
  return times;
}

}  // namespace

BOOST_AUTO_TEST_CASE(gyroscopic_error_passes_the_energy_audit_but_not_the_equation_check) {
  const GyroscopicOscillator::Coordinates<double> q0(1.0, 0.5), v0(0.0, 1.0);
  const double t_end = 10.0;
  for (const double b : {0.0, 1.0}) {
    GyroscopicOscillator model;
    model.wrong_gyroscopic_coefficient = b;
    const CheckedRun run = run_and_check(model, q0, v0, t_end, 1e-3);
    const double state_error = (run.final_state.head<2>() - model.exact_position(q0, v0, t_end)).cwiseAbs().maxCoeff();
    BOOST_TEST_MESSAGE("gyroscopic oscillator b = " << b << ": delta_C = " << run.audit.relative_drift()
                                                    << ", |q(10) - exact|_inf = " << state_error
                                                    << ", relative residual = " << run.check.relative_residual());
    // The force b (v_y, −v_x) does no work: C stays constant to the integration's error either way.
    BOOST_TEST(run.audit.relative_drift() < 1e-9);
    if (b == 0.0) {
      BOOST_TEST(state_error < 1e-8);
      BOOST_TEST(run.check.relative_residual() < 1e-15);
      BOOST_TEST(run.check.passed());
    } else {
      BOOST_TEST(state_error > 0.5);  // of the size of the orbit (|q0| ≈ 1.1 m): the state is wrong
      BOOST_TEST(run.check.relative_residual() > 0.1);
      BOOST_TEST(!run.check.passed());
    }
  }
}

// The audit watching a system with hand accelerations checks its equations by itself: the
// gyroscopic error passes δ_C and fails the verdict; the correct equations pass both.
BOOST_AUTO_TEST_CASE(the_audit_fails_equations_that_conserve_energy_but_are_wrong) {
  const GyroscopicOscillator::Coordinates<double> q0(1.0, 0.5), v0(0.0, 1.0);
  for (const std::size_t every : {std::size_t{1}, std::size_t{100}}) {
    for (const double b : {0.0, 1.0}) {
      GyroscopicOscillator model;
      model.wrong_gyroscopic_coefficient = b;
      const ea::LagrangeSystem<GyroscopicOscillator> system(model, ea::AccelerationSource::Hand);
      ea::Vector y = system.initial_state(q0, v0);
      ea::Audit audit({.equation_check_every = every});
      ea::FixedStepper stepper(ea::methods::Rk4{});
      ea::integrate_const(stepper, system, y, 0.0, 10.0, 1e-3, ea::watch(system, audit));
      BOOST_TEST(audit.relative_drift() < 1e-9);
      // 10001 states: the first two, then every k-th step after the first.
      BOOST_TEST(audit.equation_check().checked_steps() == 2u + 9999u / every);
      BOOST_CHECK(audit.verdict() == (b == 0.0 ? ea::Verdict::Pass : ea::Verdict::Fail));
      if (b != 0.0) BOOST_TEST(audit.equation_check().relative_residual() > 0.1);
    }
  }
  // Derived accelerations solve the equations by construction: nothing to check.
  const ea::LagrangeSystem<GyroscopicOscillator> derived(GyroscopicOscillator{}, ea::AccelerationSource::Derived);
  BOOST_TEST(!derived.checks_equations());
  ea::Vector y = derived.initial_state(q0, v0);
  ea::Audit audit;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  ea::integrate_const(stepper, derived, y, 0.0, 1.0, 1e-3, ea::watch(derived, audit));
  BOOST_TEST(audit.equation_check().checked_steps() == 0u);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Pass);
}

namespace {
struct PendulumProbe {
  double theta, theta_dot, theta_ddot, t;
};
const PendulumProbe pendulum_probes[] = {
    {0.3, -1.1, 0.7, 0.0}, {-1.2, 0.4, -3.0, 0.7}, {2.5, 3.0, 12.0, 1.9}, {0.0, 0.0, 0.0, 0.33}};
}  // namespace

BOOST_AUTO_TEST_CASE(equation_terms_match_the_closed_form_of_a_rheonomic_pendulum) {
  // T = m/2 |(xs' + l cos θ θ', ys' + l sin θ θ')|², V = m g (ys − l cos θ), f = −c θ':
  //   M a = m l² θ'', ∂L/∂θ = m l θ' (ys' cos θ − xs' sin θ) − m g l sin θ,
  //   (∂²T/∂θ'∂θ) θ' + ∂²T/∂θ'∂t = m l θ' (ys' cos θ − xs' sin θ) + m l (xs'' cos θ + ys'' sin θ).
  const MovingSupportPendulum p;
  for (const PendulumProbe& probe : pendulum_probes) {
    const double th = probe.theta, th_dot = probe.theta_dot, th_ddot = probe.theta_ddot, t = probe.t;
    const double c = std::cos(th), s = std::sin(th);
    const MovingSupportPendulum::Coordinates<double> q(th), v(th_dot), a(th_ddot);
    const ea::LagrangeEquationTerms<1> terms = ea::lagrange_equation_terms(p, q, v, a, t);
    const double coupling = p.m * p.l * th_dot * (p.ys_dot(t) * c - p.xs_dot(t) * s);
    BOOST_TEST(terms.inertia[0] + 1.0 == p.m * p.l * p.l * th_ddot + 1.0, tolerance(1e-14));
    BOOST_TEST(terms.forces[0] == -p.c * th_dot, tolerance(1e-14));
    BOOST_TEST(terms.lagrangian_gradient[0] + 1.0 == coupling - p.m * p.g * p.l * s + 1.0, tolerance(1e-13));
    BOOST_TEST(terms.convective[0] + 1.0 == coupling + p.m * p.l * (p.xs_ddot(t) * c + p.ys_ddot(t) * s) + 1.0,
               tolerance(1e-13));
    // They are the M a and r of lagrange_terms(), which takes M's columns instead of M a.
    const ea::LagrangeTerms<1> full = ea::lagrange_terms(p, q, v, t);
    BOOST_TEST(full.rhs[0] + 1.0 == terms.forces[0] + terms.lagrangian_gradient[0] - terms.convective[0] + 1.0,
               tolerance(1e-14));
    BOOST_TEST(full.mass(0, 0) * th_ddot + 1.0 == terms.inertia[0] + 1.0, tolerance(1e-14));
  }
}

BOOST_AUTO_TEST_CASE(residual_matches_the_closed_form_of_a_rheonomic_pendulum) {
  // Lagrange's equation of the pendulum on its moving support, by hand:
  //   m l² θ'' = r = −c θ' − m g l sin θ − m l (xs'' cos θ + ys'' sin θ).
  const MovingSupportPendulum p;
  for (const PendulumProbe& probe : pendulum_probes) {
    const double th = probe.theta, th_dot = probe.theta_dot, t = probe.t;
    const double c = std::cos(th), s = std::sin(th);
    const MovingSupportPendulum::Coordinates<double> q(th), v(th_dot);
    const double mass = p.m * p.l * p.l;
    const double r = -p.c * th_dot - p.m * p.g * p.l * s - p.m * p.l * (p.xs_ddot(t) * c + p.ys_ddot(t) * s);
    const double coupling = p.m * p.l * th_dot * (p.ys_dot(t) * c - p.xs_dot(t) * s);
    const double lagrangian_gradient = coupling - p.m * p.g * p.l * s;
    const double convective = coupling + p.m * p.l * (p.xs_ddot(t) * c + p.ys_ddot(t) * s);

    // At arbitrary accelerations: |M a − r| and the sum of the four terms' magnitudes.
    const ea::EquationResidual at_probe =
        ea::equation_residual(p, q, v, MovingSupportPendulum::Coordinates<double>(probe.theta_ddot), t);
    BOOST_TEST(at_probe.residual == std::abs(mass * probe.theta_ddot - r), tolerance(1e-12));
    const double scale = std::abs(mass * probe.theta_ddot) + std::abs(p.c * th_dot) + std::abs(lagrangian_gradient) +
                         std::abs(convective);
    BOOST_TEST(at_probe.scale == scale, tolerance(1e-12));

    // At the hand-derived accelerations: round-off of the equation's size.
    const ea::EquationResidual at_hand = ea::equation_residual(p, q, v, p.accelerations(q, v, t), t);
    BOOST_TEST_MESSAGE("moving-support pendulum at t = " << t << ": relative residual of the hand accelerations "
                                                         << at_hand.residual / at_hand.scale);
    BOOST_TEST(at_hand.residual <= 1e-15 * at_hand.scale);
  }
}

namespace {
/// A mass on three springs of different stiffness along x, y, z: m a_i = −k_i q_i. Its hand
/// accelerations may have the sign of the spring force slipped in one equation.
struct AnisotropicOscillator {
  static constexpr int dofs = 3;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = ea::VectorN<S, 3>;

  double mass = 2.0;                             // [kg]
  Coordinates<double> stiffness{1.0, 4.0, 9.0};  // [N/m]
  int slipped_equation = -1;                     // −1: the correct equations

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * mass * v.dot(v);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return 0.5 * q.dot(stiffness.cast<S>().cwiseProduct(q));
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>&, double) const {
    Coordinates<double> a = -stiffness.cwiseProduct(q) / mass;
    if (slipped_equation >= 0) a[slipped_equation] = -a[slipped_equation];
    return a;
  }
};
}  // namespace

// The slipped sign makes equation j read m a_j = +k_j q_j: its residual is 2 k_j |q_j|, and each
// equation's terms sum to |m a_i| + |k_i q_i| = 2 k_i |q_i|, whichever equation is wrong.
BOOST_AUTO_TEST_CASE(a_wrong_term_is_found_in_whichever_equation_it_is) {
  const AnisotropicOscillator::Coordinates<double> q(0.5, -0.25, 0.125), v(0.3, -1.0, 2.0);
  const AnisotropicOscillator correct;
  const double scale = (2 * correct.stiffness.cwiseProduct(q).cwiseAbs()).maxCoeff();  // 2 k_z |z| = 2.25
  const ea::EquationResidual right =
      ea::equation_residual(correct, q, v, correct.accelerations(q, v, 0.0), 0.0);
  BOOST_TEST(right.residual <= 1e-15 * right.scale);
  BOOST_TEST(right.scale == scale, tolerance(1e-14));
  for (const int slipped : {0, 1, 2}) {
    AnisotropicOscillator model;
    model.slipped_equation = slipped;
    const ea::EquationResidual r = ea::equation_residual(model, q, v, model.accelerations(q, v, 0.0), 0.0);
    BOOST_TEST_MESSAGE("sign slipped in equation " << slipped << ": residual " << r.residual << ", scale "
                                                   << r.scale);
    BOOST_TEST(r.residual == 2 * model.stiffness[slipped] * std::abs(q[slipped]), tolerance(1e-14));
    BOOST_TEST(r.scale == scale, tolerance(1e-14));
  }
}

BOOST_AUTO_TEST_CASE(crane_equations_hold_to_round_off_along_a_run) {
  const Crane model;
  const auto start = model.initial_state();
  const CheckedRun run = run_and_check(model, start.q, start.v, Crane::interval.t_end, 1e-3);
  BOOST_TEST_MESSAGE("crane, hand accelerations (eq. 19): relative residual " << run.check.relative_residual()
                                                                                << " over " << run.check.checked_steps()
                                                                                << " states, scale " << run.check.scale());
  BOOST_TEST(run.check.relative_residual() < 1e-14);
  BOOST_TEST(run.check.passed());

  // The derived accelerations solve the same equations, to the round-off of the solve.
  ea::EquationCheck derived;
  const ea::LagrangeSystem<Crane> system(model, ea::AccelerationSource::Derived);
  ea::Vector y = system.initial_state(start.q, start.v);
  ea::FixedStepper stepper(ea::methods::Rk4{});
  ea::integrate_const(stepper, system, y, 0.0, Crane::interval.t_end, 1e-3, [&](const ea::ConstVectorRef& state, double t) {
    const Crane::Coordinates<double> q = state.head<2>(), v = state.segment<2>(2);
    derived.add(ea::equation_residual(model, q, v, ea::derived_accelerations(model, q, v, t), t));
  });
  BOOST_TEST_MESSAGE("crane, derived accelerations: relative residual " << derived.relative_residual());
  BOOST_TEST(derived.relative_residual() < 1e-14);
}

BOOST_AUTO_TEST_CASE(crane_wrong_fails_along_a_run_though_not_at_rest) {
  const CraneWrong model;
  const auto start = model.initial_state();
  // The flipped term −2 m2 l cos φ φ̇² is zero at rest: the initial state alone cannot tell.
  const ea::EquationResidual at_rest =
      ea::equation_residual(model, start.q, start.v, model.accelerations(start.q, start.v, 0.0), 0.0);
  BOOST_TEST(at_rest.residual <= 1e-15 * at_rest.scale);

  const CheckedRun run = run_and_check(model, start.q, start.v, CraneWrong::interval.t_end, 1e-3);
  BOOST_TEST_MESSAGE("crane-wrong: relative residual " << run.check.relative_residual() << " over "
                                                       << run.check.checked_steps() << " states; delta_C "
                                                       << run.audit.relative_drift());
  // 1.2e-2: the flipped term puts (m1 + m2) 4 m2 l cos φ φ̇² / (4 m1 + m2 + 3 m2 cos² φ), up to
  // 36 N, into the trolley's equation, whose scale is set at the start by the spring's
  // s x1 = 1500 N and the inertia that balances it (3000 N together).
  BOOST_TEST(run.check.relative_residual() > 1e-3);
  BOOST_TEST(!run.check.passed());

  // The flipped sign is in ẍ1 (docs/models.md, crane-wrong; φ̈ is right): an error δ in ẍ1 puts
  // M_11 δ = (m1 + m2) δ = 11 δ into the equation of x1 and M_21 δ = (m2 l / 2) sin φ δ, at most
  // δ / 2, into that of φ. The equation of x1 carries the whole relative residual, and that of φ
  // at most 1/22 of it.
  const std::vector<ea::CoordinateResidual> coordinates = run.check.coordinate_residuals();
  BOOST_REQUIRE(coordinates.size() == 2u);
  BOOST_TEST(Crane::coordinate_names()[0] == "x1");
  BOOST_TEST(coordinates[0].relative_residual == run.check.relative_residual());
  BOOST_TEST(coordinates[1].relative_residual <= coordinates[0].relative_residual / 22);
  for (const Eigen::Index i : {0, 1}) {
    const CoordinateTimes expected = times_of(run, i, run.check.threshold());
    BOOST_TEST(coordinates[i].first_above_threshold == expected.first_above);
    BOOST_TEST(coordinates[i].time_of_largest == expected.largest);
  }
  BOOST_TEST(coordinates[0].first_above_threshold > 0.0);  // at rest the flipped term is 0

  // The audit's own check, every 100th step, names the same equation.
  const std::vector<ea::CoordinateResidual> audited = run.audit.equation_check().coordinate_residuals();
  BOOST_REQUIRE(audited.size() == 2u);
  BOOST_TEST(audited[0].relative_residual == run.audit.equation_check().relative_residual());
  BOOST_TEST(audited[1].relative_residual <= audited[0].relative_residual / 22);
}

BOOST_AUTO_TEST_CASE(mechanism_wrong_names_the_equation_of_gamma) {
  const MechanismWrong model;
  const auto start = model.initial_state();
  const CheckedRun run = run_and_check(model, start.q, start.v, 2.0, 1e-3);
  // The flipped sign is in γ̈ (docs/models.md, mechanism-wrong); ẍ follows from γ̈ by ṗ_x = 0,
  // which is the equation of x itself (x is cyclic and unforced): that equation holds to
  // round-off whatever γ̈ is, and the equation of γ carries the whole residual.
  const std::vector<ea::CoordinateResidual> coordinates = run.check.coordinate_residuals();
  BOOST_REQUIRE(coordinates.size() == 2u);
  BOOST_TEST(MechanismWrong::coordinate_names()[1] == "gamma");
  BOOST_TEST_MESSAGE("mechanism-wrong: equation of x " << coordinates[0].relative_residual << ", of gamma "
                                                        << coordinates[1].relative_residual);
  BOOST_TEST(coordinates[0].relative_residual < 1e-13);
  BOOST_TEST(std::isnan(coordinates[0].first_above_threshold));
  BOOST_TEST(coordinates[1].relative_residual == run.check.relative_residual());
  BOOST_TEST(coordinates[1].relative_residual > 1e-3);
  const CoordinateTimes expected = times_of(run, 1, run.check.threshold());
  BOOST_TEST(coordinates[1].first_above_threshold == expected.first_above);
  BOOST_TEST(coordinates[1].time_of_largest == expected.largest);
  BOOST_TEST(coordinates[1].first_above_threshold > 0.0);  // at rest the flipped term is 0
}

namespace {
/// Whether equation_residual(model, q, v, a, t), without multipliers, accepts the model.
template <class Model>
concept CheckedWithoutMultipliers = requires(const Model& model, const ea::VectorN<double, Model::dofs>& x) {
  ea::equation_residual(model, x, x, x, 0.0);
};
}  // namespace

// A multiplier model's equations hold only with their constraint forces: the overload without
// λ refuses it at compile time.
static_assert(CheckedWithoutMultipliers<Crane>);
static_assert(!CheckedWithoutMultipliers<CraneDae>);

BOOST_AUTO_TEST_CASE(multiplier_residual_holds_for_the_saddle_point_solution_of_crane_dae) {
  const CraneDae model;
  const ea::MultiplierSystem<CraneDae> system{model};
  const auto start = model.initial_state();
  ea::Vector y = system.initial_state(start.q, start.v);
  ea::EquationCheck solved, without_constraint_forces, opposite_multipliers;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  ea::integrate_const(stepper, system, y, 0.0, CraneDae::interval.t_end, 1e-3, [&](const ea::ConstVectorRef& state, double t) {
    const CraneDae::Coordinates<double> q = state.head<4>(), v = state.segment<4>(4);
    const auto rates = system.rates(q, v, t);
    solved.add(ea::equation_residual(model, q, v, rates.a, rates.lambda, t));
    without_constraint_forces.add(ea::equation_residual(model, q, v, rates.a, ea::VectorN<double, 2>::Zero(), t));
    opposite_multipliers.add(ea::equation_residual(model, q, v, rates.a, ea::VectorN<double, 2>(-rates.lambda), t));
  });
  BOOST_TEST_MESSAGE("crane-dae: relative residual " << solved.relative_residual() << "; without G^T lambda "
                                                     << without_constraint_forces.relative_residual()
                                                     << "; with -lambda " << opposite_multipliers.relative_residual());
  BOOST_TEST(solved.relative_residual() < 1e-14);
  BOOST_TEST(without_constraint_forces.relative_residual() > 1e-3);
  BOOST_TEST(opposite_multipliers.relative_residual() > 1e-3);
}

BOOST_AUTO_TEST_CASE(non_finite_accelerations_give_a_non_finite_residual) {
  const Crane model;
  const Crane::Coordinates<double> q(0.1, -0.5), v(0.3, 1.0);
  for (const double bad : {not_a_number, infinity}) {
    const ea::EquationResidual r = ea::equation_residual(model, q, v, Crane::Coordinates<double>(0.0, bad), 0.0);
    BOOST_TEST(!std::isfinite(r.residual));
    ea::EquationCheck check;
    check.add(r);
    BOOST_TEST(check.relative_residual() == infinity);
    BOOST_TEST(!check.passed());
  }
}

namespace {
/// The oscillator with a force that is NaN in one equation only (a force law evaluated outside
/// its domain), beside a finite equation that a max dropping NaN would report instead.
struct OneForceNotANumber : GyroscopicOscillator {
  int broken_equation = 0;
  Coordinates<double> forces(const Coordinates<double>&, const Coordinates<double>&, double) const {
    Coordinates<double> f = Coordinates<double>::Zero();
    f[broken_equation] = not_a_number;
    return f;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_term_not_a_number_in_one_equation_is_not_dropped) {
  for (const int broken_equation : {0, 1}) {
    OneForceNotANumber model;
    model.broken_equation = broken_equation;
    const OneForceNotANumber::Coordinates<double> q(0.1, -0.5), v(0.3, 1.0);
    const ea::EquationResidual r = ea::equation_residual(model, q, v, model.accelerations(q, v, 0.0), 0.0);
    BOOST_TEST(std::isnan(r.residual));
    BOOST_TEST(std::isnan(r.scale));
  }
}

BOOST_AUTO_TEST_CASE(check_is_sup_residual_over_sup_scale) {
  ea::EquationCheck check;
  BOOST_TEST(check.checked_steps() == 0u);
  BOOST_TEST(check.relative_residual() == 0.0);
  BOOST_TEST(check.threshold() == ea::default_equation_residual_threshold);
  // A large equation at one state sets the scale for a residual at another: 0.25 / 4, not the
  // largest ratio 0.25 / 1 (binary fractions, so the quotient is exact).
  check.add({.residual = 0.0, .scale = 4.0});
  check.add({.residual = 0.25, .scale = 1.0});
  check.add({.residual = 0.125, .scale = 2.0});
  BOOST_TEST(check.checked_steps() == 3u);
  BOOST_TEST(check.max_residual() == 0.25);
  BOOST_TEST(check.scale() == 4.0);
  BOOST_TEST(check.relative_residual() == 0.0625);
  BOOST_TEST(!check.passed());

  // Passing is relative_residual() ≤ threshold, the equality included.
  for (const double threshold : {0.0625, 0.0624}) {
    ea::EquationCheck judged(threshold);
    judged.add({.residual = 0.25, .scale = 4.0});
    BOOST_TEST(judged.passed() == (threshold == 0.0625));
  }
}

BOOST_AUTO_TEST_CASE(check_edge_cases) {
  ea::EquationCheck empty_equations;  // nothing in the equations and nothing wrong: 0
  empty_equations.add({.residual = 0.0, .scale = 0.0});
  BOOST_TEST(empty_equations.relative_residual() == 0.0);
  BOOST_TEST(empty_equations.passed());

  ea::EquationCheck residual_without_scale;
  residual_without_scale.add({.residual = 1e-30, .scale = 0.0});
  BOOST_TEST(residual_without_scale.relative_residual() == infinity);

  // A non-finite value fails the check however large the others (std::max would drop a NaN).
  for (const ea::EquationResidual& bad : {ea::EquationResidual{.residual = not_a_number, .scale = 1.0},
                                         ea::EquationResidual{.residual = 0.0, .scale = not_a_number},
                                         ea::EquationResidual{.residual = infinity, .scale = 1.0},
                                         ea::EquationResidual{.residual = 0.0, .scale = infinity}}) {
    ea::EquationCheck check;
    check.add({.residual = 0.0, .scale = 1.0});
    check.add(bad);
    check.add({.residual = 1e-20, .scale = 2.0});
    BOOST_TEST(check.relative_residual() == infinity);
  }

  BOOST_CHECK_THROW(ea::EquationCheck{-1e-8}, ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::EquationCheck{not_a_number}, ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::EquationCheck{infinity}, ea::InvalidArgument);
}
