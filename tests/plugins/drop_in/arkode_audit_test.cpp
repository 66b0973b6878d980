// ArkodeAudit, the drop-in audit of ARKODE programs, on the damped oscillator (arkode_program.hpp)
// on ERKStep, on ARKStep's explicit and on its implicit (DIRK) method: Z against the closed form,
// the solution and the return sequence bit for bit those of the plain evolve calls (output times,
// one-step mode, stop times, roots), the start mid-run and the restart after ERKStepReInit, a
// step taken beside the audit refused, the header after SUNDIALS' example macros; and the
// example programs (examples/drop_in_arkode/) as a user runs them.
#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <energy_audit/error.hpp>
#include <string>
#include <vector>

#include "arkode_program.hpp"

double arkode_header_macros_sum();  // arkode_header_after_macros.cpp

namespace sun = energy_audit::sun;
using namespace energy_audit::testing::arkode_program;
using namespace energy_audit::testing::drop_in;

namespace {

const Method methods[] = {Method::erk, Method::ark_explicit, Method::ark_implicit};

sun::ArkodeAudit oscillator_audit() { return sun::ArkodeAudit(1, oscillator_energies()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(steppers)

BOOST_AUTO_TEST_CASE(z_is_the_energy_the_closed_form_lost) {
  for (const Method method : methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver solver(method, 1e-10, 1e-12);
      sun::ArkodeAudit audit = oscillator_audit();
      output_loop(solver, output_times(0.5, 20), audited(audit));
      const double E0 = oscillator_energy(q0, 0.0);
      const sun::DropInStep last = audit.last_step();
      const ExactState exact = oscillator_exact(last.t);
      const double lost = E0 - oscillator_energy(exact.q, exact.v);
      BOOST_TEST_MESSAGE(method_name(method) << ": Z = " << last.energy_flow << ", E0 - E_exact = " << lost
                                             << ", delta_C = " << audit.relative_drift());
      BOOST_TEST(last.t == solver.current_time());
      BOOST_TEST(lost > 0.5 * E0);  // the damper took most of the energy
      BOOST_TEST(std::abs(last.energy_flow - lost) < 1e-7 * E0);
      BOOST_TEST(audit.initial_control() == E0, boost::test_tools::tolerance(1e-13));  // y(t0)
      BOOST_TEST(last.control == last.jacobi + last.energy_flow);
      BOOST_TEST(audit.audited_steps() == solver.steps());
      BOOST_TEST(audit.relative_drift() < 1e-7);
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE(the_wrapper_does_not_change_the_solution) {
  for (const Method method : methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver plain(method, 1e-8, 1e-10), wrapped(method, 1e-8, 1e-10);
      sun::ArkodeAudit audit = oscillator_audit();
      // Outputs both between steps and across several.
      const std::vector<double> times = output_times(0.1, 100);
      require_identical(output_loop(plain, times, without_audit()),
                        output_loop(wrapped, times, audited(audit)));
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(plain.rhs_evaluations() == wrapped.rhs_evaluations());  // the audit only interpolates
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE(one_step_mode_audits_every_step) {
  for (const Method method : methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver plain(method, 1e-8, 1e-10), wrapped(method, 1e-8, 1e-10);
      sun::ArkodeAudit audit = oscillator_audit();
      std::vector<SolverReturn> plain_returns, wrapped_returns;
      const Call plain_call = without_audit(), audited_call = audited(audit);
      for (sunrealtype t = 0; t < 3.0;) {
        const int flag = plain_call(plain, 3.0, &t, ARK_ONE_STEP);
        plain_returns.push_back(returned(plain, flag, t));
        BOOST_TEST_REQUIRE(flag >= 0);
      }
      for (sunrealtype t = 0; t < 3.0;) {
        const int flag = audited_call(wrapped, 3.0, &t, ARK_ONE_STEP);
        wrapped_returns.push_back(returned(wrapped, flag, t));
        BOOST_TEST_REQUIRE(flag >= 0);
      }
      require_identical(plain_returns, wrapped_returns);
      BOOST_TEST(plain.rhs_evaluations() == wrapped.rhs_evaluations());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
      BOOST_TEST(audit.last_step().t == wrapped.current_time());
    }
  }
}

BOOST_AUTO_TEST_CASE(stop_time_returns_are_those_of_normal_mode) {
  // A stop time at an output time, one between output times, and one just after an output time
  // (the step cut at the stop time passes tout: normal mode returns tout, then the stop time).
  for (const Method method : methods) {
    for (const double tstop : {1.5, 1.23, 1.5 + 1e-9}) {
      BOOST_TEST_CONTEXT(method_name(method) << ", tstop = " << tstop) {
        const Solver plain(method, 1e-8, 1e-10), wrapped(method, 1e-8, 1e-10);
        plain.set_stop_time(tstop);
        wrapped.set_stop_time(tstop);
        sun::ArkodeAudit audit = oscillator_audit();
        const std::vector<double> times = output_times(0.25, 12);
        const auto plain_returns = output_loop(plain, times, without_audit());
        const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
        require_identical(plain_returns, wrapped_returns);
        long stops = 0;
        for (const SolverReturn& r : plain_returns) stops += r.flag == ARK_TSTOP_RETURN;
        BOOST_TEST(stops == 1);
        BOOST_TEST(plain.steps() == wrapped.steps());
        BOOST_TEST(plain.rhs_evaluations() == wrapped.rhs_evaluations());
        BOOST_TEST(audit.audited_steps() == wrapped.steps());
        BOOST_TEST(audit.passed());
      }
    }
  }
}

#if SUNDIALS_VERSION_MAJOR >= 7
// SUNDIALS 7: ARKodeEvolve, for any stepper, is audited as the stepper's own evolve function.
BOOST_AUTO_TEST_CASE(arkode_evolve_is_audited_alike) {
  for (const Method method : methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver plain(method, 1e-8, 1e-10), wrapped(method, 1e-8, 1e-10);
      sun::ArkodeAudit audit = oscillator_audit();
      const Call plain_call = [](const Solver& s, sunrealtype tout, sunrealtype* t, int itask) {
        return ARKodeEvolve(s.mem(), tout, s.y.get(), t, itask);
      };
      const Call audited_call = [&audit](const Solver& s, sunrealtype tout, sunrealtype* t, int itask) {
        return audit.ARKodeEvolve(s.mem(), tout, s.y.get(), t, itask);
      };
      const std::vector<double> times = output_times(0.1, 50);
      require_identical(output_loop(plain, times, plain_call), output_loop(wrapped, times, audited_call));
      BOOST_TEST(plain.rhs_evaluations() == wrapped.rhs_evaluations());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
      BOOST_TEST(audit.passed());
    }
  }
}
#endif

BOOST_AUTO_TEST_CASE(roots_come_in_the_order_of_normal_mode) {
  // Roots of q with output times closer than the steps: some roots lie past tout in the step
  // that reaches tout, where normal mode returns tout first. A root's time and state may differ
  // within ARKODE's root tolerance (the one-step mode searches the whole step).
  for (const Method method : methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver plain(method, 1e-5, 1e-7, true), wrapped(method, 1e-5, 1e-7, true);
      sun::ArkodeAudit audit = oscillator_audit();
      const std::vector<double> times = output_times(0.01, 600);
      const auto plain_returns = output_loop(plain, times, without_audit());
      const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
      BOOST_TEST_REQUIRE(plain_returns.size() == wrapped_returns.size());
      int roots = 0, roots_after_tout = 0;
      for (std::size_t i = 0; i < plain_returns.size(); ++i) {
        const SolverReturn &p = plain_returns[i], &w = wrapped_returns[i];
        BOOST_TEST_CONTEXT("return " << i << " at t = " << p.t) {
          BOOST_TEST(p.flag == w.flag);
          BOOST_TEST(p.root_found == w.root_found);
          BOOST_TEST(std::abs(p.t - w.t) < 1e-9);
          for (std::size_t k = 0; k < p.y.size(); ++k) BOOST_TEST(std::abs(p.y[k] - w.y[k]) < 1e-8);
          BOOST_TEST(p.t_current == w.t_current);
        }
        if (p.flag == ARK_ROOT_RETURN) {
          ++roots;
          if (i > 0 && plain_returns[i - 1].flag == ARK_SUCCESS &&
              plain_returns[i - 1].t_current == p.t_current) {
            ++roots_after_tout;
          }
        }
      }
      BOOST_TEST_MESSAGE(method_name(method) << ": " << roots << " roots, " << roots_after_tout
                                             << " of them past tout in the step that reached tout");
      BOOST_TEST(roots == 6);  // q = 0 every pi / omega = 1.05 s, first at 0.535 s, up to t = 6
      BOOST_TEST(roots_after_tout > 0);
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
    }
  }
}

// The oscillator audited without its damper's power: C = E falls, and the audit fails.
BOOST_AUTO_TEST_CASE(a_missing_damper_power_fails) {
  sun::DropInEnergies energies = oscillator_energies();
  energies.nonpotential_power = nullptr;
  const Solver solver(Method::erk, 1e-8, 1e-10);
  sun::ArkodeAudit audit(1, energies);
  output_loop(solver, output_times(0.5, 6), audited(audit));
  BOOST_TEST(std::string(audit.verdict()) == "fail");
  BOOST_TEST(audit.relative_drift() > 0.1);
  BOOST_TEST(audit.first_step_above_threshold() > 0);
}

BOOST_AUTO_TEST_CASE(a_step_taken_beside_the_audit_is_refused) {
  const Solver solver(Method::erk, 1e-8, 1e-10);
  sun::ArkodeAudit audit = oscillator_audit();
  output_loop(solver, output_times(0.5, 2), audited(audit));
  // One plain step: ARK_ONE_STEP first returns the end of the step that the last call returned
  // within, and steps on the next call.
  sunrealtype t = 0;
  const long steps = solver.steps();
  while (solver.steps() == steps) {
    BOOST_TEST_REQUIRE(ERKStepEvolve(solver.mem(), 5.0, solver.y.get(), &t, ARK_ONE_STEP) >= 0);
  }
  BOOST_CHECK_EXCEPTION(audited(audit)(solver, 2.0, &t, ARK_NORMAL), energy_audit::Error,
                        [](const energy_audit::Error& e) {
                          return std::string(e.what()) ==
                                 "ArkodeAudit: 1 ARKODE step(s) were taken outside "
                                 "ArkodeAudit::ERKStepEvolve and cannot be audited";
                        });
  BOOST_TEST(std::string(audit.verdict()) == "incomplete");
}

BOOST_AUTO_TEST_CASE(the_audit_starts_where_the_integrator_stands_and_continues_after_reinit) {
  const Solver solver(Method::erk, 1e-10, 1e-12);
  sunrealtype t = 0;
  BOOST_TEST(ERKStepEvolve(solver.mem(), 1.0, solver.y.get(), &t, ARK_NORMAL) ==
             ARK_SUCCESS);                       // before the audit
  const double t_start = solver.current_time();  // past t = 1: the last step's end
  sun::ArkodeAudit audit = oscillator_audit();
  BOOST_TEST(audit.ERKStepEvolve(solver.mem(), 2.0, solver.y.get(), &t, ARK_NORMAL) == ARK_SUCCESS);
  const long first_segment = audit.audited_steps();
  BOOST_TEST(first_segment > 0);
  // Restart from the state at t = 2 (no jump): C carries on.
  check(ERKStepReInit(solver.mem(), oscillator_rhs, t, solver.y.get()), "ERKStepReInit");
  BOOST_TEST(audit.ERKStepEvolve(solver.mem(), 4.0, solver.y.get(), &t, ARK_NORMAL) == ARK_SUCCESS);
  BOOST_TEST(audit.audited_steps() == first_segment + solver.steps());
  const ExactState start = oscillator_exact(t_start), end = oscillator_exact(audit.last_step().t);
  const double lost = oscillator_energy(start.q, start.v) - oscillator_energy(end.q, end.v);
  BOOST_TEST(std::abs(audit.last_step().energy_flow - lost) < 1e-6);
  BOOST_TEST(audit.relative_drift() < 1e-7);
  BOOST_TEST(audit.passed());
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_named) {
  BOOST_CHECK_EXCEPTION(sun::ArkodeAudit(0, oscillator_energies()), energy_audit::InvalidArgument,
                        [](const energy_audit::InvalidArgument& e) {
                          return std::string(e.what()) ==
                                 "ArkodeAudit: dofs = 0; the number of coordinates must be > 0";
                        });
  const Solver solver(Method::erk, 1e-8, 1e-10);
  sun::ArkodeAudit too_many_dofs(2, oscillator_energies());
  sunrealtype t = 0;
  BOOST_CHECK_EXCEPTION(too_many_dofs.ERKStepEvolve(solver.mem(), 1.0, solver.y.get(), &t, ARK_NORMAL),
                        energy_audit::InvalidArgument, [](const energy_audit::InvalidArgument& e) {
                          return std::string(e.what()) ==
                                 "ArkodeAudit: the ARKODE state has 2 entries; the audit of 2 coordinates "
                                 "needs y = [q, v], at least 4";
                        });
  // A bad itask is ARKODE's to report, as without the audit.
  sun::ArkodeAudit audit = oscillator_audit();
  BOOST_TEST(audit.ERKStepEvolve(solver.mem(), 1.0, solver.y.get(), &t, 7) == ARK_ILL_INPUT);
}

BOOST_AUTO_TEST_CASE(the_header_compiles_after_sundials_example_macros) {
  BOOST_TEST(arkode_header_macros_sum() == 5.0);
}

BOOST_AUTO_TEST_SUITE_END()

// The example programs as a user runs them.
BOOST_AUTO_TEST_SUITE(examples)

namespace {

struct Run {
  int exit_status = -1;  // -1: did not exit normally
  std::string output;    // stdout and stderr
};

Run run(const std::string& program) {
  Run result;
  FILE* pipe = popen(("'" + program + "' 2>&1").c_str(), "r");
  BOOST_TEST_REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  if (status != -1 && WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  return result;
}

// The value after "energy audit: delta_C = "; NaN if the line is missing.
double delta_c(const std::string& output) {
  const std::string key = "energy audit: delta_C = ";
  const std::size_t at = output.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(output.c_str() + at + key.size(), nullptr);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_chain_passes_and_its_wrong_twin_fails) {
  const Run right = run(CHAIN_ERKSTEP), wrong = run(CHAIN_ERKSTEP_WRONG_SIGN);
  BOOST_TEST_MESSAGE(right.output);
  BOOST_TEST_MESSAGE(wrong.output);
  BOOST_TEST(right.exit_status == 0);
  BOOST_TEST(delta_c(right.output) < 1e-6);
  BOOST_TEST(right.output.find("): pass") != std::string::npos);
  BOOST_TEST(right.output.find("  10.000000") != std::string::npos);  // the program ran to its end
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(delta_c(wrong.output) > 1e-3);
  BOOST_TEST(wrong.output.find("): fail") != std::string::npos);
  BOOST_TEST(wrong.output.find("  10.000000") != std::string::npos);  // the wrong program runs to the end
}

BOOST_AUTO_TEST_CASE(the_c_program_prints_what_the_cpp_program_prints) {
  const Run right = run(CHAIN_ERKSTEP_C), wrong = run(CHAIN_ERKSTEP_C_WRONG_SIGN), cpp = run(CHAIN_ERKSTEP),
            cpp_wrong = run(CHAIN_ERKSTEP_WRONG_SIGN);
  BOOST_TEST(right.exit_status == 0);
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(right.output == cpp.output);
  BOOST_TEST(wrong.output == cpp_wrong.output);
}

BOOST_AUTO_TEST_SUITE_END()
