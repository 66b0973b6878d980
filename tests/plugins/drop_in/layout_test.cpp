// The drop-in audit on states not laid out as y = [q, v]: a layout (DropInLayout) for interleaved
// bodies and for mechanical states after others, Hamilton's variables (DropInHamiltonian) with p
// not a velocity and a time-dependent H, and the whole-state form (DropInStateEnergy). Each against
// the same model laid out as [q, v], or a closed form, and a wrong twin that fails.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <energy_audit/error.hpp>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_energies.hpp>
#include <string>
#include <vector>

#include "cvode_program.hpp"

namespace sun = energy_audit::sun;
using namespace energy_audit::testing::cvode_program;
using namespace energy_audit::testing::drop_in;

namespace {

// Two masses on a line: the first tied to the ground by a spring k1 and a damper c1, the second to
// the first by a spring k2.
constexpr double m1 = 1.0, m2 = 2.0, k1 = 30.0, k2 = 12.0, c1 = 0.3;

/// The chain's accelerations of x1, x2 from positions and velocities.
void chain_accelerations(double x1, double x2, double v1, double a[2], double damper_sign = 1.0) {
  a[0] = (-k1 * x1 - damper_sign * c1 * v1 + k2 * (x2 - x1)) / m1;
  a[1] = (-k2 * (x2 - x1)) / m2;
}

/// The chain as a program over y = [x1, v1, x2, v2], one body after another.
Problem interleaved_chain(double damper_sign = 1.0) {
  return {[damper_sign](double, const double* y, double* ydot) {
            double a[2];
            chain_accelerations(y[0], y[2], y[1], a, damper_sign);
            ydot[0] = y[1];
            ydot[1] = a[0];
            ydot[2] = y[3];
            ydot[3] = a[1];
          },
          {}};
}

/// The same chain over y = [x1, x2, v1, v2].
Problem block_chain() {
  return {[](double, const double* y, double* ydot) {
            double a[2];
            chain_accelerations(y[0], y[1], y[2], a);
            ydot[0] = y[2];
            ydot[1] = y[3];
            ydot[2] = a[0];
            ydot[3] = a[1];
          },
          {}};
}

sun::DropInEnergies chain_energies() {
  return {[](const double*, const double* v, double) { return 0.5 * (m1 * v[0] * v[0] + m2 * v[1] * v[1]); },
          [](const double* q, double) {
            return 0.5 * k1 * q[0] * q[0] + 0.5 * k2 * (q[1] - q[0]) * (q[1] - q[0]);
          },
          [](const double*, const double* v, double) { return -c1 * v[0] * v[0]; }};
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const energy_audit::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layouts_and_forms)

BOOST_AUTO_TEST_CASE(interleaved_bodies_are_audited_as_the_block_layout) {
  sun::CvodeAudit block(2, chain_energies());
  Solver block_solver(block_chain(), {0.1, -0.05, 0.0, 0.0}, 1e-10, 1e-12);
  output_loop(block_solver, output_times(0.5, 8), audited(block));

  sun::CvodeAudit interleaved(2, chain_energies());
  interleaved.use_layout(sun::DropInLayout::strided(4, 2, 0, 1, 2));
  Solver solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  const auto returns = output_loop(solver, output_times(0.5, 8), audited(interleaved));

  // The program's own output is that of the program without the audit, bit for bit.
  Solver plain_solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  require_identical(output_loop(plain_solver, output_times(0.5, 8), without_audit()), returns);
  BOOST_TEST(solver.steps() == plain_solver.steps());
  BOOST_TEST(solver.rhs_evaluations() == plain_solver.rhs_evaluations());  // CVODE's own counters

  BOOST_TEST_MESSAGE("block delta_C = " << block.relative_drift() << ", interleaved " << interleaved.relative_drift());
  BOOST_TEST(interleaved.passed());
  BOOST_TEST(interleaved.relative_drift() < 1e-7);
  // The dampers' work and the energies are the same model's: Z agrees with the block layout's to
  // the solvers' tolerance (their steps differ: CVODE's error norm sums the entries in another order).
  BOOST_TEST(interleaved.last_step().energy_flow == block.last_step().energy_flow, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(interleaved.last_step().jacobi == block.last_step().jacobi, boost::test_tools::tolerance(1e-5));
  BOOST_TEST(interleaved.last_step().energy_flow > 1e-3);  // the damper did work

  // The wrong twin: the damper's force with the wrong sign fails; so does the right program read
  // as if it were laid out [q, v] (x2 taken for v1).
  sun::CvodeAudit wrong_sign(2, chain_energies());
  wrong_sign.use_layout(sun::DropInLayout::strided(4, 2, 0, 1, 2));
  Solver wrong_solver(interleaved_chain(-1.0), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  output_loop(wrong_solver, output_times(0.5, 8), audited(wrong_sign));
  BOOST_TEST(!wrong_sign.passed());
  BOOST_TEST(wrong_sign.relative_drift() > 1e-2);

  sun::CvodeAudit misread(2, chain_energies());
  Solver misread_solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  output_loop(misread_solver, output_times(0.5, 8), audited(misread));
  BOOST_TEST(!misread.passed());
}

BOOST_AUTO_TEST_CASE(index_lists_and_ignored_states) {
  // y = [θ, x, v]: a thermal state first, heated by the damper (θ' = c v² / C), then the
  // oscillator. The layout names x and v; θ is not read; the damper's power is the program's.
  constexpr double m = 2.0, k = 18.0, c = 0.4, heat_capacity = 5.0;  // NOLINT
  const Problem problem{[](double, const double* y, double* ydot) {
                          ydot[0] = c * y[2] * y[2] / heat_capacity;
                          ydot[1] = y[2];
                          ydot[2] = (-c * y[2] - k * y[1]) / m;
                        },
                        {}};
  const sun::DropInEnergies energies{[](const double*, const double* v, double) { return 0.5 * m * v[0] * v[0]; },
                                     [](const double* q, double) { return 0.5 * k * q[0] * q[0]; },
                                     [](const double*, const double* v, double) { return -c * v[0] * v[0]; }};
  sun::CvodeAudit audit(1, energies);
  audit.use_layout(sun::DropInLayout{3, {1}, {2}});
  Solver solver(problem, {0.0, 1.0, 0.0}, 1e-10, 1e-12);
  check(CVodeSetStopTime(solver.mem(), 4.0), "CVodeSetStopTime");  // the last step ends at t = 4
  output_loop(solver, output_times(0.5, 8), audited(audit));
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.relative_drift() < 1e-7);
  // Z is the damper's dissipated energy, which the thermal state holds as C θ.
  BOOST_TEST(audit.last_step().energy_flow == heat_capacity * solver[0], boost::test_tools::tolerance(1e-6));

  // The whole-state form of the same program: E holds the heat, and nothing else has power.
  sun::CvodeAudit whole = sun::CvodeAudit::whole_state(
      {[](const double* y, double) { return 0.5 * m * y[2] * y[2] + 0.5 * k * y[1] * y[1] + heat_capacity * y[0]; }});
  Solver whole_solver(problem, {0.0, 1.0, 0.0}, 1e-10, 1e-12);
  output_loop(whole_solver, output_times(0.5, 8), audited(whole));
  BOOST_TEST(whole.passed());
  BOOST_TEST(whole.relative_drift() < 1e-7);
  BOOST_TEST(std::abs(whole.last_step().energy_flow) < 1e-12);  // Ż = 0: no rate, no power

  // Without the heat, E = T + V and the damper's power P = −c v²: Z is the heat again.
  sun::CvodeAudit mechanical = sun::CvodeAudit::whole_state(
      {.energy = [](const double* y, double) { return 0.5 * m * y[2] * y[2] + 0.5 * k * y[1] * y[1]; },
       .power = [](const double* y, double) { return -c * y[2] * y[2]; }});
  Solver mechanical_solver(problem, {0.0, 1.0, 0.0}, 1e-10, 1e-12);
  check(CVodeSetStopTime(mechanical_solver.mem(), 4.0), "CVodeSetStopTime");
  output_loop(mechanical_solver, output_times(0.5, 8), audited(mechanical));
  BOOST_TEST(mechanical.passed());
  BOOST_TEST(mechanical.last_step().energy_flow == heat_capacity * mechanical_solver[0],
             boost::test_tools::tolerance(1e-6));

  // Its wrong twin: the power left out, the loss is unexplained.
  sun::CvodeAudit without_power = sun::CvodeAudit::whole_state(
      {[](const double* y, double) { return 0.5 * m * y[2] * y[2] + 0.5 * k * y[1] * y[1]; }});
  Solver without_power_solver(problem, {0.0, 1.0, 0.0}, 1e-10, 1e-12);
  output_loop(without_power_solver, output_times(0.5, 8), audited(without_power));
  BOOST_TEST(!without_power.passed());
}

BOOST_AUTO_TEST_CASE(a_layout_that_does_not_fit_is_one_error_naming_the_index) {
  const auto run = [](const sun::DropInLayout& layout) {
    return error_of([&] {
      sun::CvodeAudit audit(2, chain_energies());
      audit.use_layout(layout);
      Solver solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
      output_loop(solver, output_times(0.5, 1), audited(audit));
    });
  };
  const std::string past_end = run(sun::DropInLayout{0, {0, 2}, {1, 7}});
  BOOST_TEST(past_end.find("velocities[1] = 7 is past its end") != std::string::npos, past_end);
  BOOST_TEST(past_end.find("4 entries") != std::string::npos, past_end);
  const std::string overlap = run(sun::DropInLayout{4, {0, 1}, {1, 3}});
  BOOST_TEST(overlap.find("velocities[0] = 1, an entry of y named twice") != std::string::npos, overlap);
  const std::string length = run(sun::DropInLayout::strided(6, 2, 0, 1, 2));
  BOOST_TEST(length.find("the CVODE state has 4 entries but the layout declares 6") != std::string::npos, length);
  const std::string count = run(sun::DropInLayout{4, {0}, {1}});
  BOOST_TEST(count.find("lists 1 coordinates and 1 velocities") != std::string::npos, count);
  const std::string negative = run(sun::DropInLayout{4, {0, -2}, {1, 3}});
  BOOST_TEST(negative.find("coordinates[1] = -2, a negative index") != std::string::npos, negative);
  for (const std::string* message : {&past_end, &overlap, &length, &count, &negative}) {
    BOOST_TEST(message->find('\n') == std::string::npos);
  }

  // A layout that does not fit the state: the first CVode call throws before CVODE steps.
  sun::CvodeAudit audit(2, chain_energies());
  audit.use_layout(sun::DropInLayout{0, {0, 2}, {1, 4}});
  Solver solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  BOOST_CHECK_THROW(output_loop(solver, output_times(0.5, 1), audited(audit)), energy_audit::InvalidArgument);
  BOOST_TEST(solver.steps() == 0);
  BOOST_TEST(solver[0] == 0.1);
  // A layout after the first call, and one for the whole-state form, are refused.
  sun::CvodeAudit started(2, chain_energies());
  started.use_layout(sun::DropInLayout::strided(4, 2, 0, 1, 2));
  Solver started_solver(interleaved_chain(), {0.1, 0.0, -0.05, 0.0}, 1e-10, 1e-12);
  output_loop(started_solver, output_times(0.5, 1), audited(started));
  BOOST_CHECK_THROW(started.use_layout(sun::DropInLayout::strided(4, 2, 0, 1, 2)), energy_audit::InvalidArgument);
  sun::CvodeAudit whole = sun::CvodeAudit::whole_state({[](const double* y, double) { return y[0]; }});
  BOOST_CHECK_THROW(whole.use_layout(sun::DropInLayout::strided(4, 2, 0, 1, 2)), energy_audit::InvalidArgument);
}

// A damped oscillator written in Hamilton's variables with a time-dependent H (Caldirola–Kanai):
// H = e^(−γt) p²/(2m) + e^(γt) k q²/2, q' = e^(−γt) p/m, p' = −e^(γt) k q. H is not conserved, and
// C = H + Z with Ż = −∂H/∂t is. The program's state is [p, q], p is not m q'.
constexpr double ck_mass = 2.0, ck_stiffness = 18.0, ck_gamma = 0.2;

double ck_hamiltonian(const double* q, const double* p, double t) {
  return std::exp(-ck_gamma * t) * p[0] * p[0] / (2 * ck_mass) + std::exp(ck_gamma * t) * ck_stiffness * q[0] * q[0] / 2;
}
double ck_hamiltonian_rate(const double* q, const double* p, double t) {
  return -ck_gamma * std::exp(-ck_gamma * t) * p[0] * p[0] / (2 * ck_mass) +
         ck_gamma * std::exp(ck_gamma * t) * ck_stiffness * q[0] * q[0] / 2;
}
Problem caldirola_kanai() {
  return {[](double t, const double* y, double* ydot) {
            ydot[0] = -std::exp(ck_gamma * t) * ck_stiffness * y[1];  // p'
            ydot[1] = std::exp(-ck_gamma * t) * y[0] / ck_mass;         // q'
          },
          {}};
}

BOOST_AUTO_TEST_CASE(hamiltons_variables_with_a_time_dependent_hamiltonian) {
  const sun::DropInLayout p_then_q{2, {1}, {0}};
  sun::CvodeAudit audit = sun::CvodeAudit::hamiltonian(1, {ck_hamiltonian, ck_hamiltonian_rate});
  audit.use_layout(p_then_q);
  Solver solver(caldirola_kanai(), {0.0, 1.0}, 1e-10, 1e-12);
  check(CVodeSetStopTime(solver.mem(), 5.0), "CVodeSetStopTime");  // the last step ends at t = 5
  output_loop(solver, output_times(0.5, 10), audited(audit));
  BOOST_TEST_MESSAGE("Caldirola-Kanai delta_C = " << audit.relative_drift());
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.relative_drift() < 1e-7);
  BOOST_TEST(audit.diagnosis().empty());
  // Z = H(0) − H(t): here H grew (e^(γt) on the spring), and the integral says by how much.
  const double y[2] = {solver[0], solver[1]};
  const double H = ck_hamiltonian(&y[1], &y[0], 5.0), H0 = ck_hamiltonian(std::vector{1.0}.data(), std::vector{0.0}.data(), 0.0);
  BOOST_TEST(audit.last_step().energy_flow == H0 - H, boost::test_tools::tolerance(1e-6));

  // Wrong twins: ∂H/∂t with the wrong sign fails; without it the audit names the missing rate.
  sun::CvodeAudit wrong = sun::CvodeAudit::hamiltonian(
      1, {ck_hamiltonian, [](const double* q, const double* p, double t) { return -ck_hamiltonian_rate(q, p, t); }});
  wrong.use_layout(p_then_q);
  Solver wrong_solver(caldirola_kanai(), {0.0, 1.0}, 1e-10, 1e-12);
  output_loop(wrong_solver, output_times(0.5, 10), audited(wrong));
  BOOST_TEST(!wrong.passed());
  BOOST_TEST(wrong.relative_drift() > 1e-2);

  sun::CvodeAudit missing = sun::CvodeAudit::hamiltonian(1, {ck_hamiltonian});
  missing.use_layout(p_then_q);
  Solver missing_solver(caldirola_kanai(), {0.0, 1.0}, 1e-10, 1e-12);
  output_loop(missing_solver, output_times(0.5, 2), audited(missing));
  BOOST_TEST(missing.verdict() == std::string("incomplete"));
  BOOST_TEST(missing.diagnosis().find("H changes with t at fixed q and p but no hamiltonian_rate") != std::string::npos,
             missing.diagnosis());
}

BOOST_AUTO_TEST_CASE(a_templated_hamiltonian_has_its_rates_by_automatic_differentiation) {
  // Caldirola–Kanai written once over the scalar: ∂H/∂t and ∂H/∂p by dual numbers equal the
  // hand-written ones, and the audit's Z equals that of the hand-written rate.
  const auto templated = [](const auto* q, const auto* p, auto t) {
    using std::exp;
    return exp(-ck_gamma * t) * p[0] * p[0] / (2 * ck_mass) + exp(ck_gamma * t) * ck_stiffness * q[0] * q[0] / 2;
  };
  const sun::DropInHamiltonian derived = sun::energies_from_hamiltonian<1>(templated);
  const double q = 0.3, p = -1.2, t = 0.7;
  BOOST_TEST(derived.hamiltonian(&q, &p, t) == ck_hamiltonian(&q, &p, t), boost::test_tools::tolerance(1e-15));
  BOOST_TEST(derived.hamiltonian_rate(&q, &p, t) == ck_hamiltonian_rate(&q, &p, t),
             boost::test_tools::tolerance(1e-14));
  double q_rate = 0;
  derived.coordinate_rates(&q, &p, t, &q_rate);
  BOOST_TEST(q_rate == std::exp(-ck_gamma * t) * p / ck_mass, boost::test_tools::tolerance(1e-15));

  sun::CvodeAudit by_hand = sun::CvodeAudit::hamiltonian(1, {ck_hamiltonian, ck_hamiltonian_rate});
  sun::CvodeAudit by_dual = sun::CvodeAudit::hamiltonian(1, derived);
  for (sun::CvodeAudit* audit : {&by_hand, &by_dual}) {
    audit->use_layout({2, {1}, {0}});
    Solver solver(caldirola_kanai(), {0.0, 1.0}, 1e-10, 1e-12);
    output_loop(solver, output_times(0.5, 10), audited(*audit));
    BOOST_TEST(audit->passed());
  }
  BOOST_TEST(by_dual.last_step().energy_flow == by_hand.last_step().energy_flow, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(generalized_forces_take_q_rate_from_the_solver_or_from_dH_dp) {
  // H = p²/(2m) + k q²/2 with a damper Q = −c q' = −c p/m: p' = −k q − c p/m. The audit takes q'
  // from CVODE's derivative of the state, or from coordinate_rates; both give Z = the damper's work.
  constexpr double m = 2.0, k = 18.0, c = 0.4;
  const Problem problem{[](double, const double* y, double* ydot) {
                          ydot[0] = y[1] / m;                  // q'
                          ydot[1] = -k * y[0] - c * y[1] / m;  // p'
                        },
                        {}};
  const auto hamiltonian = [](const double* q, const double* p, double) {
    return p[0] * p[0] / (2 * m) + k * q[0] * q[0] / 2;
  };
  const auto damper = [](double sign) {
    return [sign](const double*, const double* p, double, double* forces) { forces[0] = -sign * c * p[0] / m; };
  };
  sun::DropInHamiltonian from_solver{.hamiltonian = hamiltonian, .generalized_forces = damper(1.0)};
  sun::DropInHamiltonian from_dH_dp = from_solver;
  from_dH_dp.coordinate_rates = [](const double*, const double* p, double, double* q_rate) { q_rate[0] = p[0] / m; };

  sun::CvodeAudit solver_rates = sun::CvodeAudit::hamiltonian(1, from_solver);
  Solver solver(problem, {1.0, 0.0}, 1e-10, 1e-12);
  output_loop(solver, output_times(0.5, 10), audited(solver_rates));
  sun::CvodeAudit given_rates = sun::CvodeAudit::hamiltonian(1, from_dH_dp);
  Solver given_solver(problem, {1.0, 0.0}, 1e-10, 1e-12);
  output_loop(given_solver, output_times(0.5, 10), audited(given_rates));
  for (const sun::CvodeAudit* audit : {&solver_rates, &given_rates}) {
    BOOST_TEST(audit->passed());
    BOOST_TEST(audit->relative_drift() < 1e-7);
  }
  BOOST_TEST(solver_rates.last_step().energy_flow == given_rates.last_step().energy_flow,
             boost::test_tools::tolerance(1e-7));
  BOOST_TEST(solver_rates.last_step().energy_flow > 1.0);  // most of the 9 J were dissipated by t = 5

  // The wrong twin: the damper's power counted with the wrong sign. And the same program audited
  // as if p were the velocity (Lagrange's form, T = m v²/2 with v = p): it fails.
  sun::DropInHamiltonian wrong = from_solver;
  wrong.generalized_forces = damper(-1.0);
  sun::CvodeAudit wrong_audit = sun::CvodeAudit::hamiltonian(1, wrong);
  Solver wrong_solver(problem, {1.0, 0.0}, 1e-10, 1e-12);
  output_loop(wrong_solver, output_times(0.5, 10), audited(wrong_audit));
  BOOST_TEST(!wrong_audit.passed());
  sun::CvodeAudit as_velocity(1, {[](const double*, const double* v, double) { return m * v[0] * v[0] / 2; },
                                  [](const double* q, double) { return k * q[0] * q[0] / 2; },
                                  [](const double*, const double* v, double) { return -c * v[0] * v[0]; }});
  Solver as_velocity_solver(problem, {1.0, 0.0}, 1e-10, 1e-12);
  output_loop(as_velocity_solver, output_times(0.5, 10), audited(as_velocity));
  BOOST_TEST(!as_velocity.passed());

  // Z as CVODES' quadrature has no derivative of the state to read q' from.
  sun::CvodeAudit quadrature = sun::CvodeAudit::hamiltonian(1, from_solver);
  quadrature.integrate_flow_as_quadrature();
  Solver quadrature_solver(problem, {1.0, 0.0}, 1e-10, 1e-12);
  const std::string refused = error_of([&] { output_loop(quadrature_solver, output_times(0.5, 1), audited(quadrature)); });
  BOOST_TEST(refused.find("give coordinate_rates") != std::string::npos, refused);
}

BOOST_AUTO_TEST_SUITE_END()
