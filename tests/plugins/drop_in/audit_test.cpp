// The drop-in audit on CVODE and on IDA alike (CvodeAudit, IdaAudit), on small programs of the
// tests' own (cvode_program.hpp, ida_program.hpp), one typed test case per property: Z against the
// closed form of a damped oscillator, and the solution and the return sequence unchanged against
// the plain solver (output times, one-step mode, stop times, roots). What one solver alone offers
// is in cvode_audit_test.cpp and ida_audit_test.cpp.
#include <cvodes/cvodes.h>
#include <idas/idas.h>

#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/ida_drop_in.hpp>

#include "cvode_program.hpp"
#include "drop_in_program.hpp"
#include "ida_program.hpp"

namespace sun = energy_audit::sun;
namespace cvode_program = energy_audit::testing::cvode_program;
namespace ida_program = energy_audit::testing::ida_program;
using namespace energy_audit::testing::drop_in;

namespace {

/// What the typed cases need of a solver: its program, its audit, its flags, and the problems
/// and tolerances each case runs it at (the IDA cases run the hoisted pendulum, whose multiplier
/// and rheonomic constraint only IDA takes).
struct Cvode {
  using Solver = cvode_program::Solver;
  using Audit = sun::CvodeAudit;
  static constexpr int one_step = CV_ONE_STEP, stop_return = CV_TSTOP_RETURN, root_return = CV_ROOT_RETURN,
                       success = CV_SUCCESS;

  struct Program {
    const char* name;
    cvode_program::Problem problem;
    std::vector<double> y0;
    int dofs;
    sun::DropInEnergies energies;
  };
  static Program oscillator() { return {"oscillator", cvode_program::oscillator_problem(), {q0, 0.0}, 1, oscillator_energies()}; }
  /// The programs the solution is compared on, with and without the audit.
  static std::vector<Program> compared_programs() { return {oscillator()}; }
  static constexpr int compared_outputs = 100;
  /// The program of the one-step, stop-time and root cases.
  static Program returns_program() { return oscillator(); }

  static std::vector<int> methods() { return {CV_BDF, CV_ADAMS}; }
  static const char* method_name(int method) { return method == CV_BDF ? "BDF" : "Adams"; }
  static Solver solver(const Program& program, double rtol, double atol, int method = CV_BDF) {
    return Solver(program.problem, program.y0, rtol, atol, method);
  }
  static Audit audit(const Program& program) { return Audit(program.dofs, program.energies); }
  static long evaluations(const Solver& s) { return s.rhs_evaluations(); }
  static void set_stop_time(const Solver& s, double t) { CVodeSetStopTime(s.mem(), t); }
  static cvode_program::Call without_audit() { return cvode_program::without_audit(); }
  static cvode_program::Call audited(Audit& audit) { return cvode_program::audited(audit); }
  static std::vector<SolverReturn> output_loop(const Solver& s, const std::vector<double>& times,
                                               const cvode_program::Call& call) {
    return cvode_program::output_loop(s, times, call);
  }
  static SolverReturn returned(const Solver& s, int flag, double t) { return cvode_program::returned(s, flag, t); }

  // Z against the closed form: the tolerances of the run, of Z and of C at t0.
  static constexpr double closed_form_rtol = 1e-12, closed_form_atol = 1e-14, closed_form_z_error = 1e-8,
                          initial_control_error = 1e-14;
  // Roots of q (twice per period): q = 0 every pi / omega = 1.05 s, first at 0.535 s.
  static constexpr double root_rtol = 1e-5, root_atol = 1e-7, root_time_error = 1e-11, root_state_error = 1e-10;
  static constexpr int root_outputs = 600, fewest_roots = 6, most_roots = 6;
};

/// CVODE with Z as CVODES' own quadrature (CvodeAudit::integrate_flow_as_quadrature): the same
/// cases hold; Z carries the error of CVODE's method on Ż instead of Gauss–Legendre's on the
/// interpolant.
struct CvodeQuadrature : Cvode {
  static Audit audit(const Program& program) {
    Audit audit(program.dofs, program.energies);
    audit.integrate_flow_as_quadrature();
    return audit;
  }
};

struct Ida {
  using Solver = ida_program::Solver;
  using Audit = sun::IdaAudit;
  static constexpr int one_step = IDA_ONE_STEP, stop_return = IDA_TSTOP_RETURN, root_return = IDA_ROOT_RETURN,
                       success = IDA_SUCCESS;

