// The C++ header that energy_audit.sympy.write_cpp_model writes for a double pendulum built with
// sympy.physics.mechanics (tests/python/sympy_double_pendulum.py, run by the build): the library
// runs it with derived accelerations exactly as a double pendulum written here by hand, to
// round-off; the command line could register it (DescribedModel); hand-derived accelerations put
// on top of its T, V and f pass the equation check, and the same with one sign flipped fail it and
// the drift of C.

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "sympy_double_pendulum.hpp"  // generated into the build tree

namespace ea = energy_audit;
using Generated = ea::testing::SympyDoublePendulum;

namespace {

/// The same double pendulum written by hand: point masses m1, m2 on rods l1, l2, the angles from
/// the downward vertical, a viscous torque -c theta_i' on each angle.
struct DoublePendulumByHand {
  static constexpr int dofs = 2;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = ea::VectorN<S, dofs>;

  double m1 = 1.0, m2 = 0.5, l1 = 1.0, l2 = 0.7, g = 9.81, c = 0.05;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S&) const {
    using std::cos;
    return 0.5 * (m1 + m2) * l1 * l1 * v[0] * v[0] + m2 * l1 * l2 * cos(q[0] - q[1]) * v[0] * v[1] +
           0.5 * m2 * l2 * l2 * v[1] * v[1];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    return -(m1 + m2) * g * l1 * cos(q[0]) - m2 * g * l2 * cos(q[1]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return -c * v;
  }
};

/// The generated model with accelerations derived by hand: Lagrange's equations
///   (m1 + m2) l1^2 a1 + m2 l1 l2 cos(d) a2 = -c v1 - m2 l1 l2 sin(d) v2^2 - (m1 + m2) g l1 sin(theta1)
///   m2 l1 l2 cos(d) a1 + m2 l2^2 a2        = -c v2 + m2 l1 l2 sin(d) v1^2 - m2 g l2 sin(theta2)
/// with d = theta1 - theta2, solved by Cramer's rule; coupling_sign = +1 slips the sign of the
/// velocity-squared term of the first (zero at rest: both start alike).
struct GeneratedWithHandAccelerations : Generated {
  double coupling_sign = -1.0;

  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v, double) const {
    const double d = q[0] - q[1];
    const double coupling = m2 * l1 * l2;
    const double M11 = (m1 + m2) * l1 * l1, M12 = coupling * std::cos(d), M22 = m2 * l2 * l2;
    const double r1 = -c * v[0] + coupling_sign * coupling * std::sin(d) * v[1] * v[1] -
                      (m1 + m2) * g * l1 * std::sin(q[0]);
    const double r2 = -c * v[1] + coupling * std::sin(d) * v[0] * v[0] - m2 * g * l2 * std::sin(q[1]);
    const double determinant = M11 * M22 - M12 * M12;
    return {(M22 * r1 - M12 * r2) / determinant, (M11 * r2 - M12 * r1) / determinant};
  }
};

struct Run {
  ea::Vector y;
  ea::Audit audit;
};

template <class M>
Run run(const M& model, ea::AccelerationSource source) {
  const ea::LagrangeSystem<M> system(model, source);
  const Generated start;
  Run result{system.initial_state(start.initial_state().q, start.initial_state().v), ea::Audit()};
  ea::FixedStepper stepper(ea::methods::Rk4{});
  BOOST_TEST_REQUIRE(
      ea::integrate_const(stepper, system, result.y, 0.0, 5.0, 1e-3, ea::watch(system, result.audit)).finished());
  return result;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_generated_header_describes_a_model_the_command_line_can_register) {
  static_assert(ea::DescribedModel<Generated>);
  static_assert(ea::is_scleronomic<Generated> && !ea::HasHandAccelerations<Generated>);
  const Generated model;
  BOOST_TEST(Generated::coordinate_names()[1] == "theta2");
  BOOST_TEST(Generated::parameters().size() == 6u);
  BOOST_TEST(model.initial_state().q[0] == 0.6);
  BOOST_TEST(model.initial_state().q[1] == -0.4);
  BOOST_TEST(Generated::interval.t_end == 10.0);
}

BOOST_AUTO_TEST_CASE(energies_forces_and_derived_accelerations_equal_the_hand_written_models) {
  const Generated generated;
  const DoublePendulumByHand hand;
  std::mt19937 random(2);
  std::uniform_real_distribution<double> angle(-3.0, 3.0), rate(-4.0, 4.0);
  const auto close = boost::test_tools::tolerance(1e-13);
  for (int trial = 0; trial < 20; ++trial) {
    const Generated::Coordinates<double> q(angle(random), angle(random)), v(rate(random), rate(random));
    BOOST_TEST(generated.kinetic_energy(q, v, 0.0) == hand.kinetic_energy(q, v, 0.0), close);
    BOOST_TEST(generated.potential_energy(q, 0.0) == hand.potential_energy(q, 0.0), close);
    BOOST_TEST((generated.forces(q, v, 0.0) - hand.forces(q, v, 0.0)).norm() == 0.0);
    const auto a = ea::derived_accelerations(generated, q, v, 0.0);
    const auto b = ea::derived_accelerations(hand, q, v, 0.0);
    BOOST_TEST((a - b).norm() <= 1e-12 * (1.0 + b.norm()), "trial " << trial << ": " << (a - b).norm());
  }
}

BOOST_AUTO_TEST_CASE(a_run_of_the_generated_model_equals_a_run_of_the_hand_written_one_to_round_off) {
  const Run generated = run(Generated(), ea::AccelerationSource::Derived);
  const Run hand = run(DoublePendulumByHand(), ea::AccelerationSource::Derived);
  BOOST_TEST((generated.y - hand.y).norm() <= 1e-11 * hand.y.norm(), (generated.y - hand.y).norm());
  BOOST_TEST(generated.audit.passed());
  BOOST_TEST(generated.audit.relative_drift() < 1e-8);
  BOOST_TEST(std::abs(generated.audit.relative_drift() - hand.audit.relative_drift()) < 1e-12);
}

BOOST_AUTO_TEST_CASE(hand_accelerations_on_the_generated_model_pass_and_a_flipped_sign_is_caught) {
  GeneratedWithHandAccelerations right;
  const Run checked = run(right, ea::AccelerationSource::Hand);
  BOOST_TEST(checked.audit.equation_check().checked_steps() > 0u);
  BOOST_TEST(checked.audit.equation_check().relative_residual() < 1e-13);
  BOOST_TEST(checked.audit.passed());
  const Run derived = run(Generated(), ea::AccelerationSource::Derived);
  BOOST_TEST((checked.y - derived.y).norm() <= 1e-11 * derived.y.norm());

  GeneratedWithHandAccelerations wrong;
  wrong.coupling_sign = +1.0;
  const Run caught = run(wrong, ea::AccelerationSource::Hand);
  BOOST_TEST(caught.audit.equation_check().relative_residual() > 1e-2, caught.audit.equation_check().relative_residual());
  BOOST_TEST(caught.audit.relative_drift() > 1e-2, caught.audit.relative_drift());
  BOOST_TEST(!caught.audit.passed());
}
