// ArkodeAudit, the drop-in audit of ARKODE programs, on the damped oscillator (arkode_program.hpp)
// on ERKStep, on ARKStep's explicit and on its implicit (DIRK) method: Z against the closed form,
// the solution and the return sequence bit for bit those of the plain evolve calls (output times,
// one-step mode, stop times, roots; on SUNDIALS 7 SPRKStep's through ARKodeEvolve too), the start mid-run and
// the restart after ERKStepReInit, a step taken beside the audit refused, the header after SUNDIALS' example
// macros; and the example programs (examples/drop_in_arkode/) as a user runs them, on SUNDIALS 7 the SPRKStep
// one and its wrong twin too, their output against that of the same programs unaudited.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <energy_audit/error.hpp>
#include <string>
#include <utility>
#include <vector>

#include "arkode_program.hpp"
#include "program_run.hpp"

double arkode_header_macros_sum();  // arkode_header_after_macros.cpp

namespace sun = energy_audit::sun;
using namespace energy_audit::testing::arkode_program;
using namespace energy_audit::testing::drop_in;

namespace {

const Method methods[] = {Method::erk, Method::ark_explicit, Method::ark_implicit};
// The steppers whose calls the audit must leave bit for bit: those, and on SUNDIALS 7 SPRKStep
// (of first order on the damped oscillator, arkode_program.hpp: not held to the closed form).
const std::vector<Method> evolve_methods = {Method::erk, Method::ark_explicit, Method::ark_implicit,
#if SUNDIALS_VERSION_MAJOR >= 7
                                            Method::sprk
#endif
};

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
  for (const Method method : evolve_methods) {
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
  for (const Method method : evolve_methods) {
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
  for (const Method method : evolve_methods) {
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
  for (const Method method : evolve_methods) {
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
  for (const Method method : evolve_methods) {
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

using Run = energy_audit::testing::ProgramRun;  // output: stdout and stderr

Run run(const std::string& program, const std::string& arguments = "") {
  return energy_audit::testing::run_shell_command("'" + program + "' " + arguments + " 2>&1");
}

// The value after `key` in the output; NaN if it is missing.
double value_after(const std::string& output, const std::string& key) {
  const std::size_t at = output.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(output.c_str() + at + key.size(), nullptr);
}

double delta_c(const std::string& output) { return value_after(output, "energy audit: delta_C = "); }

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

#ifdef KEPLER_SPRKSTEP
// The SPRKStep example (SUNDIALS 7): the Kepler orbit of eccentricity 0.6 and semi-major axis
// a = 1 at the fixed step 0.01 with ARKODE_SPRK_MCLACHLAN_4_4, from the perihelion.

namespace {

// The program's output less the audit's summary, the lines that begin with "energy audit: ".
std::string program_output(const std::string& output) {
  std::string kept;
  for (std::size_t at = 0; at < output.size();) {
    const std::size_t end = std::min(output.find('\n', at), output.size() - 1) + 1;
    if (output.compare(at, 14, "energy audit: ") != 0) kept.append(output, at, end - at);
    at = end;
  }
  return kept;
}

// One output line of the program: t, q1, q2, v1, v2 and L - L0.
struct KeplerRow {
  double t, q1, q2, v1, v2, angular_momentum_change;
  double speed_squared() const { return v1 * v1 + v2 * v2; }
  double radius() const { return std::hypot(q1, q2); }
  /// H = |v|²/2 − 1/|q|, the energy of the program's model (unit mass and gravitational parameter).
  double energy() const { return 0.5 * speed_squared() - 1 / radius(); }
  /// |v|²/2 + ln|q|: the energy of the wrong twin's force −q/|q|², the one its method keeps.
  double wrong_force_energy() const { return 0.5 * speed_squared() + std::log(radius()); }
};

std::vector<KeplerRow> kepler_rows(const std::string& output) {
  std::vector<KeplerRow> rows;
  std::size_t at = 0;
  while (at < output.size()) {
    const std::size_t end = std::min(output.find('\n', at), output.size());
    const std::string line = output.substr(at, end - at);
    KeplerRow r{};
    if (std::sscanf(line.c_str(), "%lf %lf %lf %lf %lf %lf", &r.t, &r.q1, &r.q2, &r.v1, &r.v2,
                    &r.angular_momentum_change) == 6) {
      rows.push_back(r);
    }
    at = end + 1;
  }
  return rows;
}

// The perihelion state: q = (1 − e, 0), v = (0, √((1 + e)/(1 − e))), e = 0.6: |v| = 2, |q| = 0.4.
constexpr KeplerRow kepler_start{0, 0.4, 0, 0, 2, 0};
// The closed-form energy of the orbit, −1/(2a), and its largest energy term, |V| = 1/|q| = 2.5 at
// the perihelion: the audit's energy scale.
constexpr double kepler_energy = -0.5, kepler_energy_scale = 2.5;

}  // namespace

// The audited programs print what they print without the audit (the same source compiled
// against unaudited/'s stand-in header, ARKodeEvolve itself), byte for byte, statistics
// included: output times reached by stop times, and output interpolated (--disable-tstop);
// the correct program and its wrong twin.
BOOST_AUTO_TEST_CASE(the_kepler_programs_print_what_they_print_unaudited) {
  const std::pair<const char*, const char*> programs[] = {
      {KEPLER_SPRKSTEP, KEPLER_SPRKSTEP_UNAUDITED},
      {KEPLER_SPRKSTEP_WRONG_EXPONENT, KEPLER_SPRKSTEP_WRONG_EXPONENT_UNAUDITED}};
  for (const auto& [audited_program, plain_program] : programs) {
    for (const std::string arguments : {"", "--disable-tstop", "--erk"}) {
      BOOST_TEST_CONTEXT(audited_program << " " << arguments) {
        const Run audited = run(audited_program, arguments), plain = run(plain_program, arguments);
        BOOST_TEST(plain.exit_status == 0);
        BOOST_TEST(kepler_rows(plain.output).size() == 10u);  // t = 10, 20, ..., 100
        BOOST_TEST(plain.output.find(arguments == "--erk" ? "RHS fn evals" : "f1 RHS fn evals") != std::string::npos);
        BOOST_TEST(plain.output.find("energy audit") == std::string::npos);
        BOOST_TEST(audited.output.find("energy audit: delta_C = ") != std::string::npos);
        BOOST_TEST(program_output(audited.output) == plain.output);
      }
    }
  }
  const Run refused = run(KEPLER_SPRKSTEP, "--tstop");
  BOOST_TEST(refused.exit_status == 2);
  BOOST_TEST(refused.output.find(": unknown argument '--tstop'; the options are --disable-tstop and --erk\n") !=
             std::string::npos);
}

// The correct program passes in both output modes. Its energy error, bounded as a symplectic
// method's is, is O(h⁴) = 1e-8 of the energy scale at h = 0.01 at most (9.2e-10 measured): the
// bound asserted on δ_C. The audit's sup |C − C(t0)| over every step is at least the error that
// the printed states show against the closed-form energy −1/(2a), and of its size.
BOOST_AUTO_TEST_CASE(the_kepler_program_passes_with_its_energy_error_bounded) {
  for (const std::string arguments : {"", "--disable-tstop"}) {
    BOOST_TEST_CONTEXT("kepler_sprkstep " << arguments) {
      const Run r = run(KEPLER_SPRKSTEP, arguments);
      BOOST_TEST_MESSAGE(r.output);
      BOOST_TEST(r.exit_status == 0);
      BOOST_TEST(r.output.find("): pass") != std::string::npos);
      BOOST_TEST(delta_c(r.output) < 1e-8);
      BOOST_TEST(value_after(r.output, "energy scale = ") == kepler_energy_scale);
      const std::vector<KeplerRow> rows = kepler_rows(r.output);
      BOOST_TEST_REQUIRE(rows.size() == 10u);
      double printed_error = 0;
      for (const KeplerRow& row : rows) {
        printed_error = std::max(printed_error, std::abs(row.energy() - kepler_energy));
        BOOST_TEST(std::abs(row.angular_momentum_change) < 1e-12);
      }
      const double audited_error = value_after(r.output, "max |C - C(t0)| = ");  // printed to 4 digits
      BOOST_TEST_MESSAGE("energy error at the outputs " << printed_error << ", over every step "
                                                        << audited_error);
      BOOST_TEST(printed_error > 0);
      BOOST_TEST(audited_error >= printed_error * (1 - 1e-3));
      BOOST_TEST(audited_error <= 2 * printed_error);
    }
  }
}

// The wrong twin's method keeps the energy of the wrong force, |v|²/2 + ln|q|, as closely as the
// correct program's keeps H, and the program's own check, L, holds to round-off (a central force
// of any exponent keeps it); H of the program's model swings by about a quarter of the energy scale,
// and the audit fails.
BOOST_AUTO_TEST_CASE(the_kepler_program_with_the_wrong_exponent_fails) {
  const Run r = run(KEPLER_SPRKSTEP_WRONG_EXPONENT);
  BOOST_TEST_MESSAGE(r.output);
  BOOST_TEST(r.exit_status == 1);
  BOOST_TEST(r.output.find("): fail") != std::string::npos);
  BOOST_TEST(delta_c(r.output) > 0.1);
  const std::vector<KeplerRow> rows = kepler_rows(r.output);
  BOOST_TEST_REQUIRE(rows.size() == 10u);  // the wrong program runs to the end
  double printed_error = 0;
  for (const KeplerRow& row : rows) {
    BOOST_TEST(std::abs(row.wrong_force_energy() - kepler_start.wrong_force_energy()) < 1e-8);
    BOOST_TEST(std::abs(row.angular_momentum_change) < 1e-12);
    printed_error = std::max(printed_error, std::abs(row.energy() - kepler_energy));
  }
  BOOST_TEST(printed_error > 0.1 * kepler_energy_scale);
  BOOST_TEST(value_after(r.output, "max |C - C(t0)| = ") >= printed_error * (1 - 1e-3));
}

// ERKStep's 4th-order method at the same step (--erk) is not symplectic: its energy error grows
// over the orbits instead of staying bounded, so the symplectic method's δ_C is the smaller one,
// by more than a factor of ten; the audit fails the wrong twin on either stepper.
BOOST_AUTO_TEST_CASE(the_symplectic_method_keeps_the_energy_closer_than_erk_at_the_same_step) {
  const double symplectic = delta_c(run(KEPLER_SPRKSTEP).output);
  const Run erk = run(KEPLER_SPRKSTEP, "--erk");
  BOOST_TEST_MESSAGE("delta_C: SPRK " << symplectic << ", ERK " << delta_c(erk.output));
  BOOST_TEST(erk.exit_status == 0);
  BOOST_TEST(10 * symplectic < delta_c(erk.output));
  const Run wrong = run(KEPLER_SPRKSTEP_WRONG_EXPONENT, "--erk");
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(delta_c(wrong.output) > 0.1);
}
#endif

#ifdef DAMPED_SPRKSTEP
// The damped oscillator in Hamilton's variables (SUNDIALS 7): y = [p, q], H depends on t
// (Caldirola–Kanai), the audit in Hamilton's form with a layout.

namespace {

// q at t = 10 as the program prints it, and in closed form: m q'' + g m q' + k q = 0 from q = 1 at rest.
double damped_q_at_10(const std::string& output) {
  const std::size_t at = output.find("   10.000 ");
  return at == std::string::npos ? std::nan("") : std::strtod(output.c_str() + at + 10, nullptr);
}
double damped_q_exact_at_10() {
  const double g = 0.2, omega = std::sqrt(18.0 / 2.0 - g * g / 4), t = 10;
  return std::exp(-g * t / 2) * (std::cos(omega * t) + g / (2 * omega) * std::sin(omega * t));
}

}  // namespace

// It prints, less the audit's lines, what it prints unaudited, byte for byte, ARKODE's statistics
// included, on SPRKStep and on ERKStep; it passes and its twin with the wrong exponent in q' fails.
BOOST_AUTO_TEST_CASE(the_damped_hamiltonian_program_prints_what_it_prints_unaudited) {
  const std::pair<const char*, const char*> programs[] = {
      {DAMPED_SPRKSTEP, DAMPED_SPRKSTEP_UNAUDITED},
      {DAMPED_SPRKSTEP_WRONG_EXPONENT, DAMPED_SPRKSTEP_WRONG_EXPONENT_UNAUDITED}};
  for (const auto& [audited_program, plain_program] : programs) {
    for (const std::string arguments : {"", "--erk"}) {
      BOOST_TEST_CONTEXT(audited_program << " " << arguments) {
        const Run audited = run(audited_program, arguments), plain = run(plain_program, arguments);
        BOOST_TEST(plain.exit_status == 0);
        BOOST_TEST(plain.output.find(arguments == "--erk" ? "RHS fn evals" : "f1 RHS fn evals") != std::string::npos);
        BOOST_TEST(audited.output.find("energy audit: delta_C = ") != std::string::npos);
        BOOST_TEST(program_output(audited.output) == plain.output);
      }
    }
  }
  const Run right = run(DAMPED_SPRKSTEP), wrong = run(DAMPED_SPRKSTEP_WRONG_EXPONENT);
  BOOST_TEST_MESSAGE(right.output);
  BOOST_TEST(right.exit_status == 0);
  BOOST_TEST(right.output.find("): pass") != std::string::npos);
  BOOST_TEST(wrong.exit_status == 1);
  BOOST_TEST(delta_c(wrong.output) > 1e-2);
  BOOST_TEST(run(DAMPED_SPRKSTEP, "--dt 0").exit_status == 2);
}

// δ_C follows each method's order on this H: ERKStep's method converges at order 4 (the error
// of q(10) against the closed form falls 16-fold when the step halves, δ_C 31-fold: C is kept at
// order 5 here), SPRKStep's stage times make it converge at order 1 on an H that depends on t
// (δ_C and the error of q both halve).
BOOST_AUTO_TEST_CASE(the_audit_shows_each_steppers_order_on_a_time_dependent_hamiltonian) {
  const Run erk_coarse = run(DAMPED_SPRKSTEP, "--erk --dt 0.02"), erk_fine = run(DAMPED_SPRKSTEP, "--erk --dt 0.01");
  const double erk_ratio = delta_c(erk_coarse.output) / delta_c(erk_fine.output);
  const double erk_error_ratio = (damped_q_at_10(erk_coarse.output) - damped_q_exact_at_10()) /
                                 (damped_q_at_10(erk_fine.output) - damped_q_exact_at_10());
  BOOST_TEST_MESSAGE("ERKStep delta_C at dt = 0.02: " << delta_c(erk_coarse.output) << ", at 0.01: "
                                                      << delta_c(erk_fine.output) << ", ratio " << erk_ratio
                                                      << "; error of q(10) ratio " << erk_error_ratio);
  BOOST_TEST(erk_fine.exit_status == 0);
  BOOST_TEST(erk_error_ratio > 14.0);
  BOOST_TEST(erk_error_ratio < 18.0);
  BOOST_TEST(erk_ratio > 14.0);  // at least the method's order
  BOOST_TEST(erk_ratio < 40.0);

  const Run sprk_coarse = run(DAMPED_SPRKSTEP, "--dt 0.002"), sprk_fine = run(DAMPED_SPRKSTEP, "--dt 0.001");
  const double sprk_ratio = delta_c(sprk_coarse.output) / delta_c(sprk_fine.output);
  const double error_ratio = (damped_q_at_10(sprk_coarse.output) - damped_q_exact_at_10()) /
                             (damped_q_at_10(sprk_fine.output) - damped_q_exact_at_10());
  BOOST_TEST_MESSAGE("SPRKStep delta_C at dt = 0.002: " << delta_c(sprk_coarse.output) << ", at 0.001: "
                                                        << delta_c(sprk_fine.output) << ", ratio " << sprk_ratio
                                                        << "; error of q(10) ratio " << error_ratio);
  BOOST_TEST(sprk_ratio > 1.8);
  BOOST_TEST(sprk_ratio < 2.2);
  BOOST_TEST(error_ratio > 1.8);
  BOOST_TEST(error_ratio < 2.2);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
