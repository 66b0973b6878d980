// The drop-in examples as a user runs them: examples/drop_in_cvode/crane_cvode.cpp, an existing
// CVODE program with the audit attached, passes its correct right-hand side (eq. 19) and fails
// the same program compiled with one sign flipped (-DWRONG_SIGN, docs/models.md, crane-wrong);
// crane_cvode_c.c, the same program in C through the C interface, does the same and prints the
// same solution. The IDA examples (examples/drop_in_ida/): the pendulum on a hoisting rope passes
// in C++ and in C, prints the same in both, and its twins with the rope's term of the constraint
// equation flipped fail.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <boost/test/unit_test.hpp>

#include "program_run.hpp"

namespace {

using Run = energy_audit::testing::ProgramRun;  // output: stdout and stderr

Run run(const std::string& program) { return energy_audit::testing::run_shell_command("'" + program + "' 2>&1"); }

// The value after "energy audit: delta_C = "; NaN if the line is missing.
double delta_c(const std::string& output) {
  const std::string key = "energy audit: delta_C = ";
  const std::size_t at = output.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(output.c_str() + at + key.size(), nullptr);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(correct_right_hand_side_passes) {
  const Run r = run(CRANE_CVODE);
  BOOST_TEST_MESSAGE(r.output);
  BOOST_TEST(r.exit_status == 0);
  BOOST_TEST(count(r.output, "At t = ") == 10u);  // the program's own output, unchanged
  BOOST_TEST(r.output.find("Final Statistics:") != std::string::npos);
  const double d = delta_c(r.output);
  BOOST_TEST_MESSAGE("crane_cvode: delta_C = " << d);
  BOOST_TEST(d < 1e-6);
  BOOST_TEST(r.output.find("): pass") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_flipped_sign_fails) {
  const Run r = run(CRANE_CVODE_WRONG_SIGN);
  BOOST_TEST_MESSAGE(r.output);
  BOOST_TEST(r.exit_status == 1);
  BOOST_TEST(count(r.output, "At t = ") == 10u);  // the wrong program runs to the end, plausibly
  const double d = delta_c(r.output);
  BOOST_TEST_MESSAGE("crane_cvode_wrong_sign: delta_C = " << d);
  BOOST_TEST(d > 1e-3);
  BOOST_TEST(r.output.find("): fail") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_c_program_passes_and_its_wrong_twin_fails) {
  const Run right = run(CRANE_CVODE_C), wrong = run(CRANE_CVODE_C_WRONG_SIGN), cpp = run(CRANE_CVODE);
  BOOST_TEST(right.exit_status == 0);
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(delta_c(right.output) == delta_c(cpp.output));  // as printed, to 4 digits
  BOOST_TEST(delta_c(wrong.output) > 1e-3);
  BOOST_TEST(right.output.find("): pass") != std::string::npos);
  BOOST_TEST(wrong.output.find("): fail") != std::string::npos);
  // The program's own output lines are those of the C++ program, digit for digit.
  const auto solution_lines = [](const std::string& output) {
    std::string lines;
    for (std::size_t at = output.find("At t = "); at != std::string::npos; at = output.find("At t = ", at + 1)) {
      lines += output.substr(at, output.find('\n', at) - at) + "\n";
    }
    return lines;
  };
  BOOST_TEST(count(right.output, "At t = ") == 10u);
  BOOST_TEST(solution_lines(right.output) == solution_lines(cpp.output));
}

BOOST_AUTO_TEST_CASE(the_ida_programs_pass_and_their_wrong_twins_fail) {
  const Run cpp = run(PENDULUM_IDA), c = run(PENDULUM_IDA_C), wrong_cpp = run(PENDULUM_IDA_WRONG_SIGN),
            wrong_c = run(PENDULUM_IDA_C_WRONG_SIGN);
  BOOST_TEST_MESSAGE(cpp.output);
  for (const Run* r : {&cpp, &c}) {
    BOOST_TEST(r->exit_status == 0);
    BOOST_TEST(delta_c(r->output) < 1e-5);
    BOOST_TEST(r->output.find("): pass") != std::string::npos);
    BOOST_TEST(r->output.find("Final Statistics:") != std::string::npos);
  }
  for (const Run* r : {&wrong_cpp, &wrong_c}) {
    BOOST_TEST(r->exit_status == 1);
    BOOST_TEST(delta_c(r->output) > 1e-2);
    BOOST_TEST(r->output.find("): fail") != std::string::npos);
  }
  BOOST_TEST(c.output == cpp.output);  // the C program prints what the C++ one does, line for line
}

// The interleaved chain (examples/drop_in_cvode/chain_interleaved_cvode.c), whose audit reads
// y = [x1, v1, x2, v2] through a layout: it prints, less the audit's lines, what the same program
// prints unaudited (compiled against unaudited/'s stand-in header, CVode itself), byte for byte,
// CVODE's statistics included; it passes, and its twin with one damper's sign flipped fails.
BOOST_AUTO_TEST_CASE(the_interleaved_chain_prints_what_it_prints_unaudited) {
  const auto program_output = [](const std::string& output) {
    std::string kept;
    for (std::size_t at = 0; at < output.size();) {
      const std::size_t end = std::min(output.find('\n', at), output.size() - 1) + 1;
      if (output.compare(at, 14, "energy audit: ") != 0) kept.append(output, at, end - at);
      at = end;
    }
    return kept;
  };
  const Run audited = run(CHAIN_INTERLEAVED_CVODE), plain = run(CHAIN_INTERLEAVED_CVODE_UNAUDITED),
            wrong = run(CHAIN_INTERLEAVED_CVODE_WRONG_SIGN);
  BOOST_TEST_MESSAGE(audited.output);
  BOOST_TEST(plain.exit_status == 0);
  BOOST_TEST(count(plain.output, "At t = ") == 10u);
  BOOST_TEST(plain.output.find("Steps") != std::string::npos);  // CVodePrintAllStats' table
  BOOST_TEST(program_output(audited.output) == plain.output);
  BOOST_TEST(audited.exit_status == 0);
  BOOST_TEST(delta_c(audited.output) < 1e-6);
  BOOST_TEST(audited.output.find("): pass") != std::string::npos);
  BOOST_TEST_MESSAGE(wrong.output);
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(count(wrong.output, "At t = ") == 10u);
  BOOST_TEST(delta_c(wrong.output) > 1e-3);
  BOOST_TEST(wrong.output.find("): fail") != std::string::npos);
}
