// IdaAudit, the drop-in audit for IDA programs, on small IDA programs of the tests' own: Z
// against the closed form of a damped oscillator written as a residual, a pendulum on a rope of
// prescribed length (a multiplier, a rheonomic constraint) that passes with its constraint power
// and fails without it or with one sign slipped in its residual, the solution (y and y') and the
// return sequence unchanged against a plain IDASolve (output times, one-step mode, stop times,
// roots), the C interface (ida_drop_in.h) alike, and the errors.
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <energy_audit/error.hpp>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/handles.hpp>
#include <energy_audit/sundials/ida_drop_in.h>
#include <energy_audit/sundials/ida_drop_in.hpp>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace sun = energy_audit::sun;

namespace {

// ---- A minimal IDA program: residual (and roots) through user_data, RAII handles ----

struct Problem {
  std::function<void(double t, const double* y, const double* yp, double* F)> residual;
  std::vector<double> y0, yp0;  // yp0 and the algebraic part of y0 are corrected by IDACalcIC
  std::vector<double> id;       // 1 differential, 0 algebraic
  std::function<double(double t, const double* y)> root;  // optional, one root function
};

int problem_residual(sunrealtype t, N_Vector y, N_Vector yp, N_Vector F, void* user_data) {
  static_cast<const Problem*>(user_data)->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                                                   N_VGetArrayPointer(F));
  return 0;
}

int problem_root(sunrealtype t, N_Vector y, N_Vector, sunrealtype* g, void* user_data) {
  g[0] = static_cast<const Problem*>(user_data)->root(t, N_VGetArrayPointer(y));
  return 0;
}

void check(int flag, const char* function) {
  if (flag < 0) throw std::runtime_error(std::string(function) + " failed with flag " + std::to_string(flag));
}

struct Solver {
  sundials::Context context;
  sun::NVector y, yp, id;
  sun::SunMatrix matrix;
  sun::SunLinearSolver linear_solver;
  sun::IdaMemory memory;  // last: freed first

  Solver(const Problem& problem, double rtol, double atol) {
    const auto n = static_cast<sunindextype>(problem.y0.size());
    y = sun::make_serial_vector(n, context);
    yp = sun::make_serial_vector(n, context);
    id = sun::make_serial_vector(n, context);
    for (sunindextype i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      NV_Ith_S(y.get(), i) = problem.y0[k];
      NV_Ith_S(yp.get(), i) = problem.yp0[k];
      NV_Ith_S(id.get(), i) = problem.id[k];
    }
    memory.reset(IDACreate(context));
    if (!memory) throw std::runtime_error("IDACreate failed");
    check(IDAInit(mem(), problem_residual, 0.0, y.get(), yp.get()), "IDAInit");
    check(IDASetUserData(mem(), const_cast<Problem*>(&problem)), "IDASetUserData");
    check(IDASStolerances(mem(), rtol, atol), "IDASStolerances");
    check(IDASetId(mem(), id.get()), "IDASetId");
    check(IDASetMaxNumSteps(mem(), 100000), "IDASetMaxNumSteps");
    matrix.reset(SUNDenseMatrix(n, n, context));
    linear_solver.reset(SUNLinSol_Dense(y.get(), matrix.get(), context));
    if (!matrix || !linear_solver) throw std::runtime_error("dense linear solver not created");
    check(IDASetLinearSolver(mem(), linear_solver.get(), matrix.get()), "IDASetLinearSolver");
    if (problem.root) check(IDARootInit(mem(), 1, problem_root), "IDARootInit");
    check(IDACalcIC(mem(), IDA_YA_YDP_INIT, 0.01), "IDACalcIC");
    check(IDAGetConsistentIC(mem(), y.get(), yp.get()), "IDAGetConsistentIC");
  }
  void* mem() const { return memory.get(); }
  long steps() const {
    long n = 0;
    IDAGetNumSteps(mem(), &n);
    return n;
  }
  long residual_evaluations() const {
    long n = 0;
    IDAGetNumResEvals(mem(), &n);
    return n;
  }
  double current_time() const {
    sunrealtype t = 0;
    IDAGetCurrentTime(mem(), &t);
    return t;
  }
};

// ---- The damped oscillator m q'' + c q' + k q = 0 from q0 = 1 at rest, as a residual ----

constexpr double mass = 2.0, stiffness = 18.0, damping = 0.4, q0 = 1.0;

