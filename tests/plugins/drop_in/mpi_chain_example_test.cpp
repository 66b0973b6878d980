// The large parallel drop-in example (examples/drop_in_cvode/chain_cvode_mpi.c) as a user runs it,
// under mpiexec on 1 and 2 ranks, at 10^4 states: a chain of damped masses and springs on SUNDIALS'
// parallel vector, BDF with the matrix-free GMRES, each rank auditing its share.
//   - audited and with --no-audit, the program prints the same on stdout bit for bit, save the
//     audit's lines (the same steps, the same solution to the last digit, the same counters);
//   - δ_C on 2 ranks equals δ_C on 1 rank (the whole state in one process) within 1e-6 relative:
//     the solver's norms and dot products add the ranks' partial sums in another order, so the two
//     runs are two round-off variants of one solution;
//   - with Z integrated on CVODE's interpolant instead of as CVODES' quadrature
//     (--flow-on-interpolant), the same bit for bit;
//   - the twin with the ground dampers' sign flipped fails (δ_C 2.8e-3 to t = 0.3, where the right
//     program's is 1.5e-6, 1.8e-7 on the interpolant);
//   - the audit's memory does not grow with the number of steps: a run 5 times as many steps long
//     peaks at most 512 kB higher, where a copy of the state kept per step would add over 7 MB.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>

#include "program_run.hpp"

namespace {

using Run = energy_audit::testing::ProgramRun;

/// The example `program` on `ranks` ranks with `options`: stdout only, or with --report's line
/// (stderr) after it when `report`.
Run run_example(const char* program, int ranks, const std::string& options, bool report = false) {
  const std::string command = std::string("'") + MPIEXEC + "' " + MPIEXEC_NUMPROC_FLAG + " " +
                              std::to_string(ranks) + " '" + program + "' " + options +
                              (report ? " --report 2>&1" : " 2>/dev/null");
  return energy_audit::testing::run_shell_command(command);
}

/// The lines of `text` that do not start with "energy audit:".
std::string without_audit_lines(const std::string& text) {
  std::istringstream lines(text);
  std::string line, kept;
  while (std::getline(lines, line)) {
    if (line.rfind("energy audit:", 0) != 0) kept += line + "\n";
  }
  return kept;
}

/// The number after `key` in `text`; NaN if `key` is missing.
double number_after(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + key.size(), nullptr);
}

/// δ_C to the last digit, as the example prints it after its summary.
double delta_c(const std::string& output) {
  return number_after(output, "energy audit: delta_C to the last digit = ");
}

/// The largest peak RSS over the ranks [kB] from --report's line.
double peak_rss_kb(const std::string& output) {
  const std::string key = "peak RSS per rank [kB]:";
  const std::size_t at = output.find(key);
  if (at == std::string::npos) return std::nan("");
  std::istringstream values(output.substr(at + key.size(), output.find('\n', at) - at - key.size()));
  double peak = 0, value = 0;
  while (values >> value) peak = std::max(peak, value);
  return peak;
}

const std::string small = "--states 10000 --t-end 0.1";

}  // namespace

BOOST_AUTO_TEST_CASE(audited_output_equals_unaudited_bit_for_bit_and_two_ranks_equal_one) {
  double delta[3] = {0, 0, 0};
  for (int ranks = 1; ranks <= 2; ++ranks) {
    const Run audited = run_example(CHAIN_CVODE_MPI, ranks, small);
    const Run plain = run_example(CHAIN_CVODE_MPI, ranks, small + " --no-audit");
    BOOST_TEST_MESSAGE(ranks << " rank(s):\n" << audited.output);
    BOOST_TEST(audited.exit_status == 0);
    BOOST_TEST(plain.exit_status == 0);
    BOOST_TEST(audited.output.find("): pass") != std::string::npos);
    BOOST_TEST(plain.output.find("energy audit") == std::string::npos);
    BOOST_TEST(plain.output.find("Final Statistics:") != std::string::npos);
    BOOST_TEST(without_audit_lines(audited.output) == plain.output);  // bit for bit, counters included
    // Every step the solver took was audited.
    const double nst = number_after(plain.output, "nst = ");
    const std::size_t open = audited.output.find("(threshold ");
    BOOST_TEST_REQUIRE(open != std::string::npos);
    BOOST_TEST(number_after(audited.output.substr(open), ", ") == nst);
    delta[ranks] = delta_c(audited.output);
    BOOST_TEST(delta[ranks] > 0.0);
    BOOST_TEST(delta[ranks] < 1e-5);
  }
  BOOST_TEST_MESSAGE("delta_C: 1 rank " << delta[1] << ", 2 ranks " << delta[2] << ", relative difference "
                                        << std::abs(delta[2] - delta[1]) / delta[1]);
  BOOST_TEST(std::abs(delta[2] - delta[1]) <= 1e-6 * delta[1]);
}

BOOST_AUTO_TEST_CASE(z_on_the_interpolant_leaves_the_output_bit_for_bit_too) {
  for (int ranks = 1; ranks <= 2; ++ranks) {
    const Run plain = run_example(CHAIN_CVODE_MPI, ranks, small + " --no-audit");
    const Run on_interpolant = run_example(CHAIN_CVODE_MPI, ranks, small + " --flow-on-interpolant");
    BOOST_TEST_MESSAGE(ranks << " rank(s), Z on the interpolant:\n" << on_interpolant.output);
    BOOST_TEST(on_interpolant.exit_status == 0);
    BOOST_TEST(on_interpolant.output.find("): pass") != std::string::npos);
    BOOST_TEST(without_audit_lines(on_interpolant.output) == plain.output);
    BOOST_TEST(delta_c(on_interpolant.output) > 0.0);
    BOOST_TEST(delta_c(on_interpolant.output) < 1e-5);
  }
}

BOOST_AUTO_TEST_CASE(the_twin_with_the_ground_dampers_sign_flipped_fails) {
  const Run wrong = run_example(CHAIN_CVODE_MPI_WRONG_SIGN, 1, "--states 10000 --t-end 0.3");
  BOOST_TEST_MESSAGE(wrong.output);
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(wrong.output.find("): fail") != std::string::npos);
  BOOST_TEST(delta_c(wrong.output) > 1e-3);
}

BOOST_AUTO_TEST_CASE(memory_does_not_grow_with_the_number_of_steps) {
  const Run short_run = run_example(CHAIN_CVODE_MPI, 1, "--states 1000 --t-end 0.5", true);
  const Run long_run = run_example(CHAIN_CVODE_MPI, 1, "--states 1000 --t-end 20", true);
  BOOST_TEST(short_run.exit_status == 0);
  BOOST_TEST(long_run.exit_status == 0);
  const double short_steps = number_after(short_run.output, "nst = "), long_steps = number_after(long_run.output, "nst = ");
  const double short_peak = peak_rss_kb(short_run.output), long_peak = peak_rss_kb(long_run.output);
  BOOST_TEST_MESSAGE("steps " << short_steps << " and " << long_steps << ": peak RSS " << short_peak << " kB and "
                              << long_peak << " kB");
  BOOST_TEST(long_steps >= 5 * short_steps);
  // The state is 1000 doubles (8 kB): one copy per step would add over 7 MB.
  BOOST_TEST(long_peak - short_peak <= 512.0);
}
