// The N-link pendulum chain of the scale benchmarks: its hand accelerations against the simple
// pendulum's closed form (N = 1) and against the accelerations the library derives from the
// chain's T, V and f (N = 2, 5, 8), and an audited run whose C stays constant.

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "pendulum_chain.hpp"

namespace ea = energy_audit;
using ea::testing::PendulumChain;

BOOST_AUTO_TEST_CASE(one_link_is_the_damped_simple_pendulum) {
  const PendulumChain<1> chain;
  const double theta = 0.7, omega = -1.3;
  const double expected = -chain.g / chain.l * std::sin(theta) - chain.c * omega / (chain.m * chain.l * chain.l);
  const auto a = chain.accelerations(PendulumChain<1>::Coordinates<double>(theta),
                                     PendulumChain<1>::Coordinates<double>(omega), 0.0);
  BOOST_TEST(a[0] == expected, boost::test_tools::tolerance(1e-14));
}

template <int N>
void check_hand_against_derived() {
  const PendulumChain<N> chain;
  std::mt19937 random(N);
  std::uniform_real_distribution<double> angle(-2.0, 2.0), rate(-3.0, 3.0);
  for (int trial = 0; trial < 5; ++trial) {
    typename PendulumChain<N>::template Coordinates<double> q, v;
    for (int i = 0; i < N; ++i) {
      q[i] = angle(random);
      v[i] = rate(random);
    }
    const auto hand = chain.accelerations(q, v, 0.0);
    const auto derived = ea::derived_accelerations(chain, q, v, 0.0);
    BOOST_TEST((hand - derived).norm() <= 1e-10 * (1.0 + derived.norm()), "N = " << N << ": " << (hand - derived).norm());
  }
}

BOOST_AUTO_TEST_CASE(hand_accelerations_solve_lagrange_equations_of_the_energies) {
  check_hand_against_derived<2>();
  check_hand_against_derived<5>();
  check_hand_against_derived<8>();
}

BOOST_AUTO_TEST_CASE(an_audited_run_of_ten_links_passes_and_its_delta_C_falls_at_fourth_order) {
  const PendulumChain<10> chain;
  const ea::LagrangeSystem<PendulumChain<10>> system(chain);
  const auto rk4 = ea::FixedStepMethod::of<ea::methods::Rk4>();
  double previous = 0;
  for (const double h : {2e-3, 1e-3}) {
    ea::Vector y = system.initial_state(chain.start_angles(), PendulumChain<10>::Coordinates<double>::Zero());
    ea::Audit audit;
    ea::FixedStepper stepper(rk4);
    const ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, 2.0, h, ea::watch(system, audit));
    BOOST_TEST_REQUIRE(result.finished());
    BOOST_TEST(audit.passed());
    BOOST_TEST(audit.equation_check().relative_residual() < 1e-12);
    if (previous > 0) BOOST_TEST(std::log2(previous / audit.relative_drift()) > 3.5);
    previous = audit.relative_drift();
  }
}

// Beyond max_dofs_for_lagrange_terms coordinates the library cannot take M and r by nested
// forward mode: a model that large runs on its hand accelerations, unchecked, and asking for
// derived ones is refused.
BOOST_AUTO_TEST_CASE(thirty_links_run_on_hand_accelerations_without_the_equation_check) {
  static_assert(30 > ea::max_dofs_for_lagrange_terms);
  using Chain = PendulumChain<30>;
  const Chain chain;
  BOOST_CHECK_THROW(ea::LagrangeSystem<Chain>(chain, ea::AccelerationSource::Derived), ea::InvalidArgument);
  const ea::LagrangeSystem<Chain> system(chain);
  BOOST_TEST(!system.checks_equations());
  ea::Vector y = system.initial_state(chain.start_angles(), Chain::Coordinates<double>::Zero());
  ea::Audit audit;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  BOOST_TEST_REQUIRE(ea::integrate_const(stepper, system, y, 0.0, 0.2, 1e-3, ea::watch(system, audit)).finished());
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.equation_check().checked_steps() == 0u);
}
