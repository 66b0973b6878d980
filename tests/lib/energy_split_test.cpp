// The automatic T2 / T1 / T0 split, the automatic dT/dt and dV/dt, Ż and the derived
// accelerations, against hand formulas on a rheonomic pendulum; C constant while E is not.
#include <algorithm>
#include <cmath>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/energy_flow.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "moving_support_pendulum.hpp"

namespace ea = energy_audit;
using energy_audit::testing::MovingSupportPendulum;
using Coordinates = MovingSupportPendulum::Coordinates<double>;
using boost::test_tools::tolerance;

namespace {
struct Probe {
  double theta, theta_dot, t;
};
const Probe probes[] = {{0.3, -1.1, 0.0}, {-1.2, 0.4, 0.7}, {2.5, 3.0, 1.9}, {0.0, 0.0, 0.33}};
}  // namespace

BOOST_AUTO_TEST_CASE(split_matches_hand_formulas) {
  const MovingSupportPendulum model;
  for (const Probe& p : probes) {
    const ea::EnergyTerms e = ea::energy_terms(model, Coordinates(p.theta), Coordinates(p.theta_dot), p.t);
    BOOST_TEST(e.T2 == model.T2(p.theta_dot), tolerance(1e-12));
    BOOST_TEST(e.T1 == model.T1(p.theta, p.theta_dot, p.t), tolerance(1e-12));
    BOOST_TEST(e.T0 == model.T0(p.t), tolerance(1e-12));
    BOOST_TEST(e.T == e.T2 + e.T1 + e.T0, tolerance(1e-12));
    BOOST_TEST(e.V == model.V(p.theta, p.t), tolerance(1e-12));
    BOOST_TEST(e.H() == e.T2 - e.T0 + e.V, tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(explicit_time_derivatives_and_energy_flow_match_hand_formulas) {
  const MovingSupportPendulum model;
  for (const Probe& p : probes) {
    const Coordinates q(p.theta), v(p.theta_dot);
    const ea::ExplicitTimeDerivatives d = ea::explicit_time_derivatives(model, q, v, p.t);
    BOOST_TEST(d.T_t == model.T_t(p.theta, p.theta_dot, p.t), tolerance(1e-12));
    BOOST_TEST(d.V_t == model.V_t(p.t), tolerance(1e-12));
    const double z_dot = model.T_t(p.theta, p.theta_dot, p.t) - model.V_t(p.t) + model.c * p.theta_dot * p.theta_dot;
    BOOST_TEST(ea::energy_flow_rate(model, q, v, p.t) == z_dot, tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(derived_accelerations_match_hand_derivation) {
  const MovingSupportPendulum model;
  for (const Probe& p : probes) {
    const Coordinates q(p.theta), v(p.theta_dot);
    const double hand = model.accelerations(q, v, p.t)[0];
    BOOST_TEST(ea::derived_accelerations(model, q, v, p.t)[0] == hand, tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(control_function_is_constant_while_energy_is_not) {
  const MovingSupportPendulum model;
  for (const auto source : {ea::AccelerationSource::Hand, ea::AccelerationSource::Derived}) {
    const ea::LagrangeSystem<MovingSupportPendulum> system(model, source);
    ea::Vector y = system.initial_state(Coordinates(0.4), Coordinates(0.0));
    ea::FixedStepper stepper(ea::methods::Rk4{});
    ea::Audit audit;
    double E0 = 0, max_energy_change = 0;
    ea::integrate_const(stepper, system, y, 0.0, 10.0, 1e-3, [&](const ea::ConstVectorRef& state, double t) {
      const ea::EnergySample sample = system.sample(state, t);
      audit.record(sample);
      if (t == 0.0) E0 = sample.energy.E();
      max_energy_change = std::max(max_energy_change, std::abs(sample.energy.E() - E0));
    });
    BOOST_TEST(audit.relative_drift() < 1e-9);
    BOOST_TEST(max_energy_change / audit.energy_scale() > 1e-2);  // the support pumps energy in and out
  }
}

namespace {
// Declares itself scleronomic although its support moves.
struct FalselyScleronomic : MovingSupportPendulum {
  static constexpr bool scleronomic = true;
};
}  // namespace

BOOST_AUTO_TEST_CASE(false_scleronomic_declaration_is_refused) {
  BOOST_CHECK_THROW(ea::LagrangeSystem<FalselyScleronomic>{FalselyScleronomic{}}, ea::InvalidArgument);
}
