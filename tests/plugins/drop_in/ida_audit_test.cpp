// IdaAudit, the drop-in audit for IDA programs, on small IDA programs of the tests' own
// (ida_program.hpp), beside the cases audit_test.cpp runs on CVODE and IDA alike: a pendulum on a
// rope of prescribed length (a multiplier, a rheonomic constraint) that passes with its constraint
// power and fails without it or with one sign slipped in its residual, the C interface
// (ida_drop_in.h) against a plain IDASolve, and the errors.
#include <idas/idas.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <energy_audit/error.hpp>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/ida_drop_in.h>
#include <energy_audit/sundials/ida_drop_in.hpp>
#include <string>
#include <vector>

#include "ida_program.hpp"

namespace sun = energy_audit::sun;
using namespace energy_audit::testing::ida_program;
using namespace energy_audit::testing::drop_in;

BOOST_AUTO_TEST_SUITE(ida)

BOOST_AUTO_TEST_CASE(a_hoisted_pendulum_passes_with_its_constraint_power) {
  const Problem problem = hoisted_pendulum();
  Solver solver(problem, 1e-9, 1e-11);
  sun::IdaAudit audit(2, pendulum_energies());
  output_loop(solver, output_times(0.5, 20), audited(audit));
  BOOST_TEST_MESSAGE("hoisted pendulum: delta_C = " << audit.relative_drift() << ", Z(10) = "
                                                    << audit.last_step().energy_flow);
  BOOST_TEST(std::abs(audit.last_step().energy_flow) > 1e-2 * audit.energy_scale());  // the winch works
  BOOST_TEST(audit.relative_drift() < 1e-5);
  BOOST_TEST(audit.passed());
}

BOOST_AUTO_TEST_CASE(without_its_constraint_power_or_with_a_slipped_sign_it_fails) {
  {
    const Problem problem = hoisted_pendulum();
    Solver solver(problem, 1e-9, 1e-11);
    sun::IdaAudit audit(2, pendulum_energies(false));
    output_loop(solver, output_times(0.5, 20), audited(audit));
    BOOST_TEST_MESSAGE("without the constraint power: delta_C = " << audit.relative_drift());
    BOOST_TEST(audit.relative_drift() > 1e-2);
    BOOST_TEST(std::string(audit.verdict()) == "fail");
  }
  {
    const Problem problem = hoisted_pendulum(-1.0);
    Solver solver(problem, 1e-9, 1e-11);
    sun::IdaAudit audit(2, pendulum_energies());
    output_loop(solver, output_times(0.5, 20), audited(audit));
    BOOST_TEST_MESSAGE("slipped sign: delta_C = " << audit.relative_drift());
    BOOST_TEST(audit.relative_drift() > 1e-2);
    BOOST_TEST(std::string(audit.verdict()) == "fail");
  }
}

/// `problem` with its state reordered: entry k of the new state is entry order[k] of the old.
Problem reordered(const Problem& problem, std::vector<int> order) {
  const auto permute = [order](const std::vector<double>& old) {
    std::vector<double> placed(old.size());
    for (std::size_t k = 0; k < order.size(); ++k) placed[k] = old[static_cast<std::size_t>(order[k])];
    return placed;
  };
  Problem moved = problem;
  moved.residual = [residual = problem.residual, order](double t, const double* y, const double* yp, double* F) {
    std::vector<double> old_y(order.size()), old_yp(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
      old_y[static_cast<std::size_t>(order[k])] = y[k];
      old_yp[static_cast<std::size_t>(order[k])] = yp[k];
    }
    residual(t, old_y.data(), old_yp.data(), F);
  };
  moved.y0 = permute(problem.y0);
  moved.yp0 = permute(problem.yp0);
  moved.id = permute(problem.id);
  return moved;
}

BOOST_AUTO_TEST_CASE(a_layout_names_the_coordinates_velocities_and_multipliers) {
  // The hoisted pendulum with its state kept as [λ, x, vx, y, vy]: the layout names q, v and λ.
  const Problem problem = reordered(hoisted_pendulum(), {4, 0, 2, 1, 3});
  Solver solver(problem, 1e-9, 1e-11);
  sun::IdaAudit audit(2, pendulum_energies());
  audit.use_layout(sun::DropInLayout{5, {1, 3}, {2, 4}}.with_multipliers(0, 1));
  check(IDASetStopTime(solver.mem(), 10.0), "IDASetStopTime");  // the last steps end at t = 10
  output_loop(solver, output_times(0.5, 20), audited(audit));
  Solver block_solver(hoisted_pendulum(), 1e-9, 1e-11);
  check(IDASetStopTime(block_solver.mem(), 10.0), "IDASetStopTime");
  sun::IdaAudit block(2, pendulum_energies());
  output_loop(block_solver, output_times(0.5, 20), audited(block));
  BOOST_TEST_MESSAGE("reordered: delta_C = " << audit.relative_drift() << ", as [q, v, λ] " << block.relative_drift());
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.relative_drift() < 1e-5);
  // The winch's work: Z agrees with the [q, v, λ] program's to the solvers' tolerance.
  BOOST_TEST(audit.last_step().energy_flow == block.last_step().energy_flow, boost::test_tools::tolerance(1e-4));

  // Without the multipliers in the layout, the constraint power cannot be read: one error at the
  // first IDASolve, before IDA steps.
  sun::IdaAudit without(2, pendulum_energies());
  without.use_layout(sun::DropInLayout{5, {1, 3}, {2, 4}});
  Solver refused_solver(problem, 1e-9, 1e-11);
  BOOST_CHECK_EXCEPTION(output_loop(refused_solver, output_times(0.5, 1), audited(without)),
                        energy_audit::InvalidArgument, [](const energy_audit::InvalidArgument& e) {
                          return std::string(e.what()) ==
                                 "IdaAudit: constraint_power reads the multipliers, and the layout names none "
                                 "(with_multipliers)";
                        });
  BOOST_TEST(refused_solver.steps() == 0);
}

