// cvode_drop_in.hpp and drop_in_energies.hpp compile after the macros SUNDIALS' C examples define,
// and the macros are the program's again after them. Boost.Test comes first: it is not under test
// (Boost.MPL itself names T1, T2, ...).
// clang-format off
#include <boost/test/unit_test.hpp>

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
// clang-format on

#define T0 SUN_RCONST(0.0)
#define T1 SUN_RCONST(0.4)
#define T2 SUN_RCONST(0.8)
#define T3 SUN_RCONST(1.2)
#define C3 SUN_RCONST(3.0)
#define L SUN_RCONST(2.0)
#define TOUT SUN_RCONST(1.0)
#define TMULT SUN_RCONST(10.0)
#define DTOUT SUN_RCONST(0.5)
#define NEQ 3
#define NOUT 12
#define RTOL SUN_RCONST(1.0e-4)
#define ATOL SUN_RCONST(1.0e-8)
#define ATOL1 SUN_RCONST(1.0e-8)
#define ATOL2 SUN_RCONST(1.0e-14)
#define ATOL3 SUN_RCONST(1.0e-6)
#define Y1 SUN_RCONST(1.0)
#define Y2 SUN_RCONST(0.0)
#define Y3 SUN_RCONST(0.0)
#define ZERO SUN_RCONST(0.0)
#define HALF SUN_RCONST(0.5)
#define ONE SUN_RCONST(1.0)
#define TWO SUN_RCONST(2.0)
#define PI SUN_RCONST(3.141592653589793)
#define GRAV SUN_RCONST(13.75)
#define GSYM "g"
#define ESYM "e"
#define FSYM "f"
#define Ith(v, i) NV_Ith_S(v, i - 1)
#define IJth(A, i, j) SM_ELEMENT_D(A, i - 1, j - 1)
#define SIN(x) (sin((x)))
#define COS(x) (cos((x)))
#define SQRT(x) (sqrt((x)))
#define ABS(x) (fabs((x)))

#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_energies.hpp>

namespace {
// A unit oscillator for energies_from_model, written after the macros as a program would.
struct UnitOscillator {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = energy_audit::VectorN<S, 1>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const { return 0.5 * q[0] * q[0]; }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
};
}  // namespace

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

BOOST_AUTO_TEST_CASE(energies_from_a_model_compile_after_sundials_example_macros) {
  const energy_audit::sun::CvodeAudit audit = energy_audit::sun::make_cvode_audit(UnitOscillator{});
  BOOST_TEST(audit.dofs() == 1);
  const energy_audit::sun::DropInEnergies energies = energy_audit::sun::energies_from_model(UnitOscillator{});
  const double q = 2.0, v = 3.0;
  BOOST_TEST(energies.kinetic_energy(&q, &v, 0.0) + energies.potential_energy(&q, 0.0) == 6.5);
  BOOST_TEST(T0 + T1 + T2 + T3 + C3 + L == 7.4, boost::test_tools::tolerance(1e-15));  // restored
}
