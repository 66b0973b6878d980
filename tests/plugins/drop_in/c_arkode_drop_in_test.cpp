// The C interface of the ARKODE drop-in audit (arkode_drop_in.h) from a program compiled as C99
// (c_arkode_drop_in_program.c): the solution bit for bit that of plain ERKStepEvolve and
// ARKStepEvolve, Z against the energy the damper took, user_data reaching the energy functions,
// and errors as return codes with one-line messages, a failure inside the audit as well as a bad
// argument.
// c_arkode_header_after_macros.c compiles the header as C after SUNDIALS' example macros.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "c_arkode_drop_in_program.h"

extern "C" double c_arkode_header_macros_sum(void);

namespace {

constexpr int outputs = 10;

/// A handle freed at the end of the test.
struct Audit {
  EaArkodeAudit* handle;
  ~Audit() { ea_arkode_audit_free(handle); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(c_interface)

BOOST_AUTO_TEST_CASE(the_audit_leaves_the_solution_bit_for_bit_and_passes) {
  OscillatorData plain_data{2.0, 0.4, 18.0, 0}, audited_data{2.0, 0.4, 18.0, 0};
  std::vector<double> plain(2 * outputs), audited(2 * outputs);
  BOOST_TEST_REQUIRE(run_oscillator_arkode(&plain_data, nullptr, 0, 2, outputs, -1, plain.data()) == 0);
  const Audit audit{oscillator_arkode_audit(&audited_data, 1)};
  BOOST_TEST_REQUIRE(audit.handle != nullptr);
  BOOST_TEST_REQUIRE(
      run_oscillator_arkode(&audited_data, audit.handle, 0, 2, outputs, -1, audited.data()) == 0,
      ea_arkode_audit_last_error(audit.handle));
  for (int i = 0; i < 2 * outputs; ++i) BOOST_TEST(plain[i] == audited[i]);  // exactly
  BOOST_TEST(plain_data.energy_calls == 0);
  BOOST_TEST(audited_data.energy_calls > 0);  // the program's user_data reached T, V and P
  BOOST_TEST(ea_arkode_audit_passed(audit.handle) == 1);
  BOOST_TEST(std::string(ea_arkode_audit_verdict(audit.handle)) == "pass");
  BOOST_TEST(ea_arkode_audit_relative_drift(audit.handle) < 1e-7);
  BOOST_TEST(ea_arkode_audit_steps(audit.handle) > 0);
  BOOST_TEST(ea_arkode_audit_first_step_above_threshold(audit.handle) == -1);
  BOOST_TEST(std::isnan(ea_arkode_audit_time_first_above_threshold(audit.handle)));
  BOOST_TEST(std::string(ea_arkode_audit_diagnosis(audit.handle)).empty());
  BOOST_TEST(std::string(ea_arkode_audit_last_error(audit.handle)).empty());
  // At the last audited step (ERKStep's step past t = 5), Z is the energy the damper took: the
  // initial ½ k q0² = 9 J less the energy of the closed-form motion
  // q = e^(-γt) (cos ω_d t + γ/ω_d sin ω_d t), γ = c / 2m, ω_d² = k/m − γ².
  EaArkodeAuditEnergies last{};
  BOOST_TEST_REQUIRE(ea_arkode_audit_last_energies(audit.handle, &last) == EA_ARKODE_AUDIT_SUCCESS);
  BOOST_TEST((last.t >= 5.0 && last.t < 5.1));
  const double gamma = 0.4 / (2 * 2.0), w2 = 18.0 / 2.0, wd = std::sqrt(w2 - gamma * gamma), t = last.t;
  const double q = std::exp(-gamma * t) * (std::cos(wd * t) + gamma / wd * std::sin(wd * t));
  const double v = -std::exp(-gamma * t) * (w2 / wd) * std::sin(wd * t);
  const double energy = 0.5 * 2.0 * v * v + 0.5 * 18.0 * q * q;
  BOOST_TEST(last.kinetic + last.potential == energy, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(last.energy_flow == 9.0 - energy, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(last.control == 9.0, boost::test_tools::tolerance(1e-7));
}

// The same through ea_arkode_audit_arkstep_evolve on ARKStep's explicit method.
BOOST_AUTO_TEST_CASE(the_arkstep_evolve_leaves_the_solution_bit_for_bit) {
  OscillatorData plain_data{2.0, 0.4, 18.0, 0}, audited_data{2.0, 0.4, 18.0, 0};
  std::vector<double> plain(2 * outputs), audited(2 * outputs);
  BOOST_TEST_REQUIRE(run_oscillator_arkode(&plain_data, nullptr, 1, 2, outputs, -1, plain.data()) == 0);
  const Audit audit{oscillator_arkode_audit(&audited_data, 1)};
  BOOST_TEST_REQUIRE(
      run_oscillator_arkode(&audited_data, audit.handle, 1, 2, outputs, -1, audited.data()) == 0,
      ea_arkode_audit_last_error(audit.handle));
  for (int i = 0; i < 2 * outputs; ++i) BOOST_TEST(plain[i] == audited[i]);  // exactly
  BOOST_TEST(ea_arkode_audit_passed(audit.handle) == 1);
  BOOST_TEST(ea_arkode_audit_relative_drift(audit.handle) < 1e-7);
  // A step taken beside the audit is named with the function the program called.
  const Audit beside{oscillator_arkode_audit(&audited_data, 1)};
  BOOST_TEST(run_oscillator_arkode(&audited_data, beside.handle, 1, 2, outputs, 3, audited.data()) ==
             EA_ARKODE_AUDIT_FAILED);
  BOOST_TEST(
      std::string(ea_arkode_audit_last_error(beside.handle)) ==
      "ArkodeAudit: 1 ARKODE step(s) were taken outside ArkodeAudit::ARKStepEvolve and cannot be audited");
}

BOOST_AUTO_TEST_CASE(errors_are_return_codes_with_messages) {
  OscillatorData data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  {
    const Audit no_dofs{oscillator_arkode_audit(&data, 0)};
    BOOST_TEST_REQUIRE(no_dofs.handle != nullptr);
    BOOST_TEST(std::string(ea_arkode_audit_last_error(no_dofs.handle)) ==
               "ArkodeAudit: dofs = 0; the number of coordinates must be > 0");
    BOOST_TEST(run_oscillator_arkode(&data, no_dofs.handle, 0, 2, outputs, -1, states.data()) ==
               EA_ARKODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(ea_arkode_audit_passed(no_dofs.handle) == 0);
  }
  {
    const Audit no_kinetic{ea_arkode_audit_create(1, nullptr, nullptr, nullptr, nullptr, 1e-3)};
    BOOST_TEST(std::string(ea_arkode_audit_last_error(no_kinetic.handle)) ==
               "ea_arkode_audit_create: the kinetic energy function is NULL; T and V are required");
  }
  {
    const Audit too_many_dofs{
        oscillator_arkode_audit(&data, 2)};  // the state holds q and v of one coordinate
    BOOST_TEST(run_oscillator_arkode(&data, too_many_dofs.handle, 0, 2, outputs, -1, states.data()) ==
               EA_ARKODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(std::string(ea_arkode_audit_last_error(too_many_dofs.handle)) ==
               "ArkodeAudit: the ARKODE state has 2 entries; the audit of 2 coordinates needs y = [q, v], at "
               "least 4");
  }
  {
    const Audit rates_late{oscillator_arkode_audit(&data, 1)};
    BOOST_TEST(ea_arkode_audit_set_energy_rates(rates_late.handle, nullptr, nullptr) ==
               EA_ARKODE_AUDIT_SUCCESS);
    BOOST_TEST(ea_arkode_audit_declare_quadratic_kinetic_energy(rates_late.handle) == EA_ARKODE_AUDIT_SUCCESS);
    BOOST_TEST_REQUIRE(run_oscillator_arkode(&data, rates_late.handle, 0, 2, 1, -1, states.data()) == 0);
    BOOST_TEST(ea_arkode_audit_passed(rates_late.handle) == 1);
    BOOST_TEST(ea_arkode_audit_declare_quadratic_kinetic_energy(rates_late.handle) ==
               EA_ARKODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(ea_arkode_audit_set_energy_rates(rates_late.handle, nullptr, nullptr) ==
               EA_ARKODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(std::string(ea_arkode_audit_last_error(rates_late.handle)) ==
               "ea_arkode_audit_set_energy_rates: call it before the first ea_arkode_audit call");
  }
  // A NULL handle is refused, not dereferenced.
  sunrealtype t = 0;
  BOOST_TEST(ea_arkode_audit_erkstep_evolve(nullptr, nullptr, 1.0, nullptr, &t, 1) ==
             EA_ARKODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_arkode_audit_arkstep_evolve(nullptr, nullptr, 1.0, nullptr, &t, 1) ==
             EA_ARKODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_arkode_audit_passed(nullptr) == 0);
  BOOST_TEST(std::string(ea_arkode_audit_verdict(nullptr)) == "error");
  BOOST_TEST(std::isnan(ea_arkode_audit_relative_drift(nullptr)));
  BOOST_TEST(ea_arkode_audit_first_step_above_threshold(nullptr) == -1);
  BOOST_TEST(std::isnan(ea_arkode_audit_time_first_above_threshold(nullptr)));
  ea_arkode_audit_free(nullptr);
}

// A step the program takes with plain ERKStepEvolve between two audited calls cannot be audited:
// the next call fails with EA_ARKODE_AUDIT_FAILED, and the message says what happened; the audit
// is then incomplete and cannot pass.
BOOST_AUTO_TEST_CASE(a_step_taken_beside_the_audit_is_a_failure_with_its_message) {
  OscillatorData data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  const Audit audit{oscillator_arkode_audit(&data, 1)};
  BOOST_TEST(run_oscillator_arkode(&data, audit.handle, 0, 2, outputs, 3, states.data()) ==
             EA_ARKODE_AUDIT_FAILED);
  BOOST_TEST(
      std::string(ea_arkode_audit_last_error(audit.handle)) ==
      "ArkodeAudit: 1 ARKODE step(s) were taken outside ArkodeAudit::ERKStepEvolve and cannot be audited");
  BOOST_TEST(std::string(ea_arkode_audit_verdict(audit.handle)) == "incomplete");
  BOOST_TEST(ea_arkode_audit_passed(audit.handle) == 0);
}

BOOST_AUTO_TEST_CASE(the_header_compiles_as_c_after_sundials_example_macros) {
  BOOST_TEST(c_arkode_header_macros_sum() == 5.0);
}

BOOST_AUTO_TEST_SUITE_END()
