// The C interface of the drop-in audit (cvode_drop_in.h) from a program compiled as C99
// (c_drop_in_program.c): the solution bit for bit that of plain CVode, Z against the energy the
// damper took, user_data reaching the energy functions, and errors as return codes with one-line
// messages, a failure inside the audit as well as a bad argument. c_header_after_macros.c compiles the header
// as C after SUNDIALS' example macros.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <energy_audit/sundials/ida_drop_in.h>

#include "c_drop_in_program.h"

extern "C" double c_header_macros_sum(void);

namespace {

constexpr int outputs = 10;

/// A handle freed at the end of the test.
struct Audit {
  EaCvodeAudit* handle;
  ~Audit() { ea_cvode_audit_free(handle); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_audit_leaves_the_solution_bit_for_bit_and_passes) {
  OscillatorData plain_data{2.0, 0.4, 18.0, 0}, audited_data{2.0, 0.4, 18.0, 0};
  std::vector<double> plain(2 * outputs), audited(2 * outputs);
  BOOST_TEST_REQUIRE(run_oscillator(&plain_data, nullptr, 2, outputs, -1, plain.data()) == 0);
  const Audit audit{oscillator_audit(&audited_data, 1)};
  BOOST_TEST_REQUIRE(audit.handle != nullptr);
  BOOST_TEST_REQUIRE(run_oscillator(&audited_data, audit.handle, 2, outputs, -1, audited.data()) == 0,
                     ea_cvode_audit_last_error(audit.handle));
  for (int i = 0; i < 2 * outputs; ++i) BOOST_TEST(plain[i] == audited[i]);  // exactly
  BOOST_TEST(plain_data.energy_calls == 0);
  BOOST_TEST(audited_data.energy_calls > 0);  // the program's user_data reached T, V and P
  BOOST_TEST(ea_cvode_audit_passed(audit.handle) == 1);
  BOOST_TEST(std::string(ea_cvode_audit_verdict(audit.handle)) == "pass");
  BOOST_TEST(ea_cvode_audit_relative_drift(audit.handle) < 1e-7);
  BOOST_TEST(ea_cvode_audit_steps(audit.handle) > 0);
  BOOST_TEST(ea_cvode_audit_first_step_above_threshold(audit.handle) == -1);  // δ_C never crossed it
  BOOST_TEST(std::isnan(ea_cvode_audit_time_first_above_threshold(audit.handle)));
  BOOST_TEST(std::string(ea_cvode_audit_diagnosis(audit.handle)).empty());
  BOOST_TEST(std::string(ea_cvode_audit_last_error(audit.handle)).empty());
  // At the last audited step (CVODE's step past t = 5), Z is the energy the damper took: the
  // initial ½ k q0² = 9 J less the energy of the closed-form motion
  // q = e^(-γt) (cos ω_d t + γ/ω_d sin ω_d t), γ = c / 2m, ω_d² = k/m − γ².
  EaCvodeAuditEnergies last{};
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(audit.handle, &last) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST((last.t >= 5.0 && last.t < 5.1));
  const double gamma = 0.4 / (2 * 2.0), w2 = 18.0 / 2.0, wd = std::sqrt(w2 - gamma * gamma), t = last.t;
  const double q = std::exp(-gamma * t) * (std::cos(wd * t) + gamma / wd * std::sin(wd * t));
  const double v = -std::exp(-gamma * t) * (w2 / wd) * std::sin(wd * t);
  const double energy = 0.5 * 2.0 * v * v + 0.5 * 18.0 * q * q;
  BOOST_TEST(last.kinetic + last.potential == energy, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(last.energy_flow == 9.0 - energy, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(last.control == 9.0, boost::test_tools::tolerance(1e-7));
}

// The work ledger through the C interface: the damper as a named term gives Z of the damper
// given as the power at creation, and its work is −Z.
BOOST_AUTO_TEST_CASE(a_named_power_term_is_the_ledger_of_z) {
  OscillatorData whole_data{2.0, 0.4, 18.0, 0}, named_data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  const Audit whole{oscillator_audit(&whole_data, 1)}, named{oscillator_ledger_audit(&named_data)};
  BOOST_TEST_REQUIRE(ea_cvode_audit_named_power_count(named.handle) == 1);
  BOOST_TEST(ea_cvode_audit_named_power_count(whole.handle) == 0);
  BOOST_TEST_REQUIRE(run_oscillator(&whole_data, whole.handle, 2, outputs, -1, states.data()) == 0);
  BOOST_TEST_REQUIRE(run_oscillator(&named_data, named.handle, 2, outputs, -1, states.data()) == 0,
                     ea_cvode_audit_last_error(named.handle));
  EaCvodeAuditEnergies whole_last{}, named_last{};
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(whole.handle, &whole_last) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(named.handle, &named_last) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST(named_last.energy_flow == whole_last.energy_flow, boost::test_tools::tolerance(1e-14));
  double work = 0;
  BOOST_TEST_REQUIRE(ea_cvode_audit_named_work(named.handle, 0, &work) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST(work == -named_last.energy_flow, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(work < -1.0);
  BOOST_TEST(ea_cvode_audit_named_work(named.handle, 1, &work) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_cvode_audit_add_named_power(named.handle, "late", nullptr) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_cvode_audit_passed(named.handle) == 1);
}

BOOST_AUTO_TEST_CASE(errors_are_return_codes_with_messages) {
  OscillatorData data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  {
    const Audit no_dofs{oscillator_audit(&data, 0)};
    BOOST_TEST_REQUIRE(no_dofs.handle != nullptr);
    BOOST_TEST(std::string(ea_cvode_audit_last_error(no_dofs.handle)) ==
               "CvodeAudit: dofs = 0; the number of coordinates must be > 0");
    BOOST_TEST(run_oscillator(&data, no_dofs.handle, 2, outputs, -1, states.data()) ==
               EA_CVODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(ea_cvode_audit_passed(no_dofs.handle) == 0);
  }
  {
    const Audit no_kinetic{ea_cvode_audit_create(1, nullptr, nullptr, nullptr, nullptr, 1e-3)};
    BOOST_TEST(std::string(ea_cvode_audit_last_error(no_kinetic.handle)).find("kinetic energy function is NULL") !=
               std::string::npos);
  }
  {
    const Audit too_many_dofs{oscillator_audit(&data, 2)};  // the state holds q and v of one coordinate
    BOOST_TEST(run_oscillator(&data, too_many_dofs.handle, 2, outputs, -1, states.data()) ==
               EA_CVODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(std::string(ea_cvode_audit_last_error(too_many_dofs.handle)) ==
               "CvodeAudit: the CVODE state has 2 entries; the audit of 2 coordinates needs y = [q, v], at least 4");
  }
  {
    const Audit rates_late{oscillator_audit(&data, 1)};
    BOOST_TEST(ea_cvode_audit_set_energy_rates(rates_late.handle, nullptr, nullptr) == EA_CVODE_AUDIT_SUCCESS);
    BOOST_TEST_REQUIRE(run_oscillator(&data, rates_late.handle, 2, 1, -1, states.data()) == 0);
    BOOST_TEST(ea_cvode_audit_set_energy_rates(rates_late.handle, nullptr, nullptr) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(std::string(ea_cvode_audit_last_error(rates_late.handle)).find("before the first") != std::string::npos);
  }
  {
    // Any int is a dofs to check against the state, not a size to allocate up front: the handle
    // is made, and the call refuses the short state.
    const Audit huge_dofs{oscillator_audit(&data, std::numeric_limits<int>::max())};
    BOOST_TEST_REQUIRE(std::string(ea_cvode_audit_last_error(huge_dofs.handle)).empty());
    BOOST_TEST(run_oscillator(&data, huge_dofs.handle, 2, outputs, -1, states.data()) ==
               EA_CVODE_AUDIT_INVALID_ARGUMENT);
    BOOST_TEST(
        std::string(ea_cvode_audit_last_error(huge_dofs.handle)) ==
        "CvodeAudit: the CVODE state has 2 entries; the audit of 2147483647 coordinates needs y = [q, v], at "
        "least 4294967294");
  }
  // A NULL handle is refused, not dereferenced.
  sunrealtype t = 0;
  BOOST_TEST(ea_cvode_audit(nullptr, nullptr, 1.0, nullptr, &t, 1) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_cvode_audit_passed(nullptr) == 0);
  BOOST_TEST(std::isnan(ea_cvode_audit_relative_drift(nullptr)));
  BOOST_TEST(ea_cvode_audit_first_step_above_threshold(nullptr) == -1);
  BOOST_TEST(std::isnan(ea_cvode_audit_time_first_above_threshold(nullptr)));
  BOOST_TEST(ea_ida_audit_first_step_above_threshold(nullptr) == -1);
  BOOST_TEST(std::isnan(ea_ida_audit_time_first_above_threshold(nullptr)));
  ea_cvode_audit_free(nullptr);
}

// Z as CVODES' quadrature and T declared quadratic, set from C before the first call: the same
// solution bit for bit as the audit on the interpolant (itself that of plain CVode, above), Z
// within 1e-7 of its Z (both carry the run's error, at rtol 1e-10), a pass; both options are
// refused after the first call.
BOOST_AUTO_TEST_CASE(z_as_the_solvers_quadrature_and_a_quadratic_t_from_c) {
  OscillatorData interpolant_data{2.0, 0.4, 18.0, 0}, quadrature_data{2.0, 0.4, 18.0, 0};
  std::vector<double> on_interpolant(2 * outputs), as_quadrature(2 * outputs);
  const Audit interpolant{oscillator_audit(&interpolant_data, 1)}, quadrature{oscillator_audit(&quadrature_data, 1)};
  BOOST_TEST(ea_cvode_audit_integrate_flow_as_quadrature(quadrature.handle) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST(ea_cvode_audit_declare_quadratic_kinetic_energy(quadrature.handle) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST_REQUIRE(run_oscillator(&interpolant_data, interpolant.handle, 2, outputs, -1, on_interpolant.data()) == 0);
  BOOST_TEST_REQUIRE(run_oscillator(&quadrature_data, quadrature.handle, 2, outputs, -1, as_quadrature.data()) == 0,
                     ea_cvode_audit_last_error(quadrature.handle));
  BOOST_TEST(on_interpolant == as_quadrature, boost::test_tools::per_element());  // exactly
  EaCvodeAuditEnergies by_gauss{}, by_quadrature{};
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(interpolant.handle, &by_gauss) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(quadrature.handle, &by_quadrature) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST(by_quadrature.t == by_gauss.t);
  BOOST_TEST(by_quadrature.energy_flow == by_gauss.energy_flow, boost::test_tools::tolerance(1e-7));
  BOOST_TEST(ea_cvode_audit_passed(quadrature.handle) == 1);
  BOOST_TEST(std::string(ea_cvode_audit_diagnosis(quadrature.handle)).empty());
  BOOST_TEST(ea_cvode_audit_integrate_flow_as_quadrature(quadrature.handle) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(ea_cvode_audit_declare_quadratic_kinetic_energy(quadrature.handle) ==
             EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(std::string(ea_cvode_audit_last_error(quadrature.handle)).find("before the first") !=
             std::string::npos);
  BOOST_TEST(ea_cvode_audit_integrate_flow_as_quadrature(nullptr) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
}

// A step the program takes with plain CVode between two audited calls cannot be audited: the
// next call fails with EA_CVODE_AUDIT_FAILED, not EA_CVODE_AUDIT_INVALID_ARGUMENT (the arguments
// are fine), and the message says what happened; the audit is then incomplete and cannot pass.
BOOST_AUTO_TEST_CASE(a_step_taken_beside_the_audit_is_a_failure_with_its_message) {
  OscillatorData data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  const Audit audit{oscillator_audit(&data, 1)};
  BOOST_TEST(run_oscillator(&data, audit.handle, 2, outputs, 3, states.data()) == EA_CVODE_AUDIT_FAILED);
  BOOST_TEST(std::string(ea_cvode_audit_last_error(audit.handle)) ==
             "CvodeAudit: 1 CVODE step(s) were taken outside CvodeAudit::CVode and cannot be audited");
  BOOST_TEST(std::string(ea_cvode_audit_verdict(audit.handle)) == "incomplete");
  BOOST_TEST(ea_cvode_audit_passed(audit.handle) == 0);
}

// Energy functions written in C++ that throw what is not a std::exception (here the int 42) once
// t passes 1 s: the exception stops at the C interface, whose call fails with
// EA_CVODE_AUDIT_FAILED and a message, the audit on the interpolant (the throwing T) and Z as
// CVODES' quadrature (the throwing power, inside the solver's callback) alike; a step went
// unaudited, so the audit does not pass.
namespace {

double kinetic_throwing_after_one_second(const double*, const double* v, double t, void* user_data) {
  if (t > 1.0) throw 42;
  return 0.5 * static_cast<OscillatorData*>(user_data)->m * v[0] * v[0];
}

double potential_of(const double* q, double, void* user_data) {
  return 0.5 * static_cast<OscillatorData*>(user_data)->k * q[0] * q[0];
}

double kinetic_of(const double*, const double* v, double, void* user_data) {
  return 0.5 * static_cast<OscillatorData*>(user_data)->m * v[0] * v[0];
}

double damper_power_throwing_after_one_second(const double*, const double* v, double t, void* user_data) {
  if (t > 1.0) throw 42;
  return -static_cast<OscillatorData*>(user_data)->c * v[0] * v[0];
}

double damper_power(const double*, const double* v, double, void* user_data) {
  return -static_cast<OscillatorData*>(user_data)->c * v[0] * v[0];
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_cpp_energy_function_throwing_a_non_std_exception_fails_the_call_with_a_message) {
  struct Case {
    const char* what;
    EaKineticEnergyFn kinetic;
    EaPowerFn power;
    bool flow_as_quadrature;
  };
  for (const Case& c : {Case{"T throws 42", kinetic_throwing_after_one_second, damper_power, false},
                        Case{"P throws 42 inside CVODES", kinetic_of, damper_power_throwing_after_one_second, true}}) {
    BOOST_TEST_CONTEXT(c.what) {
      OscillatorData data{2.0, 0.4, 18.0, 0};
      std::vector<double> states(2 * outputs);
      const Audit audit{ea_cvode_audit_create(1, c.kinetic, potential_of, c.power, &data, 1.0e-3)};
      BOOST_TEST_REQUIRE(audit.handle != nullptr);
      if (c.flow_as_quadrature) {
        BOOST_TEST_REQUIRE(ea_cvode_audit_integrate_flow_as_quadrature(audit.handle) == EA_CVODE_AUDIT_SUCCESS);
      }
      BOOST_TEST(run_oscillator(&data, audit.handle, 2, outputs, -1, states.data()) == EA_CVODE_AUDIT_FAILED);
      BOOST_TEST(std::string(ea_cvode_audit_last_error(audit.handle)) == "the audit failed with an unknown exception");
      BOOST_TEST(ea_cvode_audit_passed(audit.handle) == 0);
      // The steps up to t = 1 s were audited, the one past it not.
      EaCvodeAuditEnergies last{};
      BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(audit.handle, &last) == EA_CVODE_AUDIT_SUCCESS);
      BOOST_TEST((last.t > 0.5 && last.t <= 1.0), "the last audited step ends at t = " << last.t);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_header_compiles_as_c_after_sundials_example_macros) {
  BOOST_TEST(c_header_macros_sum() == 5.0);
}

// Hamilton's form and the whole-state form through the C interface, on the oscillator: the
// solution bit for bit that of plain CVode, a pass, and Z equal to that of the audit of T, V and
// P (the damper's work); the setters of T and V's form refused on them.
BOOST_AUTO_TEST_CASE(the_hamilton_and_whole_state_forms_audit_the_oscillator) {
  OscillatorData plain_data{2.0, 0.4, 18.0, 0}, lagrange_data{2.0, 0.4, 18.0, 0};
  std::vector<double> plain(2 * outputs), states(2 * outputs);
  BOOST_TEST_REQUIRE(run_oscillator(&plain_data, nullptr, 2, outputs, -1, plain.data()) == 0);
  const Audit lagrange{oscillator_audit(&lagrange_data, 1)};
  BOOST_TEST_REQUIRE(run_oscillator(&lagrange_data, lagrange.handle, 2, outputs, -1, states.data()) == 0);
  EaCvodeAuditEnergies reference{};
  BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(lagrange.handle, &reference) == EA_CVODE_AUDIT_SUCCESS);

  for (const bool hamilton : {true, false}) {
    BOOST_TEST_CONTEXT((hamilton ? "Hamilton's form" : "the whole-state form")) {
      OscillatorData data{2.0, 0.4, 18.0, 0};
      const Audit audit{hamilton ? oscillator_hamiltonian_audit(&data) : oscillator_whole_state_audit(&data)};
      BOOST_TEST_REQUIRE(audit.handle != nullptr);
      BOOST_TEST(std::string(ea_cvode_audit_last_error(audit.handle)).empty());
      BOOST_TEST_REQUIRE(run_oscillator(&data, audit.handle, 2, outputs, -1, states.data()) == 0,
                         ea_cvode_audit_last_error(audit.handle));
      for (int i = 0; i < 2 * outputs; ++i) BOOST_TEST(plain[i] == states[i]);
      BOOST_TEST(ea_cvode_audit_passed(audit.handle) == 1);
      BOOST_TEST(ea_cvode_audit_relative_drift(audit.handle) < 1e-7);
      EaCvodeAuditEnergies last{};
      BOOST_TEST_REQUIRE(ea_cvode_audit_last_energies(audit.handle, &last) == EA_CVODE_AUDIT_SUCCESS);
      BOOST_TEST(last.t == reference.t);
      BOOST_TEST(last.energy_flow == reference.energy_flow, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(last.control == reference.control, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(ea_cvode_audit_set_energy_rates(audit.handle, nullptr, nullptr) == EA_CVODE_AUDIT_INVALID_ARGUMENT);
      BOOST_TEST(std::string(ea_cvode_audit_last_error(audit.handle)).find("ea_cvode_audit_set_energy_rates: it sets a "
                                                                             "function of T and V") == 0);
    }
  }
  const Audit missing{ea_cvode_audit_create_whole_state(nullptr, nullptr, nullptr, nullptr, 1e-3)};
  BOOST_TEST(std::string(ea_cvode_audit_last_error(missing.handle)) ==
             "ea_cvode_audit_create_whole_state: the energy function is NULL; E is required");
  const Audit no_hamiltonian{ea_cvode_audit_create_hamiltonian(1, nullptr, nullptr, nullptr, nullptr, 1e-3)};
  BOOST_TEST(std::string(ea_cvode_audit_last_error(no_hamiltonian.handle)) ==
             "ea_cvode_audit_create_hamiltonian: the Hamiltonian function is NULL; H is required");
}

// A layout through the C interface: the oscillator's state padded with two entries the audit
// does not read passes; a layout that does not fit is a return code and a one-line message
// naming the index, at the call that sets it when it declares the state's length, else at the
// first ea_cvode_audit call, before CVODE steps.
BOOST_AUTO_TEST_CASE(layouts_are_set_and_checked_through_the_c_interface) {
  OscillatorData data{2.0, 0.4, 18.0, 0};
  std::vector<double> states(2 * outputs);
  const Audit padded{oscillator_audit(&data, 1)};
  BOOST_TEST_REQUIRE(ea_cvode_audit_set_layout(padded.handle, 4, 0, 1, 1) == EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST_REQUIRE(run_oscillator(&data, padded.handle, 4, outputs, -1, states.data()) == 0,
                     ea_cvode_audit_last_error(padded.handle));
  BOOST_TEST(ea_cvode_audit_passed(padded.handle) == 1);

  const long coordinates[] = {0}, past_end[] = {5};
  const Audit declared{oscillator_audit(&data, 1)};
  BOOST_TEST(ea_cvode_audit_set_layout_indices(declared.handle, 4, coordinates, past_end) ==
             EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(std::string(ea_cvode_audit_last_error(declared.handle)) ==
             "CvodeAudit: the layout has velocities[0] = 5, past the state's 4 entries");

  const Audit undeclared{oscillator_audit(&data, 1)};
  BOOST_TEST_REQUIRE(ea_cvode_audit_set_layout_indices(undeclared.handle, 0, coordinates, past_end) ==
                     EA_CVODE_AUDIT_SUCCESS);
  BOOST_TEST(run_oscillator(&data, undeclared.handle, 4, outputs, -1, states.data()) ==
             EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(std::string(ea_cvode_audit_last_error(undeclared.handle)) ==
             "CvodeAudit: the CVODE state has 4 entries; the layout's velocities[0] = 5 is past its end");
  BOOST_TEST(ea_cvode_audit_steps(undeclared.handle) == 0);

  const Audit null_list{oscillator_audit(&data, 1)};
  BOOST_TEST(ea_cvode_audit_set_layout_indices(null_list.handle, 4, coordinates, nullptr) ==
             EA_CVODE_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(std::string(ea_cvode_audit_last_error(null_list.handle)) ==
             "ea_cvode_audit_set_layout_indices: the velocities' index list is NULL");
}
