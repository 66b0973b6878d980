// Hamilton's canonical equations built by the Legendre transform, against independent
// references: the momentum map against closed forms (crane, moving-support pendulum), the motion
// and C against Lagrange's form of the same model, Euler–Cromer's order of updates by hand, and
// Störmer–Verlet's bounded energy error over 10^4 periods of the undamped crane.
#include <cmath>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane.hpp"
#include "moving_support_pendulum.hpp"
#include "oscillator.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Crane;
using energy_audit::testing::MovingSupportPendulum;
using energy_audit::testing::Oscillator;
using boost::test_tools::tolerance;

BOOST_AUTO_TEST_CASE(momentum_map_is_the_kinetic_energys_metric) {
  const Crane crane;
  for (const double phi : {-0.5, 0.3, 1.2}) {
    const ea::MomentumMap<2> map = ea::momentum_map(crane, Crane::Coordinates<double>(0.1, phi), 0.0);
    // T = (m1 + m2)/2 x1'^2 + m2 l/2 sin(phi) x1' phi' + m2 l^2/6 phi'^2.
    BOOST_TEST(map.mass(0, 0) == crane.m1 + crane.m2, tolerance(1e-14));
    BOOST_TEST(map.mass(0, 1) == 0.5 * crane.m2 * crane.l * std::sin(phi), tolerance(1e-14));
    BOOST_TEST(map.mass(1, 0) == map.mass(0, 1), tolerance(1e-14));
    BOOST_TEST(map.mass(1, 1) == crane.m2 * crane.l * crane.l / 3, tolerance(1e-14));
    BOOST_TEST(map.offset.norm() == 0.0);
  }
  const MovingSupportPendulum p;
  for (const double t : {0.0, 0.4, 1.3}) {
    const double theta = 0.7;
    const ea::MomentumMap<1> map = ea::momentum_map(p, MovingSupportPendulum::Coordinates<double>(theta), t);
    BOOST_TEST(map.mass(0, 0) == p.m * p.l * p.l, tolerance(1e-14));
    // b = m l (xs' cos(theta) + ys' sin(theta)): the momentum of the moving support.
    BOOST_TEST(map.offset[0] + 1.0 ==
                   p.m * p.l * (p.xs_dot(t) * std::cos(theta) + p.ys_dot(t) * std::sin(theta)) + 1.0,
               tolerance(1e-14));
    const double v = -1.3;
    BOOST_TEST(map.velocities(map.momenta(MovingSupportPendulum::Coordinates<double>(v)), t)[0] == v,
               tolerance(1e-14));
  }
}

