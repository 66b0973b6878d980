// cvode_drop_in.hpp, ida_drop_in.hpp and drop_in_energies.hpp compile after the macros SUNDIALS' C examples define,
// and the macros are the program's again after them. Boost.Test comes first: it is not under test
// (Boost.MPL itself names T1, T2, ...).
// clang-format off
#include <boost/test/unit_test.hpp>

#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
// clang-format on

#include "sundials_example_macros.h"

#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_energies.hpp>
#include <energy_audit/sundials/ida_drop_in.hpp>

// A model header written after the macros, as a program would include its own.
#include "oscillator.hpp"

BOOST_AUTO_TEST_CASE(header_compiles_after_sundials_example_macros) {
  energy_audit::sun::CvodeAudit audit(
      1,
      {[](const double*, const double* v, double) { return 0.5 * v[0] * v[0]; },
       [](const double* q, double) { return 0.5 * q[0] * q[0]; }},
      2e-3);
  BOOST_TEST(audit.threshold() == 2e-3);
  BOOST_TEST(audit.dofs() == 1);
  BOOST_TEST(audit.audited_steps() == 0);
  BOOST_TEST(!audit.passed());                    // nothing audited yet
  BOOST_TEST(NEQ + Y1 + ONE + T0 + ZERO == 5.0);  // the macros are still the program's
}

BOOST_AUTO_TEST_CASE(ida_header_compiles_after_sundials_example_macros) {
  energy_audit::sun::DropInEnergies energies{[](const double*, const double* v, double) { return 0.5 * v[0] * v[0]; },
                                             [](const double* q, double) { return 0.5 * q[0] * q[0]; }};
  energies.constraint_power = [](const double*, const double*, const double* multipliers, double) {
    return multipliers[0];
  };
  const energy_audit::sun::IdaAudit audit(1, energies, 2e-3);
  BOOST_TEST(audit.threshold() == 2e-3);
  BOOST_TEST(audit.audited_steps() == 0);
  BOOST_TEST(!audit.passed());
  BOOST_TEST(NEQ + Y1 + ONE + T0 + ZERO == 5.0);
}

BOOST_AUTO_TEST_CASE(energies_from_a_model_compile_after_sundials_example_macros) {
  const energy_audit::sun::CvodeAudit audit = energy_audit::sun::make_cvode_audit(energy_audit::testing::Oscillator{});
  BOOST_TEST(audit.dofs() == 1);
  const energy_audit::sun::DropInEnergies energies = energy_audit::sun::energies_from_model(energy_audit::testing::Oscillator{});
  const double q = 2.0, v = 3.0;
  BOOST_TEST(energies.kinetic_energy(&q, &v, 0.0) + energies.potential_energy(&q, 0.0) == 45.0);  // ½ 2 3² + ½ 18 2²
  BOOST_TEST(T0 + T1 + T2 + T3 + C3 + L == 7.4, boost::test_tools::tolerance(1e-15));  // restored
}
