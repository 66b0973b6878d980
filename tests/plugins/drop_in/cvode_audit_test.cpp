// CvodeAudit, the drop-in audit, on small CVODE programs of the tests' own (cvode_program.hpp),
// beside the cases audit_test.cpp runs on CVODE and IDA alike: the rheonomic energy rates and
// energies_from_model, exceptions and failed calls, restarts, the errors, and the check of the
// program's equations.
#include <cvodes/cvodes.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <energy_audit/error.hpp>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_energies.hpp>
#include <energy_audit/sundials/handles.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cvode_program.hpp"
#include "gyroscopic_oscillator.hpp"
#include "moving_support_pendulum.hpp"
#include "oscillator.hpp"

namespace sun = energy_audit::sun;
using energy_audit::testing::GyroscopicOscillator;
using energy_audit::testing::MovingSupportPendulum;
using energy_audit::testing::Oscillator;
using namespace energy_audit::testing::cvode_program;
using namespace energy_audit::testing::drop_in;

namespace {

/// The pendulum on a moving support with its hand-derived accelerations; `model` must outlive it.
Problem moving_support_problem(const MovingSupportPendulum& model) {
  return {[&model](double t, const double* y, double* ydot) {
            using Coordinates = MovingSupportPendulum::Coordinates<double>;
            ydot[0] = y[1];
            ydot[1] = model.accelerations(Coordinates(y[0]), Coordinates(y[1]), t)[0];
          },
          {}};
}

/// What print_summary writes.
std::string summary_of(const sun::CvodeAudit& audit) {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  BOOST_TEST_REQUIRE(out != nullptr);
  audit.print_summary(out);
  std::fclose(out);
  std::string summary(text, size);
  std::free(text);
  return summary;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cvode)

BOOST_AUTO_TEST_CASE(rheonomic_model_needs_its_energy_rates) {
  // The pendulum on a moving support: T and V depend on t. Its accelerations are those of the
  // hand derivation; the audit gets T, V, vᵀf and ∂T/∂t, ∂V/∂t written by hand, or all of them
  // from the templated model, or no rates at all (which must fail).
  const MovingSupportPendulum model;
  const Problem problem = moving_support_problem(model);
  sun::DropInEnergies by_hand{
      [&model](const double* q, const double* v, double t) {
        return model.T2(v[0]) + model.T1(q[0], v[0], t) + model.T0(t);
      },
      [&model](const double* q, double t) { return model.V(q[0], t); },
      [&model](const double*, const double* v, double) { return -model.c * v[0] * v[0]; },
      [&model](const double* q, const double* v, double t) { return model.T_t(q[0], v[0], t); },
      [&model](const double*, double t) { return model.V_t(t); }};
  sun::DropInEnergies without_rates = by_hand;
  without_rates.kinetic_energy_rate = nullptr;
  without_rates.potential_energy_rate = nullptr;

  struct Case {
    const char* name;
    sun::CvodeAudit audit;
  };
  Case cases[] = {{"by hand", sun::CvodeAudit(1, by_hand)},
                  {"from the model", sun::make_cvode_audit(model)},
                  {"without rates", sun::CvodeAudit(1, without_rates)}};
  for (Case& c : cases) {
    Solver solver(problem, {0.4, 0.0}, 1e-10, 1e-12);
    output_loop(solver, output_times(0.5, 10), audited(c.audit));
    BOOST_TEST_MESSAGE(c.name << ": delta_C = " << c.audit.relative_drift());
    const sun::DropInStep last = c.audit.last_step();
    BOOST_TEST_CONTEXT(c.name) {
      BOOST_TEST(last.kinetic1 != 0.0);
      BOOST_TEST(last.kinetic0 != 0.0);
      BOOST_TEST(last.jacobi == last.kinetic2 - last.kinetic0 + last.potential,
                 boost::test_tools::tolerance(1e-12));
    }
  }
  BOOST_TEST(cases[0].audit.relative_drift() < 1e-7);
  BOOST_TEST(cases[0].audit.passed());
  BOOST_TEST(cases[1].audit.relative_drift() == cases[0].audit.relative_drift(),
             boost::test_tools::tolerance(1e-3));
  BOOST_TEST(cases[1].audit.passed());
  BOOST_TEST(cases[0].audit.diagnosis().empty());
  BOOST_TEST(cases[1].audit.diagnosis().empty());
  // Without the rates, Z misses the power of the moving support: δ_C would report a drift of
  // 0.3; the audit names the missing functions instead and does not judge.
  BOOST_TEST(cases[2].audit.relative_drift() > 1e-2);
  BOOST_TEST(!cases[2].audit.passed());
  BOOST_TEST(cases[2].audit.verdict() == std::string("incomplete"));
  const std::string diagnosis = cases[2].audit.diagnosis();
  BOOST_TEST_MESSAGE("without rates: " << diagnosis);
  BOOST_TEST(diagnosis.find("T changes with t at fixed q and v but no kinetic_energy_rate (dT/dt) was given") !=
                 std::string::npos, diagnosis);
  BOOST_TEST(diagnosis.find("V changes with t at fixed q but no potential_energy_rate (dV/dt) was given") !=
                 std::string::npos, diagnosis);
  BOOST_TEST(summary_of(cases[2].audit).find("energy audit: " + diagnosis + "\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_missing_potential_rate_alone_is_named) {
  const MovingSupportPendulum model;
  const Problem problem = moving_support_problem(model);
  sun::DropInEnergies energies = sun::energies_from_model(model);
  energies.potential_energy_rate = nullptr;
  sun::CvodeAudit audit(1, energies);
  Solver solver(problem, {0.4, 0.0}, 1e-10, 1e-12);
  output_loop(solver, output_times(0.5, 2), audited(audit));
  const std::string diagnosis = audit.diagnosis();
  BOOST_TEST(diagnosis.find("V changes with t") != std::string::npos, diagnosis);
  BOOST_TEST(diagnosis.find("kinetic_energy_rate") == std::string::npos, diagnosis);
  BOOST_TEST(audit.verdict() == std::string("incomplete"));
}

BOOST_AUTO_TEST_CASE(energies_from_a_scleronomic_model_match_hand_written_ones) {
  Oscillator model;
  model.mass = mass;
  model.stiffness = stiffness;
  model.damping = damping;
  const sun::DropInEnergies from_model = sun::energies_from_model(model);
  BOOST_TEST(!from_model.kinetic_energy_rate);  // scleronomic: no rates
  BOOST_TEST(!from_model.potential_energy_rate);
  BOOST_TEST(from_model.kinetic_energy_is_quadratic);  // as the model declares by `scleronomic`
  BOOST_TEST(!sun::energies_from_model(MovingSupportPendulum{}).kinetic_energy_is_quadratic);
  const sun::DropInEnergies by_hand = oscillator_energies();
  const double q[] = {0.3}, v[] = {-1.7};
  BOOST_TEST(from_model.kinetic_energy(q, v, 0.2) == by_hand.kinetic_energy(q, v, 0.2));
  BOOST_TEST(from_model.potential_energy(q, 0.2) == by_hand.potential_energy(q, 0.2));
  BOOST_TEST(from_model.nonpotential_power(q, v, 0.2) == by_hand.nonpotential_power(q, v, 0.2));
}

// The work ledger: the damper's power split into two named terms (40 % and 60 %) beside no
// nonpotential_power. Z is the same as with the whole power given at once, the two works sum
// to −Z, and each is its share of the energy the closed-form motion lost.
BOOST_AUTO_TEST_CASE(named_power_terms_sum_to_the_energy_flow) {
  sun::DropInEnergies whole = oscillator_energies();
  sun::DropInEnergies named = oscillator_energies();
  named.nonpotential_power = nullptr;
  named.named_powers = {{"damper_a", [](const double*, const double* v, double) { return -0.4 * damping * v[0] * v[0]; }},
                        {"damper_b", [](const double*, const double* v, double) { return -0.6 * damping * v[0] * v[0]; }}};
  sun::CvodeAudit whole_audit(1, whole), named_audit(1, named);
  Solver whole_solver(oscillator_problem(), {q0, 0.0}, 1e-10, 1e-12), named_solver(oscillator_problem(), {q0, 0.0}, 1e-10, 1e-12);
  output_loop(whole_solver, output_times(0.5, 10), audited(whole_audit));
  output_loop(named_solver, output_times(0.5, 10), audited(named_audit));
  const double Z = named_audit.last_step().energy_flow;
  BOOST_TEST(Z == whole_audit.last_step().energy_flow, boost::test_tools::tolerance(1e-14));
  const std::vector<double> works = named_audit.named_works();
  BOOST_TEST_REQUIRE(works.size() == 2u);
  BOOST_TEST(works[0] + works[1] == -Z, boost::test_tools::tolerance(1e-14));
  const ExactState end = oscillator_exact(named_audit.last_step().t);
  const double lost = 0.5 * stiffness * q0 * q0 - (0.5 * mass * end.v * end.v + 0.5 * stiffness * end.q * end.q);
  BOOST_TEST(works[0] == -0.4 * lost, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(works[1] == -0.6 * lost, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(named_audit.passed());
  const std::string summary = summary_of(named_audit);
  BOOST_TEST(summary.find("energy audit: work W_damper_a = -") != std::string::npos, summary);
  BOOST_TEST(summary.find("(share of Z +40.0 %)") != std::string::npos, summary);
  BOOST_TEST(summary_of(whole_audit).find("work W_") == std::string::npos);
  named.named_powers.push_back({"", nullptr});
  BOOST_CHECK_THROW(sun::CvodeAudit(1, named), energy_audit::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(an_exception_from_an_energy_function_propagates) {
  const Problem problem = oscillator_problem();
  Solver solver(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::DropInEnergies energies = oscillator_energies();
  energies.potential_energy = [](const double* q, double t) {
    if (t > 1.0) throw std::domain_error("V undefined after t = 1");
    return 0.5 * stiffness * q[0] * q[0];
  };
  sun::CvodeAudit audit(1, energies);
  sunrealtype t = 0;
  BOOST_TEST(audit.CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_CHECK_THROW(audit.CVode(solver.mem(), 2.0, solver.y.get(), &t, CV_NORMAL), std::domain_error);
  BOOST_TEST(!audit.passed());  // a step went unaudited
  BOOST_TEST(audit.audited_steps() == solver.steps() - 1);
}

// A run that fails before the program's end never passes, however small δ_C was until then.
BOOST_AUTO_TEST_CASE(a_failed_cvode_call_makes_the_verdict_error) {
  Problem problem = oscillator_problem();
  problem.fails_after = 1.0;
  Solver solver(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::CvodeAudit audit(1, oscillator_energies());
  sunrealtype t = 0;
  BOOST_TEST(audit.CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_TEST(audit.passed());  // so far
  BOOST_TEST(audit.CVode(solver.mem(), 2.0, solver.y.get(), &t, CV_NORMAL) == CV_RHSFUNC_FAIL);
  BOOST_TEST(std::string(audit.verdict()) == "error");
  BOOST_TEST(!audit.passed());
  BOOST_TEST(audit.relative_drift() < 1e-6);  // the drift over the steps computed
}

BOOST_AUTO_TEST_CASE(steps_taken_around_the_audit_are_an_error) {
  const Problem problem = oscillator_problem();
  Solver solver(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::CvodeAudit audit(1, oscillator_energies());
  sunrealtype t = 0;
  BOOST_TEST(audit.CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_TEST(CVode(solver.mem(), 1.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);  // unaudited steps
  BOOST_CHECK_THROW(audit.CVode(solver.mem(), 1.5, solver.y.get(), &t, CV_NORMAL), energy_audit::Error);
}

BOOST_AUTO_TEST_CASE(the_audit_starts_where_the_solver_stands_and_continues_after_reinit) {
  const Problem problem = oscillator_problem();
  Solver solver(problem, {q0, 0.0}, 1e-10, 1e-12);
  sunrealtype t = 0;
  BOOST_TEST(CVode(solver.mem(), 1.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);  // before the audit
  const double t_start = solver.current_time();  // past t = 1: the last step's end
  sun::CvodeAudit audit(1, oscillator_energies());
  BOOST_TEST(audit.CVode(solver.mem(), 2.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  const long first_segment = audit.audited_steps();
  BOOST_TEST(first_segment > 0);
  // Restart from the state at t = 2 (no jump): C carries on.
  check(CVodeReInit(solver.mem(), t, solver.y.get()), "CVodeReInit");
  BOOST_TEST(audit.CVode(solver.mem(), 4.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_TEST(audit.audited_steps() == first_segment + solver.steps());
  const ExactState start = oscillator_exact(t_start), end = oscillator_exact(audit.last_step().t);
  const double lost = oscillator_energy(start.q, start.v) - oscillator_energy(end.q, end.v);
  // Counting the stretch from t = 2 to the end of the step past it twice would be off by 1e-3.
  BOOST_TEST(std::abs(audit.last_step().energy_flow - lost) < 1e-6);
  BOOST_TEST(audit.relative_drift() < 1e-7);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_rejected) {
  BOOST_CHECK_EXCEPTION(sun::CvodeAudit(0, oscillator_energies()), energy_audit::InvalidArgument,
                        [](const energy_audit::InvalidArgument& e) {
                          return std::string(e.what()) == "CvodeAudit: dofs = 0; the number of coordinates must be > 0";
                        });
  sun::DropInEnergies no_kinetic = oscillator_energies();
  no_kinetic.kinetic_energy = nullptr;
  BOOST_CHECK_THROW(sun::CvodeAudit(1, no_kinetic), energy_audit::InvalidArgument);
  BOOST_CHECK_THROW(sun::CvodeAudit(1, oscillator_energies(), -1.0), energy_audit::InvalidArgument);

  // A state shorter than [q, v].
  const Problem problem = oscillator_problem();
  Solver solver(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::CvodeAudit too_many_dofs(2, oscillator_energies());
  sunrealtype t = 0;
  BOOST_CHECK_EXCEPTION(too_many_dofs.CVode(solver.mem(), 1.0, solver.y.get(), &t, CV_NORMAL),
                        energy_audit::InvalidArgument, [](const energy_audit::InvalidArgument& e) {
                          return std::string(e.what()) ==
                                 "CvodeAudit: the CVODE state has 2 entries; the audit of 2 coordinates needs "
                                 "y = [q, v], at least 4";
                        });

  // CVODE's own argument errors come back as its flags.
  sun::CvodeAudit audit(1, oscillator_energies());
  BOOST_TEST(audit.CVode(solver.mem(), 1.0, solver.y.get(), nullptr, CV_NORMAL) == CV_ILL_INPUT);
  BOOST_TEST(audit.CVode(solver.mem(), 1.0, solver.y.get(), &t, 42) == CV_ILL_INPUT);
  BOOST_TEST(audit.CVode(nullptr, 1.0, solver.y.get(), &t, CV_NORMAL) == CV_MEM_NULL);

  // Moved from: unusable, and says so.
  sun::CvodeAudit moved = std::move(audit);
  BOOST_TEST(moved.threshold() == 1e-3);
  BOOST_CHECK_THROW(static_cast<void>(audit.threshold()),
                    energy_audit::Error);  // NOLINT(bugprone-use-after-move)
}

// With energies from a templated model, the drop-in audit also checks the program's right-hand
// side against Lagrange's equations of those energies, through the v̇ CVODE holds at each step's
// end: a gyroscopic term that does no work passes δ_C and fails the check.
BOOST_AUTO_TEST_CASE(energies_from_a_model_check_the_programs_equations) {
  const GyroscopicOscillator::Coordinates<double> start_q(1.0, 0.5), start_v(0.0, 1.0);
  for (const int method : {CV_BDF, CV_ADAMS}) {
    for (const double rtol : {1e-6, 1e-8, 1e-10}) {
      for (const double b : {0.0, 1.0}) {
        GyroscopicOscillator model;
        model.wrong_gyroscopic_coefficient = b;
        const Problem problem{[&model](double t, const double* y, double* ydot) {
                                const GyroscopicOscillator::Coordinates<double> q(y[0], y[1]), v(y[2], y[3]);
                                const auto a = model.accelerations(q, v, t);
                                ydot[0] = y[2];
                                ydot[1] = y[3];
                                ydot[2] = a[0];
                                ydot[3] = a[1];
                              },
                              {}};
        Solver solver(problem, {start_q[0], start_q[1], start_v[0], start_v[1]}, rtol, rtol * 1e-2, method);
        sun::CvodeAudit audit = sun::make_cvode_audit(model);
        output_loop(solver, output_times(1.0, 10), audited(audit));
        BOOST_TEST_MESSAGE((method == CV_BDF ? "BDF" : "Adams") << " rtol " << rtol << " b " << b << ": delta_C "
                                                                 << audit.relative_drift() << ", equations "
                                                                 << audit.equation_residual());
        BOOST_TEST_CONTEXT((method == CV_BDF ? "BDF" : "Adams") << " rtol " << rtol << " b " << b) {
          BOOST_TEST(audit.equation_checked_steps() == audit.audited_steps());
          BOOST_TEST(audit.relative_drift() < 1e-3);  // energy alone cannot tell
          if (b == 0.0) {
            BOOST_TEST(audit.equation_residual() <= audit.equation_threshold());
            BOOST_TEST(audit.passed());
          } else {
            BOOST_TEST(audit.equation_residual() > 0.1);
            BOOST_TEST(std::string(audit.verdict()) == "fail");
          }
        }
      }
    }
  }
}

// T declared quadratic in v (kinetic_energy_is_quadratic): evaluated once per state after the
// first 4, with the same C bit for bit on a model whose T is quadratic; on one whose T has T1
// and T0 (the pendulum on a moving support) the declaration is found wrong and named.
BOOST_AUTO_TEST_CASE(a_kinetic_energy_declared_quadratic_is_evaluated_once_per_state) {
  long evaluations = 0;
  sun::DropInEnergies counted = oscillator_energies();
  counted.kinetic_energy = [&evaluations](const double*, const double* v, double) {
    ++evaluations;
    return 0.5 * mass * v[0] * v[0];
  };
  sun::DropInEnergies declared = counted;
  declared.kinetic_energy_is_quadratic = true;
  sun::CvodeAudit split(1, counted), once(1, declared);
  Solver split_solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
  Solver once_solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
  output_loop(split_solver, output_times(0.5, 6), audited(split));
  const long split_evaluations = std::exchange(evaluations, 0);
  output_loop(once_solver, output_times(0.5, 6), audited(once));
  const long states = once.audited_steps() + 1;  // the start and each step's end
  BOOST_TEST(split_evaluations >= 3 * states);  // T(q, v), T(q, -v), T(q, 0) and the rate checks
  BOOST_TEST(evaluations <= split_evaluations - 2 * (states - 4));
  BOOST_TEST(once.relative_drift() == split.relative_drift());  // bit for bit: T1 = T0 = 0 exactly
  BOOST_TEST(once.last_step().control == split.last_step().control);
  BOOST_TEST(once.diagnosis().empty());
  BOOST_TEST(once.passed());

  const MovingSupportPendulum model;
  sun::DropInEnergies wrong = sun::energies_from_model(model);
  wrong.kinetic_energy_is_quadratic = true;
  sun::CvodeAudit audit(1, wrong);
  Solver solver(moving_support_problem(model), {0.4, 0.0}, 1e-10, 1e-12);
  output_loop(solver, output_times(0.5, 2), audited(audit));
  const std::string diagnosis = audit.diagnosis();
  BOOST_TEST(diagnosis.find("T was declared quadratic in v") != std::string::npos, diagnosis);
  BOOST_TEST(audit.verdict() == std::string("incomplete"));
  BOOST_TEST(audit.relative_drift() < 1e-6);  // split at every state: C is still the model's
}

// Z as CVODES' own quadrature (integrate_flow_as_quadrature): the named works, a restart, an
// exception from an energy function inside CVODE, and what the mode refuses.
BOOST_AUTO_TEST_CASE(z_as_the_solvers_quadrature_agrees_with_gauss_on_the_interpolant) {
  sun::DropInEnergies named = oscillator_energies();
  named.named_powers = {{"damper_a", [](const double*, const double* v, double) { return -0.4 * damping * v[0] * v[0]; }}};
  named.nonpotential_power = [](const double*, const double* v, double) { return -0.6 * damping * v[0] * v[0]; };
  sun::CvodeAudit gauss(1, named), quadrature(1, named);
  quadrature.integrate_flow_as_quadrature();
  BOOST_TEST(quadrature.integrates_flow_as_quadrature());
  BOOST_TEST(!gauss.integrates_flow_as_quadrature());
  Solver gauss_solver(oscillator_problem(), {q0, 0.0}, 1e-10, 1e-12);
  Solver quadrature_solver(oscillator_problem(), {q0, 0.0}, 1e-10, 1e-12);
  output_loop(gauss_solver, output_times(0.5, 10), audited(gauss));
  output_loop(quadrature_solver, output_times(0.5, 10), audited(quadrature));
  BOOST_TEST(quadrature_solver.steps() == gauss_solver.steps());
  const sun::DropInStep last = quadrature.last_step();
  const ExactState start = oscillator_exact(0.0), end = oscillator_exact(last.t);
  const double lost = oscillator_energy(start.q, start.v) - oscillator_energy(end.q, end.v);
  BOOST_TEST(std::abs(last.energy_flow - lost) < 1e-7 * oscillator_energy(q0, 0.0));
  BOOST_TEST(std::abs(last.energy_flow - gauss.last_step().energy_flow) < 1e-7 * oscillator_energy(q0, 0.0));
  BOOST_TEST_REQUIRE(quadrature.named_works().size() == 1u);
  BOOST_TEST(quadrature.named_works()[0] == -0.4 * lost, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(quadrature.relative_drift() < 1e-7);
  BOOST_TEST(quadrature.passed());
  long evaluations = 0;  // Ż once per step (and at t0), not at interpolated states
  BOOST_TEST(CVodeGetQuadNumRhsEvals(quadrature_solver.mem(), &evaluations) == CV_SUCCESS);
  BOOST_TEST(evaluations <= 2 * quadrature_solver.steps() + 1);
}

BOOST_AUTO_TEST_CASE(z_as_the_solvers_quadrature_continues_after_reinit) {
  Solver solver(oscillator_problem(), {q0, 0.0}, 1e-10, 1e-12);
  sun::CvodeAudit audit(1, oscillator_energies());
  audit.integrate_flow_as_quadrature();
  sunrealtype t = 0;
  BOOST_TEST(audit.CVode(solver.mem(), 2.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  const long first_segment = audit.audited_steps();
  // Restart from the state at t = 2, which CVODE interpolated before its last step's end.
  check(CVodeReInit(solver.mem(), t, solver.y.get()), "CVodeReInit");
  BOOST_TEST(audit.CVode(solver.mem(), 4.0, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_TEST(audit.audited_steps() == first_segment + solver.steps());
  const ExactState end = oscillator_exact(audit.last_step().t);
  const double lost = oscillator_energy(q0, 0.0) - oscillator_energy(end.q, end.v);
  BOOST_TEST(std::abs(audit.last_step().energy_flow - lost) < 1e-6);
  BOOST_TEST(audit.relative_drift() < 1e-7);
}

BOOST_AUTO_TEST_CASE(z_as_the_solvers_quadrature_propagates_an_energy_functions_exception) {
  Solver solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
  sun::DropInEnergies energies = oscillator_energies();
  energies.nonpotential_power = [](const double*, const double* v, double t) {
    if (t > 1.0) throw std::domain_error("P undefined after t = 1");
    return -damping * v[0] * v[0];
  };
  sun::CvodeAudit audit(1, energies);
  audit.integrate_flow_as_quadrature();
  sunrealtype t = 0;
  BOOST_TEST(audit.CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
  BOOST_CHECK_THROW(audit.CVode(solver.mem(), 2.0, solver.y.get(), &t, CV_NORMAL), std::domain_error);
  BOOST_TEST(!audit.passed());
}

BOOST_AUTO_TEST_CASE(z_as_the_solvers_quadrature_refuses_what_it_cannot_audit) {
  sunrealtype t = 0;
  {  // chosen after the first call
    Solver solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
    sun::CvodeAudit audit(1, oscillator_energies());
    BOOST_TEST(audit.CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
    BOOST_CHECK_THROW(audit.integrate_flow_as_quadrature(), energy_audit::InvalidArgument);
  }
  {  // a solver that stepped before the audit: its quadrature cannot start mid-run
    Solver solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
    BOOST_TEST(CVode(solver.mem(), 0.5, solver.y.get(), &t, CV_NORMAL) == CV_SUCCESS);
    sun::CvodeAudit audit(1, oscillator_energies());
    audit.integrate_flow_as_quadrature();
    BOOST_CHECK_THROW(audit.CVode(solver.mem(), 1.0, solver.y.get(), &t, CV_NORMAL), energy_audit::InvalidArgument);
  }
  {  // a program with a quadrature of its own
    Solver solver(oscillator_problem(), {q0, 0.0}, 1e-8, 1e-10);
    const sun::NVector own = sun::make_serial_vector(1, solver.context);
    N_VConst(0.0, own.get());
    const CVQuadRhsFn zero_rate = [](sunrealtype, N_Vector, N_Vector rate, void*) {
      N_VConst(0.0, rate);
      return 0;
    };
    check(CVodeQuadInit(solver.mem(), zero_rate, own.get()), "CVodeQuadInit");
    sun::CvodeAudit audit(1, oscillator_energies());
    audit.integrate_flow_as_quadrature();
    try {
      audit.CVode(solver.mem(), 1.0, solver.y.get(), &t, CV_NORMAL);
      BOOST_ERROR("no error for a program with quadratures of its own");
    } catch (const energy_audit::InvalidArgument& e) {
      BOOST_TEST(std::string(e.what()).find("quadratures of its own") != std::string::npos, e.what());
    }
    BOOST_TEST(solver.steps() == 0);  // refused before CVODE stepped
  }
}

BOOST_AUTO_TEST_SUITE_END()
