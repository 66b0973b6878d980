// ARKODE's SPRKStep (arkode-sprk) under the audit, on the driven pendulum: a separable model (T of
// the angular velocity alone, a drive of t alone) whose drive does work, so that C = H + Z needs Z
// integrated along the method's own trajectory.
//   - The state converges at the method's order against CVODES at rtol 1e-12 (McLachlan's
//     order-4 default, the leapfrog of order 2), in Hamilton's and in Lagrange's form, and δ_C
//     falls at the same order: Z moves with the drifts, exactly to the quadrature's order.
//   - The observer sees t0 and every step, in order; a breakpoint on a step restarts SPRKStep
//     (SPRKStepReInit) and the run takes the same motion.
//   - Over a long run δ_C stays bounded where ERKStep's fixed step of the same order and cost
//     drifts further.
//   - The wrong twin (the drive's sign flipped in its hand-derived accelerations) stays as smooth
//     under SPRKStep, and fails: δ_C from the model's own drive, and the equation check.
//   - Refused, naming why: a model that is not separable (the crane), no fixed step, relaxation,
//     an unknown method (listing SPRKStep's).
// Below SUNDIALS 7, SPRKStep is refused naming 7. On any SUNDIALS: a separable declaration that
// its T or f contradicts is refused naming which. The drifts' Gauss–Legendre rules are tested on
// their own in tests/lib/gauss_legendre_test.cpp; here a wrong weight shows in δ_C's order.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <energy_audit/audit.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/separable_model.hpp>
#include <energy_audit/sundials/butcher_tables.hpp>
#include <energy_audit/sundials/integrate_arkode.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <string>
#include <utility>
#include <vector>

#include "crane.hpp"
#include "pendulum.hpp"

namespace ea = energy_audit;
namespace sun = energy_audit::sun;
using energy_audit::examples::Crane;
using energy_audit::examples::Pendulum;
using energy_audit::examples::PendulumWrong;

namespace {

/// A pendulum declared separable whose T depends on the angle: a declaration its T contradicts.
struct FalselySeparable : Pendulum {
  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& /*t*/) const {
    using std::cos;
    return 0.5 * m * l * l * (2.0 + cos(q[0])) * v[0] * v[0];
  }
};

/// A pendulum declared separable with a damper: forces that depend on the velocity.
struct FalselySeparableDamped : Pendulum {
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    return Coordinates<S>{-0.3 * v[0]};
  }
};

/// A pendulum declared separable whose T is not quadratic in the velocity.
struct FalselySeparableQuartic : Pendulum {
  template <class S>
  S kinetic_energy(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    return 0.5 * m * l * l * v[0] * v[0] * (1.0 + v[0] * v[0]);
  }
};

