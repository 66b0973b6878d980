// ArkodeAudit leaves ARKODE's own counters as the plain program has them: the whole statistics
// table that ARKODE prints (steps, attempts, right-hand side evaluations of each part, error test
// failures, nonlinear iterations, linear solver counts) and the solution are those of the same
// program unaudited, on every stepper and evolve function the drop-in audits, in normal mode, in
// one-step mode and with a stop time, also when the results are read after the last step or after
// the integrator was freed, and after a re-initialization. Each Runge–Kutta stepper runs with its
// default table and with one that is not stiffly accurate (Heun–Euler, SDIRK-2): then ARKODE
// evaluates f(t_n, y_n) for its interpolant after a step, where a stiffly accurate table gives it
// from the last stage. And the last step's Z, which the audit
// integrates from the states it holds when no further step follows, is accurate to O(h⁶).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdio>
#include <energy_audit/sundials/drop_in_step.hpp>
#include <memory>
#include <string>
#include <vector>

#include "arkode_program.hpp"

namespace sun = energy_audit::sun;
using namespace energy_audit::testing::arkode_program;
using namespace energy_audit::testing::drop_in;

namespace {

const std::vector<Method> counted_methods = {Method::erk, Method::ark_explicit, Method::ark_implicit,
#if SUNDIALS_VERSION_MAJOR >= 7
                                             Method::sprk
#endif
};

/// The stepper's default table, or one that is not stiffly accurate (SPRKStep has no such table).
enum class Table { default_table, not_stiffly_accurate };
const Table tables[] = {Table::default_table, Table::not_stiffly_accurate};

void use_table(const Solver& s, Table table) {
  if (table == Table::default_table || s.method == Method::sprk) return;
  if (s.method == Method::erk) {
    check(ERKStepSetTableNum(s.mem(), ARKODE_HEUN_EULER_2_1_2), "ERKStepSetTableNum");
  } else if (s.method == Method::ark_explicit) {
    check(ARKStepSetTableNum(s.mem(), ARKODE_DIRK_NONE, ARKODE_HEUN_EULER_2_1_2), "ARKStepSetTableNum");
  } else {
    check(ARKStepSetTableNum(s.mem(), ARKODE_SDIRK_2_1_2, ARKODE_ERK_NONE), "ARKStepSetTableNum");
  }
}

/// The evolve functions a program may call: the stepper's own, and on SUNDIALS 7 ARKodeEvolve.
enum class Evolve { stepper, arkode };
const std::vector<Evolve> evolve_functions = {Evolve::stepper,
#if SUNDIALS_VERSION_MAJOR >= 7
                                              Evolve::arkode
#endif
};

Call plain_call(Evolve evolve) {
#if SUNDIALS_VERSION_MAJOR >= 7
  if (evolve == Evolve::arkode) {
    return [](const Solver& s, sunrealtype tout, sunrealtype* t, int itask) {
      return ARKodeEvolve(s.mem(), tout, s.y.get(), t, itask);
    };
  }
#endif
  (void)evolve;
  return without_audit();
}

Call audited_call(Evolve evolve, sun::ArkodeAudit& audit) {
#if SUNDIALS_VERSION_MAJOR >= 7
  if (evolve == Evolve::arkode) {
    return [&audit](const Solver& s, sunrealtype tout, sunrealtype* t, int itask) {
      return audit.ARKodeEvolve(s.mem(), tout, s.y.get(), t, itask);
    };
  }
#endif
  (void)evolve;
  return audited(audit);
}

/// The table ARKODE prints of its counters (ARKodePrintAllStats, on SUNDIALS 6 the stepper's).
std::string all_stats(const Solver& s) {
  const std::unique_ptr<FILE, decltype(&std::fclose)> file(std::tmpfile(), &std::fclose);
  BOOST_TEST_REQUIRE(file != nullptr);
#if SUNDIALS_VERSION_MAJOR >= 7
  check(ARKodePrintAllStats(s.mem(), file.get(), SUN_OUTPUTFORMAT_TABLE), "ARKodePrintAllStats");
#else
  check(s.method == Method::erk ? ERKStepPrintAllStats(s.mem(), file.get(), SUN_OUTPUTFORMAT_TABLE)
                                : ARKStepPrintAllStats(s.mem(), file.get(), SUN_OUTPUTFORMAT_TABLE),
        "PrintAllStats");
#endif
  std::rewind(file.get());
  std::string text;
  for (int c = std::fgetc(file.get()); c != EOF; c = std::fgetc(file.get())) text.push_back(static_cast<char>(c));
  return text;
}

/// The table without its line `name` ("Current step size = ...").
std::string without_line(const std::string& table, const std::string& name) {
  const std::size_t at = table.find(name);
  if (at == std::string::npos) return table;
  const std::size_t end = table.find('\n', at);
  return table.substr(0, at) + (end == std::string::npos ? std::string() : table.substr(end + 1));
}

/// How a run calls the evolve function.
enum class Mode { normal, one_step, stop_time, stop_time_at_each_output };
const char* mode_name(Mode mode) {
  return mode == Mode::normal                     ? "normal"
         : mode == Mode::one_step                 ? "one step"
         : mode == Mode::stop_time                ? "stop time"
                                                  : "stop time at each output";
}

/// The calls of one run to t = 1.5: output times every 0.25 (normal mode, the last one inside a
/// step), steps one at a time, output times with the stop time 1.5 at the last, or one call to
/// each output time with the stop time set there first (as SUNDIALS' ark_kepler example does).
std::vector<SolverReturn> run(const Solver& s, Mode mode, const Call& call) {
  if (mode == Mode::one_step) {
    std::vector<SolverReturn> returns;
    for (sunrealtype t = 0; t < 1.5;) {
      const int flag = call(s, 1.5, &t, ARK_ONE_STEP);
      returns.push_back(returned(s, flag, t));
      BOOST_TEST_REQUIRE(flag >= 0);
    }
    return returns;
  }
  if (mode == Mode::stop_time_at_each_output) {
    std::vector<SolverReturn> returns;
    for (const double tout : output_times(0.25, 6)) {
      s.set_stop_time(tout);
      sunrealtype t = 0;
      const int flag = call(s, tout, &t, ARK_NORMAL);
      returns.push_back(returned(s, flag, t));
      BOOST_TEST_REQUIRE(flag >= 0);
    }
    return returns;
  }
  if (mode == Mode::stop_time) s.set_stop_time(1.5);
  return output_loop(s, output_times(0.25, 6), call);
}

/// The same run unaudited and audited: the returns and ARKODE's table alike, with the audit's
/// results read after the run (`read`, which may free the integrator first).
template <class Read>
void require_counters_unchanged(Method method, Table table, Evolve evolve, Mode mode, Read&& read) {
  const Solver plain(method, 1e-8, 1e-10);
  auto wrapped = std::make_unique<Solver>(method, 1e-8, 1e-10);
  use_table(plain, table);
  use_table(*wrapped, table);
  sun::ArkodeAudit audit(1, oscillator_energies());
  const auto plain_returns = run(plain, mode, plain_call(evolve));
  const auto wrapped_returns = run(*wrapped, mode, audited_call(evolve, audit));
  require_identical(plain_returns, wrapped_returns);
  // On SUNDIALS 6 the normal mode returns tout = t_stop as ARK_SUCCESS before the stop time,
  // which the audit's emulation reaches by a one-step call and a second, normal-mode call: the
  // step size ARKODE reports for the next step ("Current step size", not a counter) is then the
  // one its controller chose, where the plain call reports the step cut at the stop time.
  const auto compared = [mode](const Solver& s) {
    const std::string stats = all_stats(s);
    return SUNDIALS_VERSION_MAJOR < 7 && (mode == Mode::stop_time || mode == Mode::stop_time_at_each_output)
               ? without_line(stats, "Current step size") : stats;
  };
  const std::string plain_stats = compared(plain);
  BOOST_TEST(compared(*wrapped) == plain_stats);
  read(audit, wrapped);
  if (wrapped) BOOST_TEST(compared(*wrapped) == plain_stats);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(steppers)

BOOST_AUTO_TEST_CASE(arkode_prints_the_counters_of_the_plain_program) {
  for (const Method method : counted_methods) {
    for (const Table table : tables) {
      for (const Evolve evolve : evolve_functions) {
        for (const Mode mode : {Mode::normal, Mode::one_step, Mode::stop_time, Mode::stop_time_at_each_output}) {
          BOOST_TEST_CONTEXT(method_name(method)
                             << (table == Table::default_table ? "" : ", not stiffly accurate")
                             << (evolve == Evolve::arkode ? ", through ARKodeEvolve" : "") << ", " << mode_name(mode)) {
            require_counters_unchanged(method, table, evolve, mode,
                                       [](sun::ArkodeAudit& audit, std::unique_ptr<Solver>& solver) {
                                         BOOST_TEST(audit.audited_steps() == solver->steps());
                                         BOOST_TEST(audit.last_step().t == solver->current_time());
                                         BOOST_TEST(audit.passed());
                                       });
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_results_are_read_after_the_integrator_was_freed) {
  for (const Method method : counted_methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      require_counters_unchanged(method, Table::not_stiffly_accurate, Evolve::stepper, Mode::one_step,
                                 [](sun::ArkodeAudit& audit, std::unique_ptr<Solver>& solver) {
                                   const long steps = solver->steps();
                                   const double t = solver->current_time();
                                   solver.reset();
                                   BOOST_TEST(audit.audited_steps() == steps);
                                   BOOST_TEST(audit.last_step().t == t);
                                   BOOST_TEST(std::string(audit.verdict()) == "pass");
                                 });
    }
  }
}

BOOST_AUTO_TEST_CASE(results_read_between_steps_leave_the_counters_unchanged) {
  // The results read mid-run take the step held at that point from the audit's history; the run
  // then goes on as the plain one.
  for (const Method method : counted_methods) {
    BOOST_TEST_CONTEXT(method_name(method)) {
      const Solver plain(method, 1e-8, 1e-10), wrapped(method, 1e-8, 1e-10);
      use_table(plain, Table::not_stiffly_accurate);
      use_table(wrapped, Table::not_stiffly_accurate);
      sun::ArkodeAudit audit(1, oscillator_energies());
      const Call plain_evolve = without_audit(), audited_evolve = audited(audit);
      std::vector<SolverReturn> plain_returns, wrapped_returns;
      for (sunrealtype t = 0; t < 1.5;) {
        const int flag = plain_evolve(plain, 1.5, &t, ARK_ONE_STEP);
        plain_returns.push_back(returned(plain, flag, t));
      }
      for (sunrealtype t = 0; t < 1.5;) {
        const int flag = audited_evolve(wrapped, 1.5, &t, ARK_ONE_STEP);
        wrapped_returns.push_back(returned(wrapped, flag, t));
        BOOST_TEST(audit.audited_steps() == wrapped.steps());
      }
      require_identical(plain_returns, wrapped_returns);
      BOOST_TEST(all_stats(wrapped) == all_stats(plain));
      BOOST_TEST(audit.passed());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_reinitialization_after_a_held_step_continues_z) {
  // One-step mode to t = 1, ERKStepReInit there, one-step mode on to 2: the held step at t = 1 is
  // taken from the audit's history, and Z continues from its value there.
  const Solver plain(Method::erk, 1e-8, 1e-10), wrapped(Method::erk, 1e-8, 1e-10);
  sun::ArkodeAudit audit(1, oscillator_energies());
  const Call plain_evolve = without_audit(), audited_evolve = audited(audit);
  use_table(plain, Table::not_stiffly_accurate);
  use_table(wrapped, Table::not_stiffly_accurate);
  for (const auto& [s, call] : {std::pair<const Solver*, const Call*>{&plain, &plain_evolve},
                                std::pair<const Solver*, const Call*>{&wrapped, &audited_evolve}}) {
    s->set_stop_time(1.0);
    for (sunrealtype t = 0; t < 1.0;) BOOST_TEST_REQUIRE((*call)(*s, 1.0, &t, ARK_ONE_STEP) >= 0);
    check(ERKStepReInit(s->mem(), oscillator_rhs, 1.0, s->y.get()), "ERKStepReInit");
    use_table(*s, Table::not_stiffly_accurate);
    for (sunrealtype t = 1.0; t < 2.0;) BOOST_TEST_REQUIRE((*call)(*s, 2.0, &t, ARK_ONE_STEP) >= 0);
  }
  BOOST_TEST(all_stats(wrapped) == all_stats(plain));
  BOOST_TEST(wrapped[0] == plain[0]);
  BOOST_TEST(wrapped[1] == plain[1]);
  BOOST_TEST(audit.passed());
  // C = E + Z stays within the solution's own error across the restart.
  BOOST_TEST(audit.relative_drift() < 1e-6);
}

BOOST_AUTO_TEST_CASE(the_last_steps_z_from_the_held_states_is_of_sixth_order) {
  // ERKStep's 4th-order method at fixed steps h and h/2 to t = 1, in one-step mode: the last
  // step's Z from the audit's history (read after the run) against Z on ARKODE's interpolant
  // (a normal-mode output inside that step makes the audit integrate it there). The difference
  // is the history's quadrature error over one step: O(h⁶).
  double previous = 0;
  for (const double h : {0.05, 0.025, 0.0125}) {
    double Z[2] = {0, 0}, drift = 0;
    for (const bool on_interpolant : {false, true}) {
      const Solver s(Method::erk, 1e-8, 1e-10);
#if SUNDIALS_VERSION_MAJOR >= 7
      check(ARKodeSetFixedStep(s.mem(), h), "ARKodeSetFixedStep");
#else
      check(ERKStepSetFixedStep(s.mem(), h), "ERKStepSetFixedStep");
#endif
      sun::ArkodeAudit audit(1, oscillator_energies());
      sunrealtype t = 0;
      while (t < 1.0 - 1e-12) BOOST_TEST_REQUIRE(audit.ERKStepEvolve(s.mem(), 1.0, s.y.get(), &t, ARK_ONE_STEP) >= 0);
      const double t_end = t;
      if (on_interpolant) {
        BOOST_TEST_REQUIRE(audit.ERKStepEvolve(s.mem(), t_end - h / 2, s.y.get(), &t, ARK_NORMAL) >= 0);
      }
      BOOST_TEST(audit.last_step().t == t_end);
      Z[on_interpolant] = audit.last_step().energy_flow;
      drift = audit.max_abs_drift();
    }
    const double error = std::abs(Z[0] - Z[1]);
    BOOST_TEST_MESSAGE("h = " << h << ": |Z from the held states - Z on the interpolant| = " << error
                              << (previous > 0 ? ", ratio " + std::to_string(previous / error) : std::string())
                              << "; sup |C - C(t0)| = " << drift);
    // Far below the method's own drift of C, which is O(h⁴).
    BOOST_TEST(error < 1e-2 * drift);
    if (previous > 0) BOOST_TEST(previous / error > 40.0);  // 2⁶ = 64
    previous = error;
  }
}

BOOST_AUTO_TEST_SUITE_END()