Problem oscillator_problem() {
  return {[](double, const double* y, const double* yp, double* F) {
            F[0] = yp[0] - y[1];
            F[1] = mass * yp[1] + damping * y[1] + stiffness * y[0];
          },
          {q0, 0.0},
          {0.0, -stiffness * q0 / mass},
          {1.0, 1.0},
          {}};
}

sun::DropInEnergies oscillator_energies() {
  return {[](const double*, const double* v, double) { return 0.5 * mass * v[0] * v[0]; },
          [](const double* q, double) { return 0.5 * stiffness * q[0] * q[0]; },
          [](const double*, const double* v, double) { return -damping * v[0] * v[0]; }};
}

double oscillator_energy_lost(double t) {
  const double gamma = damping / (2 * mass), omega0_sq = stiffness / mass;
  const double omega = std::sqrt(omega0_sq - gamma * gamma);
  const double decay = std::exp(-gamma * t);
  const double q = decay * q0 * (std::cos(omega * t) + gamma / omega * std::sin(omega * t));
  const double v = -decay * q0 * omega0_sq / omega * std::sin(omega * t);
  return 0.5 * stiffness * q0 * q0 - (0.5 * mass * v * v + 0.5 * stiffness * q * q);
}

// ---- A pendulum on a rope of prescribed length L(t), in Cartesian coordinates (x, y up) ----
// y = [x, y, vx, vy, lambda]; Phi = (x² + y² − L²)/2 = 0, G = [x, y], g = −L L';
// m v' = G^T lambda − m g e_y; acceleration level G v' + |v|² − (L'² + L L'') = 0 (index 1).

constexpr double bob_mass = 1.5, gravity = 9.81, rope_length = 1.0, hoist_amplitude = 0.2, hoist_rate = 2.0;

double rope(double t) { return rope_length + hoist_amplitude * std::sin(hoist_rate * t); }
double rope_rate(double t) { return hoist_amplitude * hoist_rate * std::cos(hoist_rate * t); }
double rope_acceleration(double t) { return -hoist_amplitude * hoist_rate * hoist_rate * std::sin(hoist_rate * t); }

/// `slip` = −1 flips the sign of the rope's L'² + L L'' in the acceleration-level constraint.
Problem hoisted_pendulum(double slip = 1.0) {
  const double angle = std::numbers::pi / 6;
  const double s = std::sin(angle), c = std::cos(angle), L0 = rope(0), Ld0 = rope_rate(0);
  return {[slip](double t, const double* y, const double* yp, double* F) {
            const double L = rope(t), Ld = rope_rate(t), Ldd = rope_acceleration(t);
            F[0] = yp[0] - y[2];
            F[1] = yp[1] - y[3];
            F[2] = bob_mass * yp[2] - y[0] * y[4];
            F[3] = bob_mass * yp[3] + bob_mass * gravity - y[1] * y[4];
            F[4] = y[0] * yp[2] + y[1] * yp[3] + y[2] * y[2] + y[3] * y[3] - slip * (Ld * Ld + L * Ldd);
          },
          {L0 * s, -L0 * c, Ld0 * s, -Ld0 * c, 0.0},
          {Ld0 * s, -Ld0 * c, 0.0, 0.0, 0.0},
          {1.0, 1.0, 1.0, 1.0, 0.0},
          {}};
}

double pendulum_kinetic(const double*, const double* v, double) { return 0.5 * bob_mass * (v[0] * v[0] + v[1] * v[1]); }
double pendulum_potential(const double* q, double) { return bob_mass * gravity * q[1]; }
/// vᵀGᵀλ = −gᵀλ = λ L L' on the constraint: the power the winch puts in.
double pendulum_constraint_power(const double*, const double*, const double* multipliers, double t) {
  return multipliers[0] * rope(t) * rope_rate(t);
}

sun::DropInEnergies pendulum_energies(bool with_constraint_power = true) {
  sun::DropInEnergies energies{pendulum_kinetic, pendulum_potential};
  if (with_constraint_power) energies.constraint_power = pendulum_constraint_power;
  return energies;
}

std::vector<double> output_times(double step, int count) {
  std::vector<double> times;
  for (int i = 1; i <= count; ++i) times.push_back(step * i);
  return times;
}

// ---- What an IDASolve call returned, to compare a wrapped and a plain solver ----

struct Return {
  int flag;
  double t;
  std::vector<double> y, yp;
  double t_current;  // IDAGetCurrentTime after the call
};