  struct Program {
    const char* name;
    ida_program::Problem problem;
    int dofs;
    sun::DropInEnergies energies;
  };
  static Program oscillator() { return {"oscillator", ida_program::oscillator_problem(), 1, oscillator_energies()}; }
  static Program hoisted_pendulum() {
    return {"hoisted pendulum", ida_program::hoisted_pendulum(), 2, ida_program::pendulum_energies()};
  }
  static std::vector<Program> compared_programs() { return {oscillator(), hoisted_pendulum()}; }
  static constexpr int compared_outputs = 50;
  static Program returns_program() { return hoisted_pendulum(); }

  static std::vector<int> methods() { return {0}; }  // IDA's one method, variable-order BDF
  static const char* method_name(int) { return "BDF"; }
  static Solver solver(const Program& program, double rtol, double atol, int = 0) {
    return Solver(program.problem, rtol, atol);
  }
  static Audit audit(const Program& program) { return Audit(program.dofs, program.energies); }
  static long evaluations(const Solver& s) { return s.residual_evaluations(); }
  static void set_stop_time(const Solver& s, double t) { IDASetStopTime(s.mem(), t); }
  static ida_program::Call without_audit() { return ida_program::without_audit(); }
  static ida_program::Call audited(Audit& audit) { return ida_program::audited(audit); }
  static std::vector<SolverReturn> output_loop(const Solver& s, const std::vector<double>& times,
                                               const ida_program::Call& call) {
    return ida_program::output_loop(s, times, call);
  }
  static SolverReturn returned(const Solver& s, int flag, double t) { return ida_program::returned(s, flag, t); }

  static constexpr double closed_form_rtol = 1e-11, closed_form_atol = 1e-13, closed_form_z_error = 1e-7,
                          initial_control_error = 1e-12;
  // Roots of x: the bob passes under the winch.
  static constexpr double root_rtol = 1e-6, root_atol = 1e-8, root_time_error = 1e-9, root_state_error = 1e-7;
  static constexpr int root_outputs = 500, fewest_roots = 4, most_roots = 1000;
};

using Solvers = std::tuple<Cvode, CvodeQuadrature, Ida>;

}  // namespace

BOOST_AUTO_TEST_SUITE(cvode_and_ida)

