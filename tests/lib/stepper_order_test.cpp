// Every fixed-step method's order on the harmonic oscillator, against its closed form: the
// global error falls by about 2^p when h halves.
#include <cmath>

#include <boost/test/unit_test.hpp>

#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "oscillator.hpp"

namespace ea = energy_audit;
using energy_audit::testing::Oscillator;

namespace {

double position_error(ea::FixedStepMethod method, double h) {
  const Oscillator model;
  const ea::LagrangeSystem<Oscillator> system(model);
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(1.0), Oscillator::Coordinates<double>(0.0));
  ea::FixedStepper stepper(method);
  const double t_end = 2.0;
  ea::integrate_const(stepper, system, y, 0.0, t_end, h);
  return std::hypot(y[0] - model.exact_position(1.0, t_end), (y[1] - model.exact_velocity(1.0, t_end)) / 3.0);
}

struct Expected {
  ea::FixedStepMethod method;
  int order;
};

const Expected expected_orders[] = {
    {ea::FixedStepMethod::Euler, 1}, {ea::FixedStepMethod::EulerCromer, 1}, {ea::FixedStepMethod::Rk2, 2},
    {ea::FixedStepMethod::Rk3, 3},   {ea::FixedStepMethod::Rk4, 4},         {ea::FixedStepMethod::Rkg, 4},
};

}  // namespace

BOOST_AUTO_TEST_CASE(error_falls_by_two_to_the_order_per_halving) {
  for (const Expected& expected : expected_orders) {
  BOOST_TEST_CONTEXT(ea::info(expected.method).name) {
  const double h = 1e-2;
  const double coarse = position_error(expected.method, h);
  const double fine = position_error(expected.method, h / 2);
  const double finer = position_error(expected.method, h / 4);
  BOOST_TEST_MESSAGE(ea::info(expected.method).name << ": errors " << coarse << ", " << fine << ", " << finer);
  BOOST_TEST(std::log2(coarse / fine) == expected.order, boost::test_tools::tolerance(0.15 / expected.order));
  BOOST_TEST(std::log2(fine / finer) == expected.order, boost::test_tools::tolerance(0.1 / expected.order));
  BOOST_TEST(ea::info(expected.method).order == expected.order);
  }
  }
}

BOOST_AUTO_TEST_CASE(tableaus_are_consistent) {
  for (const auto& tableau : {ea::euler_tableau(), ea::heun_tableau(), ea::kutta3_tableau(), ea::rk4_tableau(),
                              ea::gill_tableau()}) {
    double b_sum = 0;
    for (int i = 0; i < tableau.stages; ++i) {
      b_sum += tableau.b[i];
      double row_sum = 0;
      for (int j = 0; j < i; ++j) row_sum += tableau.a[i][j];
      BOOST_TEST(row_sum == tableau.c[i], boost::test_tools::tolerance(1e-15));
    }
    BOOST_TEST(b_sum == 1.0, boost::test_tools::tolerance(1e-15));
  }
}

BOOST_AUTO_TEST_CASE(euler_cromer_carries_z_with_the_old_velocity) {
  // One step by hand (seed 002 eq. 21): v1 = v0 + h a(q0, v0); Z1 = h c v0^2; q1 = q0 + h v1.
  Oscillator model;
  model.damping = 0.5;
  const ea::LagrangeSystem<Oscillator> system(model);
  const double q0 = 0.3, v0 = -1.2, h = 0.01;
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(q0), Oscillator::Coordinates<double>(v0));
  ea::FixedStepper stepper(ea::FixedStepMethod::EulerCromer);
  stepper.do_step(system, y, 0.0, h);
  const double v1 = v0 + h * (-model.damping * v0 - model.stiffness * q0) / model.mass;
  BOOST_TEST(y[1] == v1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(y[0] == q0 + h * v1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(y[2] == h * model.damping * v0 * v0, boost::test_tools::tolerance(1e-15));
}