Return returned(const Solver& s, int flag, double t) {
  Return r{flag, t, {}, {}, s.current_time()};
  for (sunindextype i = 0; i < N_VGetLength(s.y.get()); ++i) {
    r.y.push_back(NV_Ith_S(s.y.get(), i));
    r.yp.push_back(NV_Ith_S(s.yp.get(), i));
  }
  return r;
}

using Call = std::function<int(void* mem, sunrealtype tout, sunrealtype* t, N_Vector y, N_Vector yp, int itask)>;

Call plain_ida() {
  return [](void* mem, sunrealtype tout, sunrealtype* t, N_Vector y, N_Vector yp, int itask) {
    return IDASolve(mem, tout, t, y, yp, itask);
  };
}

Call audited(sun::IdaAudit& audit) {
  return [&audit](void* mem, sunrealtype tout, sunrealtype* t, N_Vector y, N_Vector yp, int itask) {
    return audit.IDASolve(mem, tout, t, y, yp, itask);
  };
}

// The calls a typical output loop makes: IDA_NORMAL to each output time, again after a root or
// stop-time return, until IDA_SUCCESS.
std::vector<Return> output_loop(const Solver& s, const std::vector<double>& times, const Call& call) {
  std::vector<Return> returns;
  for (double tout : times) {
    for (;;) {
      sunrealtype t = 0;
      const int flag = call(s.mem(), tout, &t, s.y.get(), s.yp.get(), IDA_NORMAL);
      returns.push_back(returned(s, flag, t));
      if (flag < 0) throw std::runtime_error("IDASolve failed with flag " + std::to_string(flag));
      if (flag == IDA_SUCCESS) break;
    }
  }
  return returns;
}