BOOST_AUTO_TEST_CASE_TEMPLATE(z_is_the_energy_the_closed_form_lost, S, Solvers) {
  for (const int method : S::methods()) {
    BOOST_TEST_CONTEXT("method " << S::method_name(method)) {
      const typename S::Program program = S::oscillator();
      const typename S::Solver solver = S::solver(program, S::closed_form_rtol, S::closed_form_atol, method);
      typename S::Audit audit = S::audit(program);
      S::output_loop(solver, output_times(0.5, 20), S::audited(audit));

      const double E0 = oscillator_energy(q0, 0.0);
      const sun::DropInStep last = audit.last_step();
      const ExactState exact = oscillator_exact(last.t);
      const double lost = E0 - oscillator_energy(exact.q, exact.v);
      BOOST_TEST_MESSAGE("t = " << last.t << ": Z = " << last.energy_flow << ", E0 - E_exact = " << lost
                                << ", difference " << last.energy_flow - lost
                                << ", delta_C = " << audit.relative_drift());
      BOOST_TEST(last.t == solver.current_time());
      BOOST_TEST(lost > 0.5 * E0);  // the damper took most of the energy
      BOOST_TEST(std::abs(last.energy_flow - lost) < S::closed_form_z_error * E0);
      BOOST_TEST(audit.initial_control() == E0, boost::test_tools::tolerance(S::initial_control_error));  // y(t0)
      BOOST_TEST(last.kinetic2 == last.kinetic);  // scleronomic: T = T2, T1 = T0 = 0
      BOOST_TEST(last.kinetic1 == 0.0);
      BOOST_TEST(last.kinetic0 == 0.0);
      BOOST_TEST(last.control == last.jacobi + last.energy_flow);
      BOOST_TEST(audit.audited_steps() == solver.steps());
      BOOST_TEST(audit.relative_drift() < 1e-7);
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_wrapper_does_not_change_the_solution, S, Solvers) {
  for (const typename S::Program& program : S::compared_programs()) {
    BOOST_TEST_CONTEXT(program.name) {
      const typename S::Solver plain = S::solver(program, 1e-8, 1e-10);
      const typename S::Solver wrapped = S::solver(program, 1e-8, 1e-10);
      typename S::Audit audit = S::audit(program);
      // Outputs both between steps and across several.
      const std::vector<double> times = output_times(0.1, S::compared_outputs);
      require_identical(S::output_loop(plain, times, S::without_audit()), S::output_loop(wrapped, times, S::audited(audit)));
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(S::evaluations(plain) == S::evaluations(wrapped));  // the audit only interpolates
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(one_step_mode_audits_every_step, S, Solvers) {
  const typename S::Program program = S::returns_program();
  const typename S::Solver plain = S::solver(program, 1e-8, 1e-10);
  const typename S::Solver wrapped = S::solver(program, 1e-8, 1e-10);
  typename S::Audit audit = S::audit(program);
  std::vector<SolverReturn> plain_returns, wrapped_returns;
  const auto plain_call = S::without_audit(), audited_call = S::audited(audit);
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = plain_call(plain, 3.0, &t, S::one_step);
    plain_returns.push_back(S::returned(plain, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = audited_call(wrapped, 3.0, &t, S::one_step);
    wrapped_returns.push_back(S::returned(wrapped, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  require_identical(plain_returns, wrapped_returns);
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
  BOOST_TEST(audit.last_step().t == wrapped.current_time());
}

// The oscillator audited without its damper's power: C = E falls, δ_C fails, and the summary's
// step and time of first exceeding are those recomputed from the audit's own steps (last_step()
// after each one-step call) by the definition of docs/mathematics.md: the first step whose
// |C − C0| > threshold × sup max(|E|, |T|, |V|) up to it.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_failing_audit_names_the_step_where_the_drift_first_exceeds, S, Solvers) {
  typename S::Program program = S::oscillator();
  program.energies.nonpotential_power = nullptr;
  const typename S::Solver solver = S::solver(program, 1e-8, 1e-10);
  typename S::Audit audit = S::audit(program);
  const auto call = S::audited(audit);
  const double C0_energy = oscillator_energy(q0, 0.0);  // at rest: C0 = V0 = E0, the scale at t0
  double scale = C0_energy, expected_time = std::nan(""), C0 = std::nan("");
  long expected_step = -1;
  for (sunrealtype t = 0; t < 3.0;) {
    BOOST_TEST_REQUIRE(call(solver, 3.0, &t, S::one_step) >= 0);
    const sun::DropInStep last = audit.last_step();
    if (std::isnan(C0)) C0 = audit.initial_control();
    scale = std::max({scale, std::abs(last.kinetic + last.potential), std::abs(last.kinetic), std::abs(last.potential)});
    if (expected_step < 0 && std::abs(last.control - C0) > audit.threshold() * scale) {
      expected_step = audit.audited_steps();
      expected_time = last.t;
    }
  }
  BOOST_TEST(C0 == C0_energy, boost::test_tools::tolerance(S::initial_control_error));
  BOOST_TEST(std::string(audit.verdict()) == "fail");
  BOOST_TEST_REQUIRE(expected_step > 0);
  BOOST_TEST(audit.first_step_above_threshold() == expected_step);
  BOOST_TEST(audit.time_first_above_threshold() == expected_time);
  BOOST_TEST(audit.time_of_fastest_growth() > 0.0);
  char text[4096] = {};
  FILE* summary = fmemopen(text, sizeof text - 1, "w");
  BOOST_TEST_REQUIRE(summary != nullptr);
  audit.print_summary(summary);
  std::fclose(summary);
  const std::string expected_line = "energy audit: |C - C(t0)| first above the threshold at step " +
                                    std::to_string(expected_step) + ", t = ";
  BOOST_TEST(std::string(text).find(expected_line) != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(stop_time_returns_are_those_of_normal_mode, S, Solvers) {
  // A stop time at an output time, one between output times, and one just after an output time
  // (the step cut at the stop time passes tout: normal mode returns tout, then the stop time).
  for (const double tstop : {1.5, 1.23, 1.5 + 1e-9}) {
    BOOST_TEST_CONTEXT("tstop = " << tstop) {
      const typename S::Program program = S::returns_program();
      const typename S::Solver plain = S::solver(program, 1e-8, 1e-10);
      const typename S::Solver wrapped = S::solver(program, 1e-8, 1e-10);
      S::set_stop_time(plain, tstop);
      S::set_stop_time(wrapped, tstop);
      typename S::Audit audit = S::audit(program);
      const std::vector<double> times = output_times(0.25, 12);
      const auto plain_returns = S::output_loop(plain, times, S::without_audit());
      const auto wrapped_returns = S::output_loop(wrapped, times, S::audited(audit));
      require_identical(plain_returns, wrapped_returns);
      long stops = 0;
      for (const SolverReturn& r : plain_returns) stops += r.flag == S::stop_return;
      BOOST_TEST(stops == 1);
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(roots_come_in_the_order_of_normal_mode, S, Solvers) {
  // Roots of the first coordinate with output times closer than the steps: some roots lie past
  // tout in the step that reaches tout, where normal mode returns tout first.
  typename S::Program program = S::returns_program();
  program.problem.root = [](double, const double* y) { return y[0]; };
  const typename S::Solver plain = S::solver(program, S::root_rtol, S::root_atol);
  const typename S::Solver wrapped = S::solver(program, S::root_rtol, S::root_atol);
  typename S::Audit audit = S::audit(program);
  const std::vector<double> times = output_times(0.01, S::root_outputs);
  const auto plain_returns = S::output_loop(plain, times, S::without_audit());
  const auto wrapped_returns = S::output_loop(wrapped, times, S::audited(audit));
  BOOST_TEST_REQUIRE(plain_returns.size() == wrapped_returns.size());
  int roots = 0, roots_after_tout = 0;
  for (std::size_t i = 0; i < plain_returns.size(); ++i) {
    const SolverReturn &p = plain_returns[i], &w = wrapped_returns[i];
    BOOST_TEST_CONTEXT("return " << i << " at t = " << p.t) {
      BOOST_TEST(p.flag == w.flag);
      BOOST_TEST(p.root_found == w.root_found);
      BOOST_TEST(std::abs(p.t - w.t) < S::root_time_error);  // roots within the solver's root tolerance
      for (std::size_t k = 0; k < p.y.size(); ++k) BOOST_TEST(std::abs(p.y[k] - w.y[k]) < S::root_state_error);
      BOOST_TEST(p.t_current == w.t_current);
    }
    if (p.flag == S::root_return) {
      ++roots;
      // The root lies in the step that the previous output (tout) returned from.
      if (i > 0 && plain_returns[i - 1].flag == S::success && plain_returns[i - 1].t_current == p.t_current) {
        ++roots_after_tout;
      }
    }
  }
  BOOST_TEST_MESSAGE(roots << " roots, " << roots_after_tout
                           << " of them past tout in the step that reached tout");
  BOOST_TEST(roots >= S::fewest_roots);
  BOOST_TEST(roots <= S::most_roots);
  BOOST_TEST(roots_after_tout > 0);
  BOOST_TEST(plain.steps() == wrapped.steps());
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
}

BOOST_AUTO_TEST_SUITE_END()
