// CvodeAudit, the drop-in audit, on small CVODE programs of the tests' own: Z against the closed
// form of a damped oscillator, the solution and the return sequence unchanged against a plain
// CVode solver (output times, one-step mode, stop times, roots), the rheonomic energy rates and
// energies_from_model, and the errors.
#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <energy_audit/error.hpp>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_energies.hpp>
#include <energy_audit/sundials/handles.hpp>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gyroscopic_oscillator.hpp"
#include "moving_support_pendulum.hpp"
#include "oscillator.hpp"

namespace sun = energy_audit::sun;
using energy_audit::testing::GyroscopicOscillator;
using energy_audit::testing::MovingSupportPendulum;
using energy_audit::testing::Oscillator;

namespace {

// ---- A minimal CVODE program: right-hand side (and roots) through user_data, RAII handles ----

struct Problem {
  std::function<void(double t, const double* y, double* ydot)> rhs;
  std::function<double(double t, const double* y)> root;  // optional, one root function
  double fails_after = std::numeric_limits<double>::infinity();  // the right-hand side's last time
};

int problem_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user_data) {
  const Problem& problem = *static_cast<const Problem*>(user_data);
  if (t > problem.fails_after) return -1;  // unrecoverable: CVode returns CV_RHSFUNC_FAIL
  problem.rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  return 0;
}

int problem_root(sunrealtype t, N_Vector y, sunrealtype* g, void* user_data) {
  g[0] = static_cast<const Problem*>(user_data)->root(t, N_VGetArrayPointer(y));
  return 0;
}

void check(int flag, const char* function) {
  if (flag < 0) throw std::runtime_error(std::string(function) + " failed with flag " + std::to_string(flag));
}

struct Solver {
  sundials::Context context;
  sun::NVector y;
  sun::SunMatrix matrix;
  sun::SunLinearSolver linear_solver;
  sun::CvodeMemory memory;  // last: freed first

  Solver(const Problem& problem, const std::vector<double>& y0, double rtol, double atol,
         int method = CV_BDF) {
    const auto n = static_cast<sunindextype>(y0.size());
    y = sun::make_serial_vector(n, context);
    for (std::size_t i = 0; i < y0.size(); ++i) NV_Ith_S(y.get(), static_cast<sunindextype>(i)) = y0[i];
    memory.reset(CVodeCreate(method, context));
    if (!memory) throw std::runtime_error("CVodeCreate failed");
    check(CVodeInit(mem(), problem_rhs, 0.0, y.get()), "CVodeInit");
    check(CVodeSetUserData(mem(), const_cast<Problem*>(&problem)), "CVodeSetUserData");
    check(CVodeSStolerances(mem(), rtol, atol), "CVodeSStolerances");
    check(CVodeSetMaxNumSteps(mem(), 100000), "CVodeSetMaxNumSteps");
    matrix.reset(SUNDenseMatrix(n, n, context));
    linear_solver.reset(SUNLinSol_Dense(y.get(), matrix.get(), context));
    if (!matrix || !linear_solver) throw std::runtime_error("dense linear solver not created");
    check(CVodeSetLinearSolver(mem(), linear_solver.get(), matrix.get()), "CVodeSetLinearSolver");
    if (problem.root) check(CVodeRootInit(mem(), 1, problem_root), "CVodeRootInit");
  }
  void* mem() const { return memory.get(); }
  double operator[](sunindextype i) const { return NV_Ith_S(y.get(), i); }
  long steps() const {
    long n = 0;
    CVodeGetNumSteps(mem(), &n);
    return n;
  }
  long rhs_evaluations() const {
    long n = 0;
    CVodeGetNumRhsEvals(mem(), &n);
    return n;
  }
  double current_time() const {
    sunrealtype t = 0;
    CVodeGetCurrentTime(mem(), &t);
    return t;
  }
};