void require_identical(const std::vector<Return>& plain, const std::vector<Return>& wrapped) {
  BOOST_TEST_REQUIRE(plain.size() == wrapped.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    BOOST_TEST_CONTEXT("return " << i << " at t = " << plain[i].t) {
      BOOST_TEST(plain[i].flag == wrapped[i].flag);
      BOOST_TEST(plain[i].t == wrapped[i].t);  // bitwise
      BOOST_TEST(plain[i].y == wrapped[i].y, boost::test_tools::per_element());
      BOOST_TEST(plain[i].yp == wrapped[i].yp, boost::test_tools::per_element());
      BOOST_TEST(plain[i].t_current == wrapped[i].t_current);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(z_is_the_energy_the_closed_form_lost) {
  const Problem problem = oscillator_problem();
  Solver solver(problem, 1e-11, 1e-13);
  sun::IdaAudit audit(1, oscillator_energies());
  output_loop(solver, output_times(0.5, 20), audited(audit));
  const sun::DropInStep last = audit.last_step();
  const double E0 = 0.5 * stiffness * q0 * q0, lost = oscillator_energy_lost(last.t);
  BOOST_TEST_MESSAGE("t = " << last.t << ": Z = " << last.energy_flow << ", E0 - E_exact = " << lost
                            << ", delta_C = " << audit.relative_drift());
  BOOST_TEST(last.t == solver.current_time());
  BOOST_TEST(lost > 0.5 * E0);
  BOOST_TEST(std::abs(last.energy_flow - lost) < 1e-7 * E0);
  BOOST_TEST(audit.initial_control() == E0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(audit.audited_steps() == solver.steps());
  BOOST_TEST(audit.passed());
}

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

BOOST_AUTO_TEST_CASE(the_wrapper_does_not_change_the_solution) {
  for (const bool pendulum : {false, true}) {
    BOOST_TEST_CONTEXT((pendulum ? "hoisted pendulum" : "oscillator")) {
      const Problem problem = pendulum ? hoisted_pendulum() : oscillator_problem();
      Solver plain(problem, 1e-8, 1e-10);
      Solver wrapped(problem, 1e-8, 1e-10);
      sun::IdaAudit audit(pendulum ? 2 : 1, pendulum ? pendulum_energies() : oscillator_energies());
      const std::vector<double> times = output_times(0.1, 50);  // between steps and across several
      require_identical(output_loop(plain, times, plain_ida()), output_loop(wrapped, times, audited(audit)));
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(plain.residual_evaluations() == wrapped.residual_evaluations());  // the audit only interpolates
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE(one_step_mode_audits_every_step) {
  const Problem problem = hoisted_pendulum();
  Solver plain(problem, 1e-8, 1e-10);
  Solver wrapped(problem, 1e-8, 1e-10);
  sun::IdaAudit audit(2, pendulum_energies());
  std::vector<Return> plain_returns, wrapped_returns;
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = IDASolve(plain.mem(), 3.0, &t, plain.y.get(), plain.yp.get(), IDA_ONE_STEP);
    plain_returns.push_back(returned(plain, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = audit.IDASolve(wrapped.mem(), 3.0, &t, wrapped.y.get(), wrapped.yp.get(), IDA_ONE_STEP);
    wrapped_returns.push_back(returned(wrapped, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  require_identical(plain_returns, wrapped_returns);
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
  BOOST_TEST(audit.last_step().t == wrapped.current_time());
}

BOOST_AUTO_TEST_CASE(stop_time_returns_are_those_of_ida_normal) {
  for (const double tstop : {1.5, 1.23, 1.5 + 1e-9}) {
    BOOST_TEST_CONTEXT("tstop = " << tstop) {
      const Problem problem = hoisted_pendulum();
      Solver plain(problem, 1e-8, 1e-10);
      Solver wrapped(problem, 1e-8, 1e-10);
      IDASetStopTime(plain.mem(), tstop);
      IDASetStopTime(wrapped.mem(), tstop);
      sun::IdaAudit audit(2, pendulum_energies());
      const std::vector<double> times = output_times(0.25, 12);
      const auto plain_returns = output_loop(plain, times, plain_ida());
      require_identical(plain_returns, output_loop(wrapped, times, audited(audit)));
      long stops = 0;
      for (const Return& r : plain_returns) stops += r.flag == IDA_TSTOP_RETURN;
      BOOST_TEST(stops == 1);
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
    }
  }
}

BOOST_AUTO_TEST_CASE(roots_come_in_the_order_of_ida_normal) {
  // Roots of x (the bob passes under the winch) with output times closer than the steps.
  Problem problem = hoisted_pendulum();
  problem.root = [](double, const double* y) { return y[0]; };
  Solver plain(problem, 1e-6, 1e-8);
  Solver wrapped(problem, 1e-6, 1e-8);
  sun::IdaAudit audit(2, pendulum_energies());
  const std::vector<double> times = output_times(0.01, 500);
  const auto plain_returns = output_loop(plain, times, plain_ida());
  const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
  BOOST_TEST_REQUIRE(plain_returns.size() == wrapped_returns.size());
  int roots = 0;
  for (std::size_t i = 0; i < plain_returns.size(); ++i) {
    const Return &p = plain_returns[i], &w = wrapped_returns[i];
    BOOST_TEST_CONTEXT("return " << i << " at t = " << p.t) {
      BOOST_TEST(p.flag == w.flag);
      BOOST_TEST(std::abs(p.t - w.t) < 1e-9);  // roots within IDA's root tolerance
      for (std::size_t k = 0; k < p.y.size(); ++k) BOOST_TEST(std::abs(p.y[k] - w.y[k]) < 1e-7);
      BOOST_TEST(p.t_current == w.t_current);
    }
    roots += p.flag == IDA_ROOT_RETURN;
  }
  BOOST_TEST_MESSAGE(roots << " roots");
  BOOST_TEST(roots >= 4);
  BOOST_TEST(plain.steps() == wrapped.steps());
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
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
  const Call c_call = [audit](void* mem, sunrealtype tout, sunrealtype* t, N_Vector y, N_Vector yp, int itask) {
    return ea_ida_audit(audit, mem, tout, t, y, yp, itask);
  };
  const std::vector<double> times = output_times(0.25, 40);
  require_identical(output_loop(plain, times, plain_ida()), output_loop(wrapped, times, c_call));
  BOOST_TEST(ea_ida_audit_steps(audit) == wrapped.steps());
  BOOST_TEST(ea_ida_audit_passed(audit) == 1);
  BOOST_TEST(ea_ida_audit_relative_drift(audit) < 1e-4);
  EaAuditEnergies last{};
  BOOST_TEST(ea_ida_audit_last_energies(audit, &last) == EA_IDA_AUDIT_SUCCESS);
  BOOST_TEST(last.t == wrapped.current_time());
  BOOST_TEST(last.control == last.jacobi + last.energy_flow);
  BOOST_TEST(ea_ida_audit_set_constraint_power(audit, nullptr) == EA_IDA_AUDIT_INVALID_ARGUMENT);  // too late
  BOOST_TEST(std::string(ea_ida_audit_last_error(audit)).find("before the first") != std::string::npos);
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