/// `body` throws InvalidArgument whose message holds `text`.
template <class Body>
void refused_naming(Body&& body, const std::string& text) {
  try {
    body();
    BOOST_ERROR("not refused: expected a message naming '" << text << "'");
  } catch (const ea::InvalidArgument& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(std::string(e.what()).find(text) != std::string::npos, e.what() << " names " << text);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_separable_declaration_is_checked_against_t_and_f) {
  BOOST_CHECK_NO_THROW(ea::check_separable(Pendulum{}));
  refused_naming([] { ea::check_separable(FalselySeparable{}); }, "T depends on q");
  refused_naming([] { ea::check_separable(FalselySeparableDamped{}); }, "forces f depend on v");
  refused_naming([] { ea::check_separable(FalselySeparableQuartic{}); }, "T is not quadratic in v");
  BOOST_TEST(ea::is_separable<Pendulum>);
  BOOST_TEST(!ea::is_separable<Crane>);
  BOOST_TEST(ea::SeparableSystem<ea::HamiltonSystem<Pendulum>>);
  BOOST_TEST(ea::SeparableSystem<ea::LagrangeSystem<Pendulum>>);
  BOOST_TEST(!ea::SeparableSystem<ea::LagrangeSystem<Crane>>);
}

BOOST_AUTO_TEST_CASE(sprkstep_needs_sundials_7) {
  BOOST_TEST(sun::arkode_has_sprk == (SUNDIALS_VERSION_MAJOR >= 7));
  if (sun::arkode_has_sprk) return;
  refused_naming(
      [] {
        const ea::HamiltonSystem<Pendulum> system{Pendulum{}};
        const auto initial = Pendulum{}.initial_state();
        ea::Vector y = system.initial_state(initial.q, initial.v, 0.0);
        sun::ArkodeOptions o;
        o.stepper = sun::ArkodeStepper::Sprk;
        o.fixed_step = 1e-2;
        ea::Audit audit;
        sun::integrate_arkode(system, y, 0.0, 1.0, ea::watch(system, audit), o);
      },
      "SUNDIALS 7");
}

#if EA_ARKODE_HAS_SPRK

namespace {

/// The state of `system` at its model's initial q and v (Hamilton's form takes t0 for p).
template <class System>
ea::Vector start(const System& system) {
  const auto initial = system.model().initial_state();
  if constexpr (requires { system.initial_state(initial.q, initial.v, 0.0); }) {
    return system.initial_state(initial.q, initial.v, 0.0);
  } else {
    return system.initial_state(initial.q, initial.v);
  }
}

struct SprkRun {
  ea::Vector y;        ///< the state at t1
  double delta_c = 0;  ///< δ_C
  double equation_residual = 0;
  ea::Verdict verdict = ea::Verdict::Incomplete;
  energy_audit::SolverCounters counters;
};

/// `system` from its model's initial state to t1 with ARKODE at the fixed step h (`stepper`
/// and its `table`, empty: its default), audited with the equation check at every step.
template <class System>
SprkRun arkode_run(const System& system, double t1, double h, const std::string& table = "",
                   sun::ArkodeStepper stepper = sun::ArkodeStepper::Sprk) {
  SprkRun run;
  run.y = start(system);
  ea::AuditOptions audit_options;
  audit_options.equation_check_every = 1;
  ea::Audit audit(audit_options);
  sun::ArkodeOptions o;
  o.stepper = stepper;
  o.table = table;
  o.fixed_step = h;
  const sun::ArkodeResult r = sun::integrate_arkode(system, run.y, 0.0, t1, ea::watch(system, audit), o);
  BOOST_REQUIRE(r.end == ea::RunEnd::Finished);
  run.delta_c = audit.relative_drift();
  run.equation_residual = audit.equation_check().relative_residual();
  run.verdict = audit.verdict();
  run.counters = r.counters;
  return run;
}

/// The state at t1 from CVODES (BDF) at rtol 1e-12: the reference the orders are measured against.
template <class System>
ea::Vector reference(const System& system, double t1) {
  ea::Vector y = start(system);
  sun::CvodesOptions o;
  o.method = sun::Multistep::Adams;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.max_steps = 1000000;
  ea::Audit audit;
  sun::integrate_cvodes(system, y, 0.0, t1, ea::watch(system, audit), o);
  return y;
}

/// The error of [q, w] at t1 (Z left out) against the reference.
double motion_error(const ea::Vector& y, const ea::Vector& reference_state) {
  return (y.head(2) - reference_state.head(2)).norm();
}

/// The observed orders of the state's error and of δ_C at h and h/2 of `table` in `system`.
template <class System>
void converges_at_the_methods_order(const System& system, const std::string& table, int order, double h) {
  const double t1 = 2.0;
  const ea::Vector exact = reference(system, t1);
  const SprkRun coarse = arkode_run(system, t1, h, table), fine = arkode_run(system, t1, h / 2, table);
  const double state_order = std::log2(motion_error(coarse.y, exact) / motion_error(fine.y, exact));
  const double drift_order = std::log2(coarse.delta_c / fine.delta_c);
  BOOST_TEST_MESSAGE(table << ": observed order of the state " << state_order << ", of delta_C "
                           << drift_order << " (errors " << motion_error(coarse.y, exact) << ", "
                           << motion_error(fine.y, exact) << "; delta_C " << coarse.delta_c << ", "
                           << fine.delta_c << ")");
  BOOST_TEST(std::abs(state_order - order) < 0.3);
  BOOST_TEST(drift_order > order - 0.3);
  BOOST_CHECK(fine.verdict == ea::Verdict::Pass);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_state_and_delta_c_converge_at_the_methods_order) {
  const ea::HamiltonSystem<Pendulum> hamilton{Pendulum{}};
  const ea::LagrangeSystem<Pendulum> lagrange{Pendulum{}, ea::AccelerationSource::Hand};
  const ea::LagrangeSystem<Pendulum> derived{Pendulum{}, ea::AccelerationSource::Derived};
  BOOST_TEST(sun::default_table(sun::TableKind::Symplectic).name == "ARKODE_SPRK_MCLACHLAN_4_4");
  converges_at_the_methods_order(hamilton, "ARKODE_SPRK_MCLACHLAN_4_4", 4, 0.04);
  converges_at_the_methods_order(lagrange, "ARKODE_SPRK_MCLACHLAN_4_4", 4, 0.04);
  converges_at_the_methods_order(derived, "", 4, 0.04);
  converges_at_the_methods_order(hamilton, "ARKODE_SPRK_LEAPFROG_2_2", 2, 0.01);
  converges_at_the_methods_order(lagrange, "ARKODE_SPRK_LEAPFROG_2_2", 2, 0.01);
}

BOOST_AUTO_TEST_CASE(counts_its_steps_kicks_drifts_and_the_drifts_evaluations_of_z) {
  const ea::HamiltonSystem<Pendulum> system{Pendulum{}};
  const SprkRun run = arkode_run(system, 1.0, 0.01);
  BOOST_TEST(run.counters.steps == 100);
  // McLachlan's order-4 method: 4 stages, each a kick and a drift.
  BOOST_TEST(run.counters.rhs_evaluations == 8 * run.counters.steps);
  // Ż at 2 Gauss–Legendre nodes (⌈4/2⌉) in each of the 4 drifts of a step.
  BOOST_TEST(run.counters.quadrature_rhs_evaluations == 8 * run.counters.steps);
}

namespace {

/// The times the observer is shown, and how the run was begun and ended.
struct Recorder {
  std::vector<double> times;
  int begun = 0, ended = 0;
  ea::RunEnd end = ea::RunEnd::Error;
  void begin_run(double, double) { ++begun; }
  void end_run(ea::RunEnd e, double) {
    ++ended;
    end = e;
  }
  void operator()(const ea::ConstVectorRef&, double t) { times.push_back(t); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(the_observer_sees_t0_and_every_step_and_a_breakpoint_restarts_the_same_motion) {
  const ea::HamiltonSystem<Pendulum> system{Pendulum{}};
  const auto run = [&](std::vector<double> breakpoints, Recorder& recorder) {
    ea::Vector y = start(system);
    sun::ArkodeOptions o;
    o.stepper = sun::ArkodeStepper::Sprk;
    o.fixed_step = 0.01;
    o.breakpoints = std::move(breakpoints);
    const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, 1.0, recorder, o);
    BOOST_CHECK(r.end == ea::RunEnd::Finished);
    BOOST_TEST(r.counters.steps == 100);  // both pieces' steps
    return y;
  };
  Recorder plain, restarted;
  const ea::Vector y_plain = run({}, plain), y_restarted = run({0.5}, restarted);
  BOOST_TEST(plain.begun == 1);
  BOOST_TEST(plain.ended == 1);
  BOOST_CHECK(plain.end == ea::RunEnd::Finished);
  BOOST_TEST_REQUIRE(plain.times.size() == 101u);
  for (std::size_t i = 0; i < plain.times.size(); ++i)
    BOOST_TEST(std::abs(plain.times[i] - 0.01 * static_cast<double>(i)) < 1e-12);
  BOOST_TEST(restarted.begun == 1);  // one run for the observer
  BOOST_TEST(restarted.times.size() == 101u);
  // The breakpoint falls on a step: SPRKStep restarted there takes the same steps, the kicks at
  // the times of their drifts as before.
  BOOST_TEST((y_restarted - y_plain).norm() < 1e-13);
}

BOOST_AUTO_TEST_CASE(over_a_long_run_delta_c_stays_bounded_where_erk_drifts) {
  // 200 s (about 100 periods) at h = 0.05: the order-4 SPRK against ERKStep's order-4 default at
  // the same step.
  const ea::HamiltonSystem<Pendulum> system{Pendulum{}};
  const SprkRun symplectic = arkode_run(system, 200.0, 0.05);
  const SprkRun erk = arkode_run(system, 200.0, 0.05, "", sun::ArkodeStepper::Erk);
  BOOST_TEST_MESSAGE("delta_C over 200 s at h = 0.05: SPRK " << symplectic.delta_c << ", ERK "
                                                             << erk.delta_c);
  BOOST_TEST(symplectic.delta_c < 1e-4);
  BOOST_TEST(erk.delta_c > 10 * symplectic.delta_c);
}

BOOST_AUTO_TEST_CASE(the_wrong_twin_runs_smoothly_and_fails_the_audit) {
  const ea::LagrangeSystem<PendulumWrong> wrong{PendulumWrong{}, ea::AccelerationSource::Hand};
  const ea::LagrangeSystem<Pendulum> right{Pendulum{}, ea::AccelerationSource::Hand};
  const SprkRun wrong_run = arkode_run(wrong, 10.0, 0.01), right_run = arkode_run(right, 10.0, 0.01);
  BOOST_TEST_MESSAGE("delta_C right " << right_run.delta_c << ", wrong " << wrong_run.delta_c
                                      << "; equation residual right " << right_run.equation_residual
                                      << ", wrong " << wrong_run.equation_residual);
  BOOST_TEST(std::isfinite(wrong_run.y[0]));
  BOOST_TEST(wrong_run.delta_c > 1e-2);
  BOOST_TEST(wrong_run.equation_residual > 1e-2);
  BOOST_CHECK(wrong_run.verdict == ea::Verdict::Fail);
  BOOST_TEST(right_run.delta_c < 1e-8);
  BOOST_CHECK(right_run.verdict == ea::Verdict::Pass);
}

BOOST_AUTO_TEST_CASE(refuses_what_it_cannot_integrate_naming_why) {
  const ea::HamiltonSystem<Pendulum> pendulum{Pendulum{}};
  refused_naming([] { arkode_run(ea::HamiltonSystem<Crane>{Crane{}}, 1.0, 0.01); }, "separable model");
  refused_naming([&] { arkode_run(pendulum, 1.0, 0.0); }, "fixed step");
  refused_naming([&] { arkode_run(pendulum, 1.0, 0.01, "ARKODE_DORMAND_PRINCE_7_4_5"); },
                 "ARKODE_SPRK_MCLACHLAN_4_4");
  refused_naming(
      [&] {
        ea::Vector y = start(pendulum);
        sun::ArkodeOptions o;
        o.stepper = sun::ArkodeStepper::Sprk;
        o.fixed_step = 0.01;
        o.relax = true;
        ea::Audit audit;
        sun::integrate_arkode(pendulum, y, 0.0, 1.0, ea::watch(pendulum, audit), o);
      },
      "not SPRKStep");
}

#endif