// ---- The damped oscillator m q'' = -c q' - k q from q0 = 1 at rest, and its closed form ----

constexpr double mass = 2.0, stiffness = 18.0, damping = 0.4, q0 = 1.0;

Problem oscillator_problem() {
  return {[](double, const double* y, double* ydot) {
            ydot[0] = y[1];
            ydot[1] = (-damping * y[1] - stiffness * y[0]) / mass;
          },
          {}};
}

/// The pendulum on a moving support with its hand-derived accelerations; `model` must outlive it.
Problem moving_support_problem(const MovingSupportPendulum& model) {
  return {[&model](double t, const double* y, double* ydot) {
            using Coordinates = MovingSupportPendulum::Coordinates<double>;
            ydot[0] = y[1];
            ydot[1] = model.accelerations(Coordinates(y[0]), Coordinates(y[1]), t)[0];
          },
          {}};
}

sun::DropInEnergies oscillator_energies() {
  return {[](const double*, const double* v, double) { return 0.5 * mass * v[0] * v[0]; },
          [](const double* q, double) { return 0.5 * stiffness * q[0] * q[0]; },
          [](const double*, const double* v, double) { return -damping * v[0] * v[0]; }};
}

struct ExactState {
  double q, v;
};

ExactState oscillator_exact(double t) {
  const double gamma = damping / (2 * mass), omega0_sq = stiffness / mass;
  const double omega = std::sqrt(omega0_sq - gamma * gamma);
  const double decay = std::exp(-gamma * t);
  return {decay * q0 * (std::cos(omega * t) + gamma / omega * std::sin(omega * t)),
          -decay * q0 * omega0_sq / omega * std::sin(omega * t)};
}

double oscillator_energy(double q, double v) { return 0.5 * mass * v * v + 0.5 * stiffness * q * q; }

std::vector<double> output_times(double step, int count) {
  std::vector<double> times;
  for (int i = 1; i <= count; ++i) times.push_back(step * i);
  return times;
}

// ---- What a CVode call returned, to compare a wrapped and a plain solver ----

struct Return {
  int flag;
  double t;
  std::vector<double> y;
  double t_current;  // CVodeGetCurrentTime after the call
  int root_found = 0;
};

Return returned(const Solver& s, int flag, double t) {
  Return r{flag, t, {}, s.current_time()};
  for (sunindextype i = 0; i < N_VGetLength(s.y.get()); ++i) r.y.push_back(s[i]);
  if (flag == CV_ROOT_RETURN) CVodeGetRootInfo(s.mem(), &r.root_found);
  return r;
}

// The calls a typical output loop makes: CV_NORMAL to each output time, again after a root or
// stop-time return, until CV_SUCCESS. `call` is CVode or the audit's.
template <class Call>
std::vector<Return> output_loop(const Solver& s, const std::vector<double>& times, Call&& call) {
  std::vector<Return> returns;
  for (double tout : times) {
    for (;;) {
      sunrealtype t = 0;
      const int flag = call(s.mem(), tout, s.y.get(), &t, CV_NORMAL);
      returns.push_back(returned(s, flag, t));
      if (flag < 0) throw std::runtime_error("CVode failed with flag " + std::to_string(flag));
      if (flag == CV_SUCCESS) break;
    }
  }
  return returns;
}

auto plain_cvode() {
  return [](void* mem, sunrealtype tout, N_Vector y, sunrealtype* t, int itask) {
    return CVode(mem, tout, y, t, itask);
  };
}