BOOST_AUTO_TEST_CASE(the_c_interface_audits_the_same_steps) {
  const Problem problem = hoisted_pendulum();
  Solver plain(problem, 1e-8, 1e-10);
  Solver wrapped(problem, 1e-8, 1e-10);
  struct Rope {
    double mass;
  } data{bob_mass};
  EaIdaAudit* audit = ea_ida_audit_create(
      2, [](const double*, const double* v, double, void* user) {
        return 0.5 * static_cast<Rope*>(user)->mass * (v[0] * v[0] + v[1] * v[1]);
      },
      [](const double* q, double, void* user) { return static_cast<Rope*>(user)->mass * gravity * q[1]; }, nullptr,
      &data, 1e-3);
  BOOST_TEST_REQUIRE(audit != nullptr);
  BOOST_TEST(ea_ida_audit_set_constraint_power(audit, [](const double* q, const double* v, const double* multipliers,
                                                          double t, void*) {
               return pendulum_constraint_power(q, v, multipliers, t);
             }) == EA_IDA_AUDIT_SUCCESS);
  BOOST_TEST(ea_ida_audit_declare_quadratic_kinetic_energy(audit) == EA_IDA_AUDIT_SUCCESS);  // T = m/2 |v|^2
  const Call c_call = [audit](const Solver& s, sunrealtype tout, sunrealtype* t, int itask) {
    return ea_ida_audit(audit, s.mem(), tout, t, s.y.get(), s.yp.get(), itask);
  };
  const std::vector<double> times = output_times(0.25, 40);
  require_identical(output_loop(plain, times, without_audit()), output_loop(wrapped, times, c_call));
  BOOST_TEST(ea_ida_audit_steps(audit) == wrapped.steps());
  BOOST_TEST(ea_ida_audit_passed(audit) == 1);
  BOOST_TEST(std::string(ea_ida_audit_diagnosis(audit)).empty());
  BOOST_TEST(ea_ida_audit_relative_drift(audit) < 1e-4);
  EaAuditEnergies last{};
  BOOST_TEST(ea_ida_audit_last_energies(audit, &last) == EA_IDA_AUDIT_SUCCESS);
  BOOST_TEST(last.t == wrapped.current_time());
  BOOST_TEST(last.control == last.jacobi + last.energy_flow);
  BOOST_TEST(ea_ida_audit_set_constraint_power(audit, nullptr) == EA_IDA_AUDIT_INVALID_ARGUMENT);  // too late
  BOOST_TEST(std::string(ea_ida_audit_last_error(audit)).find("before the first") != std::string::npos);
  BOOST_TEST(ea_ida_audit_declare_quadratic_kinetic_energy(audit) == EA_IDA_AUDIT_INVALID_ARGUMENT);
  ea_ida_audit_free(audit);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_rejected) {
  BOOST_CHECK_THROW(sun::IdaAudit(0, pendulum_energies()), energy_audit::InvalidArgument);
  sun::DropInEnergies with_equations = pendulum_energies();
  with_equations.equation_residual = [](const double*, const double*, const double*, double, double* out) {
    out[0] = out[1] = 0;
  };
  BOOST_CHECK_THROW(sun::IdaAudit(2, with_equations), energy_audit::InvalidArgument);
  BOOST_CHECK_THROW(sun::CvodeAudit(2, pendulum_energies()), energy_audit::InvalidArgument);  // no multipliers

  // A state of 4 entries holds q and v of 2 coordinates but no multiplier for the constraint power.
  const Problem oscillator = oscillator_problem();
  Solver solver(oscillator, 1e-8, 1e-10);
  sun::IdaAudit audit(1, pendulum_energies());
  sunrealtype t = 0;
  try {
    audit.IDASolve(solver.mem(), 1.0, &t, solver.y.get(), solver.yp.get(), IDA_NORMAL);
    BOOST_FAIL("a state without multipliers was accepted");
  } catch (const energy_audit::InvalidArgument& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(std::string(e.what()).find("has 2 entries") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("at least 3") != std::string::npos);
  }

  const EaKineticEnergyFn kinetic = [](const double*, const double*, double, void*) { return 0.0; };
  EaIdaAudit* c_audit = ea_ida_audit_create(2, kinetic, nullptr, nullptr, nullptr, 1e-3);
  BOOST_TEST_REQUIRE(c_audit != nullptr);
  BOOST_TEST(std::string(ea_ida_audit_last_error(c_audit)).find("potential") != std::string::npos);
  BOOST_TEST(ea_ida_audit(c_audit, solver.mem(), 1.0, &t, solver.y.get(), solver.yp.get(), IDA_NORMAL) ==
             EA_IDA_AUDIT_INVALID_ARGUMENT);
  BOOST_TEST(std::string(ea_ida_audit_verdict(c_audit)) == "error");
  ea_ida_audit_free(c_audit);
}

BOOST_AUTO_TEST_SUITE_END()
