// The energy balance as one line in a user's own Boost.Test suite: the crane integrated by rk4
// at h = 1 ms over its interval must keep C = H + Z to 1e-6 of its energy, and its hand-derived
// accelerations must satisfy Lagrange's equations of its T, V and forces.
#define BOOST_TEST_MODULE crane_energy_balance
#include <boost/test/unit_test.hpp>

#include <energy_audit/testing/check_energy_balance.hpp>

#include "crane.hpp"

BOOST_AUTO_TEST_CASE(crane_keeps_its_energy_balance) {
  EA_CHECK_ENERGY_BALANCE(energy_audit::examples::Crane{}, "rk4", 1e-3, 1e-6);
}
