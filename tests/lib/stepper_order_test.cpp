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

}  // namespace

// The order each method claims in the list (FixedStepMethods) is the one it shows.
BOOST_AUTO_TEST_CASE(error_falls_by_two_to_the_order_per_halving) {
  for (const ea::FixedStepMethod method : ea::FixedStepMethod::all()) {
    const int order = method.info().order;
    BOOST_TEST_CONTEXT(method.info().name) {
      const double h = 1e-2;
      const double coarse = position_error(method, h);
      const double fine = position_error(method, h / 2);
      const double finer = position_error(method, h / 4);
      BOOST_TEST_MESSAGE(method.info().name << ": errors " << coarse << ", " << fine << ", " << finer);
      BOOST_TEST(std::log2(coarse / fine) == order, boost::test_tools::tolerance(0.15 / order));
      BOOST_TEST(std::log2(fine / finer) == order, boost::test_tools::tolerance(0.1 / order));
    }
  }
  BOOST_TEST(ea::FixedStepMethod::all().size() == ea::fixed_step_methods().size());
  BOOST_TEST(ea::FixedStepMethod::named("verlet")->info().order == 2);
  BOOST_TEST(!ea::FixedStepMethod::named("rk5"));
}

namespace {

// Σ b = 1 and c_i = Σ_j a_ij, for tableaus of any number of stages.
template <class Tableau>
void check_consistent(const Tableau& tableau) {
  double b_sum = 0;
  for (int i = 0; i < Tableau::stages; ++i) {
    b_sum += tableau.b[i];
    double row_sum = 0;
    for (int j = 0; j < i; ++j) row_sum += tableau.a[i][j];
    BOOST_TEST(row_sum == tableau.c[i], boost::test_tools::tolerance(1e-15));
  }
  BOOST_TEST(b_sum == 1.0, boost::test_tools::tolerance(1e-15));
}

// A six-stage scheme (Butcher's fifth-order method) runs through the same generic loop.
constexpr ea::ButcherTableau<6> butcher5_tableau() {
  return {.a = {{{},
                 {0.25},
                 {0.125, 0.125},
                 {0.0, -0.5, 1.0},
                 {3.0 / 16.0, 0.0, 0.0, 9.0 / 16.0},
                 {-3.0 / 7.0, 2.0 / 7.0, 12.0 / 7.0, -12.0 / 7.0, 8.0 / 7.0}}},
          .b = {7.0 / 90.0, 0.0, 32.0 / 90.0, 12.0 / 90.0, 32.0 / 90.0, 7.0 / 90.0},
          .c = {0.0, 0.25, 0.25, 0.5, 0.75, 1.0}};
}

double butcher5_error(double h) {
  const Oscillator model;
  const ea::LagrangeSystem<Oscillator> system(model);
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(1.0), Oscillator::Coordinates<double>(0.0));
  ea::ExplicitRungeKutta<butcher5_tableau()> stepper;
  ea::integrate_const(stepper, system, y, 0.0, 2.0, h);
  return std::abs(y[0] - model.exact_position(1.0, 2.0));
}

}  // namespace

BOOST_AUTO_TEST_CASE(tableaus_are_consistent) {
  check_consistent(ea::euler_tableau());
  check_consistent(ea::heun_tableau());
  check_consistent(ea::kutta3_tableau());
  check_consistent(ea::rk4_tableau());
  check_consistent(ea::gill_tableau());
  check_consistent(butcher5_tableau());
}

BOOST_AUTO_TEST_CASE(a_scheme_of_more_than_four_stages_runs_at_its_order) {
  const double coarse = butcher5_error(4e-2), fine = butcher5_error(2e-2);
  BOOST_TEST(std::log2(coarse / fine) == 5.0, boost::test_tools::tolerance(0.06));
  BOOST_TEST(ea::ExplicitRungeKutta<butcher5_tableau()>{}.evaluations_per_step() == 6);
}

BOOST_AUTO_TEST_CASE(euler_cromer_carries_z_with_the_old_velocity) {
  // One step by hand (seed 002 eq. 21): v1 = v0 + h a(q0, v0); Z1 = h c v0^2; q1 = q0 + h v1.
  Oscillator model;
  model.damping = 0.5;
  const ea::LagrangeSystem<Oscillator> system(model);
  const double q0 = 0.3, v0 = -1.2, h = 0.01;
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(q0), Oscillator::Coordinates<double>(v0));
  ea::FixedStepper stepper(ea::methods::EulerCromer{});
  stepper.do_step(system, y, 0.0, h);
  const double v1 = v0 + h * (-model.damping * v0 - model.stiffness * q0) / model.mass;
  BOOST_TEST(y[1] == v1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(y[0] == q0 + h * v1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(y[2] == h * model.damping * v0 * v0, boost::test_tools::tolerance(1e-15));
}