auto audited(sun::CvodeAudit& audit) {
  return [&audit](void* mem, sunrealtype tout, N_Vector y, sunrealtype* t, int itask) {
    return audit.CVode(mem, tout, y, t, itask);
  };
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

void require_identical(const std::vector<Return>& plain, const std::vector<Return>& wrapped) {
  BOOST_TEST_REQUIRE(plain.size() == wrapped.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    BOOST_TEST_CONTEXT("return " << i << " at t = " << plain[i].t) {
      BOOST_TEST(plain[i].flag == wrapped[i].flag);
      BOOST_TEST(plain[i].t == wrapped[i].t);  // bitwise
      BOOST_TEST(plain[i].y == wrapped[i].y, boost::test_tools::per_element());
      BOOST_TEST(plain[i].t_current == wrapped[i].t_current);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(z_is_the_energy_the_closed_form_lost) {
  for (const int method : {CV_BDF, CV_ADAMS}) {
    BOOST_TEST_CONTEXT("method " << (method == CV_BDF ? "BDF" : "Adams")) {
      const Problem problem = oscillator_problem();
      Solver solver(problem, {q0, 0.0}, 1e-12, 1e-14, method);
      sun::CvodeAudit audit(1, oscillator_energies());
      output_loop(solver, output_times(0.5, 20), audited(audit));

      const double E0 = oscillator_energy(q0, 0.0);
      const sun::DropInStep last = audit.last_step();
      const ExactState exact = oscillator_exact(last.t);
      const double lost = E0 - oscillator_energy(exact.q, exact.v);
      BOOST_TEST_MESSAGE("t = " << last.t << ": Z = " << last.energy_flow << ", E0 - E_exact = " << lost
                                << ", difference " << last.energy_flow - lost
                                << ", delta_C = " << audit.relative_drift());
      BOOST_TEST(last.t == solver.current_time());
      BOOST_TEST(lost > 0.5 * E0);  // the damper took most of the energy
      BOOST_TEST(std::abs(last.energy_flow - lost) < 1e-8 * E0);
      BOOST_TEST(audit.initial_control() == E0, boost::test_tools::tolerance(1e-14));  // y(t0) exactly
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

BOOST_AUTO_TEST_CASE(the_wrapper_does_not_change_the_solution) {
  const Problem problem = oscillator_problem();
  Solver plain(problem, {q0, 0.0}, 1e-8, 1e-10);
  Solver wrapped(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::CvodeAudit audit(1, oscillator_energies());
  const std::vector<double> times = output_times(0.1, 100);  // outputs both between steps and across several
  const auto plain_returns = output_loop(plain, times, plain_cvode());
  const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
  require_identical(plain_returns, wrapped_returns);
  BOOST_TEST(plain.steps() == wrapped.steps());
  BOOST_TEST(plain.rhs_evaluations() == wrapped.rhs_evaluations());  // the audit only interpolates
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
  BOOST_TEST(audit.passed());
}

BOOST_AUTO_TEST_CASE(one_step_mode_audits_every_step) {
  const Problem problem = oscillator_problem();
  Solver plain(problem, {q0, 0.0}, 1e-8, 1e-10);
  Solver wrapped(problem, {q0, 0.0}, 1e-8, 1e-10);
  sun::CvodeAudit audit(1, oscillator_energies());
  std::vector<Return> plain_returns, wrapped_returns;
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = CVode(plain.mem(), 3.0, plain.y.get(), &t, CV_ONE_STEP);
    plain_returns.push_back(returned(plain, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  for (sunrealtype t = 0; t < 3.0;) {
    const int flag = audit.CVode(wrapped.mem(), 3.0, wrapped.y.get(), &t, CV_ONE_STEP);
    wrapped_returns.push_back(returned(wrapped, flag, t));
    BOOST_TEST_REQUIRE(flag >= 0);
  }
  require_identical(plain_returns, wrapped_returns);
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
  BOOST_TEST(audit.last_step().t == wrapped.current_time());
}

BOOST_AUTO_TEST_CASE(stop_time_returns_are_those_of_cv_normal) {
  // A stop time at an output time, one between output times, and one just after an output time
  // (the step cut at the stop time passes tout: CV_NORMAL returns tout, then the stop time).
  for (const double tstop : {1.5, 1.23, 1.5 + 1e-9}) {
    BOOST_TEST_CONTEXT("tstop = " << tstop) {
      const Problem problem = oscillator_problem();
      Solver plain(problem, {q0, 0.0}, 1e-8, 1e-10);
      Solver wrapped(problem, {q0, 0.0}, 1e-8, 1e-10);
      CVodeSetStopTime(plain.mem(), tstop);
      CVodeSetStopTime(wrapped.mem(), tstop);
      sun::CvodeAudit audit(1, oscillator_energies());
      const std::vector<double> times = output_times(0.25, 12);
      const auto plain_returns = output_loop(plain, times, plain_cvode());
      const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
      require_identical(plain_returns, wrapped_returns);
      long stops = 0;
      for (const Return& r : plain_returns) stops += r.flag == CV_TSTOP_RETURN;
      BOOST_TEST(stops == 1);
      BOOST_TEST(plain.steps() == wrapped.steps());
      BOOST_TEST(audit.audited_steps() == wrapped.steps());
    }
  }
}

BOOST_AUTO_TEST_CASE(roots_come_in_the_order_of_cv_normal) {
  // Roots of q (twice per period) with output times closer than the steps: some roots lie past
  // tout in the step that reaches tout, where CV_NORMAL returns tout first.
  Problem problem = oscillator_problem();
  problem.root = [](double, const double* y) { return y[0]; };
  Solver plain(problem, {q0, 0.0}, 1e-5, 1e-7);
  Solver wrapped(problem, {q0, 0.0}, 1e-5, 1e-7);
  sun::CvodeAudit audit(1, oscillator_energies());
  const std::vector<double> times = output_times(0.01, 600);
  const auto plain_returns = output_loop(plain, times, plain_cvode());
  const auto wrapped_returns = output_loop(wrapped, times, audited(audit));
  BOOST_TEST_REQUIRE(plain_returns.size() == wrapped_returns.size());
  int roots = 0, roots_after_tout = 0;
  for (std::size_t i = 0; i < plain_returns.size(); ++i) {
    const Return &p = plain_returns[i], &w = wrapped_returns[i];
    BOOST_TEST_CONTEXT("return " << i << " at t = " << p.t) {
      BOOST_TEST(p.flag == w.flag);
      BOOST_TEST(p.root_found == w.root_found);
      BOOST_TEST(std::abs(p.t - w.t) < 1e-11);  // roots within CVODE's root tolerance
      for (std::size_t k = 0; k < p.y.size(); ++k) BOOST_TEST(std::abs(p.y[k] - w.y[k]) < 1e-10);
      BOOST_TEST(p.t_current == w.t_current);
    }
    if (p.flag == CV_ROOT_RETURN) {
      ++roots;
      // The root lies in the step that the previous output (tout) returned from.
      if (i > 0 && plain_returns[i - 1].flag == CV_SUCCESS && plain_returns[i - 1].t_current == p.t_current) {
        ++roots_after_tout;
      }
    }
  }
  BOOST_TEST_MESSAGE(roots << " roots, " << roots_after_tout
                           << " of them past tout in the step that reached tout");
  BOOST_TEST(roots == 6);  // q = 0 every pi / omega = 1.05 s, first at 0.535 s
  BOOST_TEST(roots_after_tout > 0);
  BOOST_TEST(plain.steps() == wrapped.steps());
  BOOST_TEST(audit.audited_steps() == wrapped.steps());
}

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
  const sun::DropInEnergies by_hand = oscillator_energies();
  const double q[] = {0.3}, v[] = {-1.7};
  BOOST_TEST(from_model.kinetic_energy(q, v, 0.2) == by_hand.kinetic_energy(q, v, 0.2));
  BOOST_TEST(from_model.potential_energy(q, 0.2) == by_hand.potential_energy(q, 0.2));
  BOOST_TEST(from_model.nonpotential_power(q, v, 0.2) == by_hand.nonpotential_power(q, v, 0.2));
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
