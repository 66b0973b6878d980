// The Fortran drop-in (plugins/sundials/fortran/energy_audit_drop_in.f90) as a Fortran user runs
// it: examples/drop_in_cvode/pendulum_cvode_f2003.F90, a damped pendulum on SUNDIALS' Fortran
// 2003 interface with the audit attached, passes (exit 0), and its twin with the damper's sign
// flipped (-DWRONG_SIGN) fails (exit 1). Each, compiled against unaudited/'s stand-in module (plain
// FCVode, no summary), prints on stdout what the audited program prints there less its
// "energy audit: " lines, byte for byte: the solution at the output times to 17 digits and
// CVODE's statistics. The same for the IDA and ARKODE modules' damped oscillators (below).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <boost/test/unit_test.hpp>

#include "program_run.hpp"

namespace {

using Run = energy_audit::testing::ProgramRun;

Run run(const std::string& program) { return energy_audit::testing::run_shell_command("'" + program + "'"); }

// `output` without the lines that start with "energy audit: ".
std::string program_output(const std::string& output) {
  std::string kept;
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t end = std::min(output.find('\n', at), output.size() - 1) + 1;
    if (output.compare(at, 14, "energy audit: ") != 0) kept.append(output, at, end - at);
    at = end;
  }
  return kept;
}

// The value after "energy audit: delta_C = "; NaN if the line is missing.
double delta_c(const std::string& output) {
  const std::string key = "energy audit: delta_C = ";
  const std::size_t at = output.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(output.c_str() + at + key.size(), nullptr);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_fortran_program_passes_and_prints_what_it_prints_unaudited) {
  const Run audited = run(PENDULUM_CVODE_F2003), plain = run(PENDULUM_CVODE_F2003_UNAUDITED);
  BOOST_TEST_MESSAGE(audited.output);
  BOOST_TEST(plain.exit_status == 0);
  BOOST_TEST(plain.output.find("Total internal steps taken") != std::string::npos);
  BOOST_TEST(plain.output.find("energy audit") == std::string::npos);
  BOOST_TEST(program_output(audited.output) == plain.output);
  BOOST_TEST(audited.exit_status == 0);
  BOOST_TEST(delta_c(audited.output) < 1e-6);
  BOOST_TEST(audited.output.find("): pass") != std::string::npos);
  // The summary comes after the program's own output, not inside it.
  BOOST_TEST(audited.output.rfind("Num Jacobian evaluations") < audited.output.find("energy audit: delta_C"));
}

BOOST_AUTO_TEST_CASE(the_wrong_twin_fails_and_prints_what_it_prints_unaudited) {
  const Run audited = run(PENDULUM_CVODE_F2003_WRONG_SIGN),
            plain = run(PENDULUM_CVODE_F2003_WRONG_SIGN_UNAUDITED);
  BOOST_TEST_MESSAGE(audited.output);
  BOOST_TEST(plain.exit_status == 0);
  BOOST_TEST(program_output(audited.output) == plain.output);
  BOOST_TEST(audited.exit_status == 1);
  BOOST_TEST(delta_c(audited.output) > 1e-3);
  BOOST_TEST(audited.output.find("): fail") != std::string::npos);
}

// The IDA and ARKODE drop-ins for Fortran (energy_audit_ida_drop_in, energy_audit_arkode_drop_in):
// damped_oscillator_ida_f2003.F90 on FIDASolve and damped_oscillator_erkstep_f2003.F90 on
// FARKodeEvolve with ERKStep, each audited and against unaudited/'s stand-in, and each with its
// wrong twin. `last_statistic` names the statistics' last line, which the summary must follow.
namespace {

void check_passes(const char* audited_program, const char* unaudited_program, const std::string& last_statistic) {
  const Run audited = run(audited_program), plain = run(unaudited_program);
  BOOST_TEST_MESSAGE(audited.output);
  BOOST_TEST(plain.exit_status == 0);
  BOOST_TEST(plain.output.find("Total internal steps taken") != std::string::npos);
  BOOST_TEST(plain.output.find("energy audit") == std::string::npos);
  BOOST_TEST(program_output(audited.output) == plain.output);
  BOOST_TEST(audited.exit_status == 0);
  BOOST_TEST(delta_c(audited.output) < 1e-6);
  BOOST_TEST(audited.output.find("): pass") != std::string::npos);
  BOOST_TEST(audited.output.rfind(last_statistic) < audited.output.find("energy audit: delta_C"));
}

void check_fails(const char* audited_program, const char* unaudited_program) {
  const Run audited = run(audited_program), plain = run(unaudited_program);
  BOOST_TEST_MESSAGE(audited.output);
  BOOST_TEST(plain.exit_status == 0);
  BOOST_TEST(program_output(audited.output) == plain.output);
  BOOST_TEST(audited.exit_status == 1);
  BOOST_TEST(delta_c(audited.output) > 1e-3);
  BOOST_TEST(audited.output.find("): fail") != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_fortran_ida_program_passes_and_prints_what_it_prints_unaudited) {
  check_passes(DAMPED_OSCILLATOR_IDA_F2003, DAMPED_OSCILLATOR_IDA_F2003_UNAUDITED, "Current internal time");
}

BOOST_AUTO_TEST_CASE(the_fortran_ida_wrong_twin_fails_and_prints_what_it_prints_unaudited) {
  check_fails(DAMPED_OSCILLATOR_IDA_F2003_WRONG_SIGN, DAMPED_OSCILLATOR_IDA_F2003_WRONG_SIGN_UNAUDITED);
}

#ifdef EA_HAVE_FORTRAN_ARKODE
BOOST_AUTO_TEST_CASE(the_fortran_erkstep_program_passes_and_prints_what_it_prints_unaudited) {
  check_passes(DAMPED_OSCILLATOR_ERKSTEP_F2003, DAMPED_OSCILLATOR_ERKSTEP_F2003_UNAUDITED, "Current internal time");
}

BOOST_AUTO_TEST_CASE(the_fortran_erkstep_wrong_twin_fails_and_prints_what_it_prints_unaudited) {
  check_fails(DAMPED_OSCILLATOR_ERKSTEP_F2003_WRONG_SIGN, DAMPED_OSCILLATOR_ERKSTEP_F2003_WRONG_SIGN_UNAUDITED);
}
#endif