namespace {

struct Final {
  ea::Vector y;
  ea::Audit audit;
};

template <class System>
Final run(const System& system, ea::Vector y, ea::FixedStepMethod method, double h, double t_end) {
  Final f{std::move(y), ea::Audit{ea::AuditOptions{.store_every = 0}}};  // δ_C and the last row only
  ea::FixedStepper stepper(method);
  ea::integrate_const(stepper, system, f.y, 0.0, t_end, h, ea::watch(system, f.audit));
  return f;
}

/// Lagrange's and Hamilton's forms of one model: the same q(t), v(t) from p, Z and C.
template <class Model>
void check_same_motion(const Model& model, const typename Model::template Coordinates<double>& q0,
                       const typename Model::template Coordinates<double>& v0, double t_end) {
  constexpr int n = Model::dofs;
  const ea::LagrangeSystem<Model> lagrange(model, ea::AccelerationSource::Derived);
  const ea::HamiltonSystem<Model> hamilton(model);
  for (const ea::FixedStepMethod method : {ea::FixedStepMethod::of<ea::methods::Rk4>(),
                                           ea::FixedStepMethod::of<ea::methods::Verlet>()}) {
    BOOST_TEST_CONTEXT(method.info().name) {
      const Final l = run(lagrange, lagrange.initial_state(q0, v0), method, 1e-3, t_end);
      const Final h = run(hamilton, hamilton.initial_state(q0, v0, 0.0), method, 1e-3, t_end);
      const typename Model::template Coordinates<double> q = h.y.template head<n>(), p = h.y.template segment<n>(n);
      const auto v = hamilton.velocities(q, p, t_end);
      // The two forms agree to their truncation errors, which differ: h^4 for rk4, h^2 for verlet.
      const double tol = method.info().order == 4 ? 1e-8 : 1e-3;
      BOOST_TEST((l.y.template head<n>() - q).norm() < tol);
      BOOST_TEST((l.y.template segment<n>(n) - v).norm() < 10 * tol);
      BOOST_TEST(l.y[2 * n] == h.y[2 * n], tolerance(1e-5));  // Z
      BOOST_TEST(l.audit.initial_control() == h.audit.initial_control(), tolerance(1e-14));
      BOOST_TEST(l.audit.last_row().back() == h.audit.last_row().back(), tolerance(tol));  // C at the end
      BOOST_TEST(h.audit.relative_drift() < 1e-3);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(hamilton_and_lagrange_give_the_same_motion_and_c_on_the_crane) {
  const Crane crane;
  const auto start = crane.initial_state();
  check_same_motion(crane, start.q, start.v, 5.0);
}

BOOST_AUTO_TEST_CASE(hamilton_and_lagrange_give_the_same_motion_and_c_on_a_rheonomic_model) {
  check_same_motion(MovingSupportPendulum{}, MovingSupportPendulum::Coordinates<double>(0.4),
                    MovingSupportPendulum::Coordinates<double>(-0.3), 3.0);
}

BOOST_AUTO_TEST_CASE(euler_cromer_updates_p_first_and_q_with_the_new_p) {
  Oscillator model;
  model.damping = 0.5;
  const ea::HamiltonSystem<Oscillator> system(model);
  const double q0 = 0.3, v0 = -1.2, h = 0.01, p0 = model.mass * v0;
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(q0), Oscillator::Coordinates<double>(v0), 0.0);
  BOOST_TEST(y[1] == p0);
  ea::FixedStepper stepper(ea::methods::EulerCromer{});
  stepper.do_step(system, y, 0.0, h);
  const double p1 = p0 + h * (-model.stiffness * q0 - model.damping * v0);
  BOOST_TEST(y[1] == p1, tolerance(1e-15));
  BOOST_TEST(y[0] == q0 + h * p1 / model.mass, tolerance(1e-15));
  BOOST_TEST(y[2] == h * model.damping * v0 * v0, tolerance(1e-15));
}

// Over about 10^4 periods of the trolley's oscillation (16.5 rad/s) on the undamped crane,
// Störmer–Verlet's δ_C stays where it was after the first hundred, in both forms, while rk2's
// grows until the energy is gone.
BOOST_AUTO_TEST_CASE(verlet_keeps_the_energy_error_bounded_where_rk2_lets_it_grow) {
  Crane crane;
  crane.k = 0.0;
  const auto start = crane.initial_state();
  const ea::LagrangeSystem<Crane> lagrange(crane);
  const ea::HamiltonSystem<Crane> hamilton(crane);
  const double h = 4e-3, short_run = 40.0, long_run = 4000.0;
  const auto delta = [&](const auto& system, const ea::Vector& y0, ea::FixedStepMethod method, double t_end) {
    return run(system, y0, method, h, t_end).audit.relative_drift();
  };
  const auto verlet = ea::FixedStepMethod::of<ea::methods::Verlet>();
  const auto rk2 = ea::FixedStepMethod::of<ea::methods::Rk2>();
  const ea::Vector y_lagrange = lagrange.initial_state(start.q, start.v);
  const ea::Vector y_hamilton = hamilton.initial_state(start.q, start.v, 0.0);
  for (const bool hamilton_form : {false, true}) {
    BOOST_TEST_CONTEXT((hamilton_form ? "hamilton" : "lagrange")) {
      const double verlet_short = hamilton_form ? delta(hamilton, y_hamilton, verlet, short_run)
                                                : delta(lagrange, y_lagrange, verlet, short_run);
      const double verlet_long = hamilton_form ? delta(hamilton, y_hamilton, verlet, long_run)
                                               : delta(lagrange, y_lagrange, verlet, long_run);
      const double rk2_short = hamilton_form ? delta(hamilton, y_hamilton, rk2, short_run)
                                             : delta(lagrange, y_lagrange, rk2, short_run);
      const double rk2_long = hamilton_form ? delta(hamilton, y_hamilton, rk2, long_run)
                                            : delta(lagrange, y_lagrange, rk2, long_run);
      BOOST_TEST_MESSAGE("verlet " << verlet_short << " -> " << verlet_long << ", rk2 " << rk2_short << " -> "
                                   << rk2_long);
      BOOST_TEST(verlet_long < 1.5 * verlet_short);
      BOOST_TEST(rk2_long > 4 * rk2_short);
      BOOST_TEST(verlet_long < rk2_long / 100);
    }
  }
}
