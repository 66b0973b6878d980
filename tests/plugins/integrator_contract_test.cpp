// One contract, every integrator: each fixed-step method of FixedStepMethods, cvode-bdf,
// cvode-adams and idas, and where ARKODE is found ERKStep (adaptive, and at a fixed step with
// two of its tables) and ARKStep's DIRK (adaptive, and at a fixed step with ARKODE_TRBDF2_3_3_2),
// on crane-dae (a multiplier system, which all of them integrate):
//   - the observer sees t0 and every accepted step, in order, and is told how the run ended;
//   - a run that fails keeps the history up to the failure, and its verdict is error;
//   - Z carried in the state and Z as a quadrature agree (the SUNDIALS integrators);
//   - δ_C falls at the method's order as h halves (fixed step; ARKODE's at its table's order,
//     as ARKODE states it), or as rtol falls (adaptive).
// The DIRK takes its table by name; unknown names and, for adaptive steps, tables without an
// embedded method are refused.
// And ARKODE's relaxation under the audit, on the gyroscopic oscillator and its wrong twin (whose
// wrong force does no work): relaxed, ERKStep and ARKStep's DIRK (its relaxation default table)
// keep H at round-off, the wrong twin's too, while the equation check still fails the twin; δ_C
// of the correct model falls against the unrelaxed run at the same tolerance; the relaxed run
// ends at the stop time. Below SUNDIALS 6.6 relaxation is refused, naming 6.6, and so is it for a
// table with a negative weight (naming it and the tables relaxation takes) and for a system
// without H(y). On the crane (H of hundreds of joules) relaxation keeps C of the damped model at
// round-off, and leaves crane-wrong's δ_C, whose wrong term does work, what it is unrelaxed.
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#ifdef ENERGY_AUDIT_HAVE_ARKODE
#include <energy_audit/sundials/butcher_tables.hpp>
#include <energy_audit/sundials/integrate_arkode.hpp>
#endif

#include <energy_audit/lagrange_system.hpp>

#include "crane.hpp"
#include "crane_dae.hpp"
#include "gyroscopic_oscillator.hpp"

namespace ea = energy_audit;
namespace sun = energy_audit::sun;
using energy_audit::examples::CraneDae;

namespace {

struct RunResult {
  double t_reached;
  ea::RunEnd end;
  std::size_t steps;  ///< accepted steps
};

/// A fixed-step method of the list; `resolution` is h.
template <class Method>
struct FixedStep {
  static constexpr bool adaptive = false;
  static constexpr bool has_quadrature = false;
  static constexpr int order = Method::info.order;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double h, Observer&& observer, sun::ZMode) {
    ea::FixedStepper stepper(Method{});
    const ea::IntegrationResult r = ea::integrate_const(stepper, system, y, 0.0, t1, h, observer);
    return {r.t_reached, r.end, r.steps};
  }
};

/// CVODES BDF or Adams; `resolution` is rtol.
template <sun::Multistep multistep>
struct Cvodes {
  static constexpr bool adaptive = true;
  static constexpr bool has_quadrature = true;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double rtol, Observer&& observer,
                       sun::ZMode mode) {
    sun::CvodesOptions o;
    o.method = multistep;
    o.rtol = rtol;
    o.atol = rtol * 1e-2;
    o.z_mode = mode;
    const sun::CvodesResult r = sun::integrate_cvodes(system, y, 0.0, t1, observer, o);
    return {r.t_reached, r.end, static_cast<std::size_t>(r.counters.steps)};
  }
};

/// IDAS on the residual form, index 1; `resolution` is rtol.
struct Idas {
  static constexpr bool adaptive = true;
  static constexpr bool has_quadrature = true;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double rtol, Observer&& observer,
                       sun::ZMode mode) {
    sun::IdasOptions o;
    o.rtol = rtol;
    o.atol = rtol * 1e-2;
    o.z_mode = mode;
    const sun::IdasResult r = sun::integrate_idas(system, y, 0.0, t1, observer, o);
    return {r.t_reached, r.end, static_cast<std::size_t>(r.counters.steps)};
  }
};

#ifdef ENERGY_AUDIT_HAVE_ARKODE
/// ERKStep (its default table) or ARKStep's DIRK, adaptive; `resolution` is rtol. Z in the state
/// only: ARKODE has no quadratures.
template <sun::ArkodeStepper stepper>
struct ArkodeAdaptive {
  static constexpr bool adaptive = true;
  static constexpr bool has_quadrature = false;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double rtol, Observer&& observer, sun::ZMode) {
    sun::ArkodeOptions o;
    o.stepper = stepper;
    o.rtol = rtol;
    o.atol = rtol * 1e-2;
    const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, t1, observer, o);
    return {r.t_reached, r.end, static_cast<std::size_t>(r.counters.steps)};
  }
};

/// Table::stepper at a fixed step with the table Table::name (empty: the stepper's default of
/// order 4); `resolution` is h, the order that ARKODE gives the table.
template <class Table>
struct ArkodeFixedStep {
  static constexpr bool adaptive = false;
  static constexpr bool has_quadrature = false;
  static inline const int order =
      sun::chosen_table(sun::table_kind(Table::stepper), Table::name, false)->order;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double h, Observer&& observer, sun::ZMode) {
    sun::ArkodeOptions o;
    o.stepper = Table::stepper;
    o.table = Table::name;
    o.fixed_step = h;
    const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, t1, observer, o);
    return {r.t_reached, r.end, static_cast<std::size_t>(r.counters.steps)};
  }
};
struct DefaultTable {
  static constexpr auto stepper = sun::ArkodeStepper::Erk;
  static constexpr const char* name = "";
};
struct BogackiShampine {
  static constexpr auto stepper = sun::ArkodeStepper::Erk;
  static constexpr const char* name = "ARKODE_BOGACKI_SHAMPINE_4_2_3";
};
/// A DIRK table other than ARKStep's default, of order 2.
struct TrBdf2 {
  static constexpr auto stepper = sun::ArkodeStepper::Dirk;
  static constexpr const char* name = "ARKODE_TRBDF2_3_3_2";
};
using ArkodeIntegrators =
    std::tuple<ArkodeAdaptive<sun::ArkodeStepper::Erk>, ArkodeAdaptive<sun::ArkodeStepper::Dirk>,
               ArkodeFixedStep<DefaultTable>, ArkodeFixedStep<BogackiShampine>, ArkodeFixedStep<TrBdf2>>;
#else
using ArkodeIntegrators = std::tuple<>;
#endif

template <class List, class More>
struct WithSundials;
template <class... Methods, class... Arkode>
struct WithSundials<std::tuple<Methods...>, std::tuple<Arkode...>> {
  using type = std::tuple<FixedStep<Methods>..., Cvodes<sun::Multistep::Bdf>, Cvodes<sun::Multistep::Adams>, Idas,
                          Arkode...>;
};
using Integrators = WithSundials<ea::FixedStepMethods, ArkodeIntegrators>::type;

using System = ea::MultiplierSystem<CraneDae>;

ea::Vector start(const System& system) {
  const auto s = CraneDae{}.initial_state();
  return system.initial_state(s.q, s.v);
}

/// The resolution of a tight run: h = 1e-3 or rtol = 1e-8.
template <class Integrator>
double tight() {
  return Integrator::adaptive ? 1e-8 : 1e-3;
}

/// Records every (y, t) it is shown, and how the run was said to end.
struct Recorder {
  std::vector<double> times;
  int begun = 0, ended = 0;
  ea::RunEnd end = ea::RunEnd::Error;
  double t_end_told = -1;
  void begin_run(double, double) { ++begun; }
  void end_run(ea::RunEnd e, double t) {
    ++ended;
    end = e;
    t_end_told = t;
  }
  void operator()(const ea::ConstVectorRef&, double t) { times.push_back(t); }
};

/// crane-dae whose rates throw after t = 0.5, as a model leaving its domain would: every member
/// that evaluates them, the audit's rates_and_sample and rates_sample_with_powers among them.
struct FailsAfterHalf : System {
  using System::System;
  void fail_after(double t) const {
    if (t > 0.5) throw std::domain_error("model undefined after t = 0.5");
  }
  void operator()(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    fail_after(t);
    System::operator()(y, dydt, t);
  }
  void motion_rates(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    fail_after(t);
    System::motion_rates(y, dydt, t);
  }
  double energy_flow_rate(const ea::ConstVectorRef& y, double t) const {
    fail_after(t);
    return System::energy_flow_rate(y, t);
  }
  ea::EnergySample rates_and_sample(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    fail_after(t);
    return System::rates_and_sample(y, dydt, t);
  }
  auto rates_sample_with_powers(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t, bool check_sum) const {
    fail_after(t);
    return System::rates_sample_with_powers(y, dydt, t, check_sum);
  }
  void rates_of_w(const ea::ConstVectorRef& q, const ea::ConstVectorRef& v, double t, Eigen::Ref<ea::Vector> a,
                  double& z_dot) const {
    fail_after(t);
    System::rates_of_w(q, v, t, a, z_dot);
  }
  ea::DaeTerms dae_terms(const ea::ConstVectorRef& q, const ea::ConstVectorRef& v, double t) const {
    fail_after(t);
    return System::dae_terms(q, v, t);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(the_observer_sees_t0_and_every_accepted_step_in_order, Integrator, Integrators) {
  const System system{CraneDae{}};
  ea::Vector y = start(system);
  Recorder recorder;
  const RunResult r = Integrator::run(system, y, 1.0, tight<Integrator>(), recorder, sun::ZMode::State);
  BOOST_TEST(recorder.begun == 1);
  BOOST_TEST(recorder.ended == 1);
  BOOST_CHECK(recorder.end == ea::RunEnd::Finished);
  BOOST_TEST_REQUIRE(recorder.times.size() == r.steps + 1);
  BOOST_TEST(recorder.times.front() == 0.0);
  BOOST_TEST(recorder.times.back() == 1.0);
  BOOST_TEST(recorder.t_end_told == 1.0);
  bool increasing = true;
  for (std::size_t i = 1; i < recorder.times.size(); ++i) increasing = increasing && recorder.times[i] > recorder.times[i - 1];
  BOOST_TEST(increasing);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_failed_run_keeps_its_history_and_its_verdict_is_error, Integrator, Integrators) {
  const FailsAfterHalf system{CraneDae{}};
  ea::Vector y = start(system);
  ea::Audit audit;
  BOOST_CHECK_THROW(Integrator::run(system, y, 1.0, tight<Integrator>(), ea::watch(system, audit), sun::ZMode::State),
                    std::domain_error);
  BOOST_TEST(audit.accepted_steps() > 10u);
  BOOST_TEST(audit.last_row()[0] < 0.55);  // the last accepted state, at most a step past 0.5
  BOOST_TEST(audit.last_row()[0] > 0.4);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Error);
  const double drift = audit.relative_drift();  // over the steps computed, not a placeholder
  BOOST_TEST((std::isfinite(drift) && drift > 0.0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(z_in_the_state_and_as_a_quadrature_agree, Integrator, Integrators) {
  if constexpr (Integrator::has_quadrature) {
    const System system{CraneDae{}};
    ea::Vector in_state = start(system), quadrature = start(system);
    ea::Audit audit_state, audit_quadrature;
    Integrator::run(system, in_state, 5.0, 1e-9, ea::watch(system, audit_state), sun::ZMode::State);
    Integrator::run(system, quadrature, 5.0, 1e-9, ea::watch(system, audit_quadrature), sun::ZMode::Quadrature);
    BOOST_TEST(in_state[8] == quadrature[8], boost::test_tools::tolerance(1e-6));  // Z: the energy the damper took
    BOOST_TEST(in_state[8] > 100.0);
    BOOST_TEST(audit_state.relative_drift() < 1e-6);
    BOOST_TEST(audit_quadrature.relative_drift() < 1e-6);
  } else {
    BOOST_TEST_MESSAGE("the fixed-step methods and ARKODE carry Z in the state only");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(delta_c_falls_at_the_methods_order, Integrator, Integrators) {
  const System system{CraneDae{}};
  const auto delta = [&](double resolution) {
    ea::Vector y = start(system);
    ea::Audit audit;
    Integrator::run(system, y, 2.0, resolution, ea::watch(system, audit), sun::ZMode::State);
    BOOST_REQUIRE(audit.verdict() != ea::Verdict::Incomplete);
    return audit.relative_drift();
  };
  if constexpr (Integrator::adaptive) {
    const double coarse = delta(1e-5), middle = delta(1e-7), fine = delta(1e-9);
    BOOST_TEST_MESSAGE("delta_C at rtol 1e-5, 1e-7, 1e-9: " << coarse << ", " << middle << ", " << fine);
    BOOST_TEST(middle < coarse / 10);
    BOOST_TEST(fine < middle / 10);
  } else {
    const double coarse = delta(4e-3), fine = delta(2e-3);
    const double observed = std::log2(coarse / fine);
    BOOST_TEST_MESSAGE("observed order of delta_C " << observed << ", the method's " << Integrator::order);
    BOOST_TEST(observed > Integrator::order - 0.3);  // δ_C may fall faster than the state's error
  }
}

#ifdef ENERGY_AUDIT_HAVE_ARKODE
BOOST_AUTO_TEST_CASE(arkode_at_a_fixed_step_takes_the_steps_asked_the_last_cut_to_the_end) {
  const System system{CraneDae{}};
  const auto steps_to = [&](double t1, double h) {
    ea::Vector y = start(system);
    Recorder recorder;
    sun::ArkodeOptions o;
    o.fixed_step = h;
    const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, t1, recorder, o);
    BOOST_TEST(recorder.times.back() == t1);
    BOOST_TEST(recorder.times.size() == static_cast<std::size_t>(r.counters.steps) + 1);
    BOOST_TEST(r.counters.rhs_evaluations > 0);
    return recorder.times;
  };
  BOOST_TEST(steps_to(2.0, 1e-3).size() == 2001u);  // 2000 steps of h, none of round-off size after them
  const std::vector<double> uneven = steps_to(1.0, 0.3);
  BOOST_TEST_REQUIRE(uneven.size() == 5u);
  BOOST_TEST(uneven[3] == 0.9, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(arkode_refuses_an_unknown_table_naming_the_tables_and_a_table_without_embedding_adaptive) {
  const System system{CraneDae{}};
  ea::Vector y = start(system);
  sun::ArkodeOptions o;
  o.table = "ARKODE_NO_SUCH_TABLE";
  try {
    sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o);
    BOOST_FAIL("an unknown table was taken");
  } catch (const ea::InvalidArgument& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("ARKODE_NO_SUCH_TABLE") != std::string::npos);
    BOOST_TEST(message.find("ARKODE_DORMAND_PRINCE_7_4_5") != std::string::npos);
    BOOST_TEST(message.find(sun::default_table(sun::TableKind::Explicit).name) != std::string::npos);
  }
  o.table = "ARKODE_KNOTH_WOLKE_3_3";  // order 3, no embedded method
  BOOST_TEST(sun::find_table(sun::TableKind::Explicit, o.table)->embedded_order == 0);
  BOOST_CHECK_THROW(sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o), ea::InvalidArgument);
  o.fixed_step = 1e-2;  // at a fixed step it runs
  BOOST_TEST((sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).end == ea::RunEnd::Finished));
}

BOOST_AUTO_TEST_CASE(arkode_dirk_takes_a_diagonally_implicit_table_by_name) {
  const System system{CraneDae{}};
  ea::Vector y = start(system);
  sun::ArkodeOptions o;
  o.stepper = sun::ArkodeStepper::Dirk;
  o.table = "ARKODE_DORMAND_PRINCE_7_4_5";  // explicit: not one of ARKStep's DIRK tables
  try {
    sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o);
    BOOST_FAIL("an explicit table was taken for the DIRK");
  } catch (const ea::InvalidArgument& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("unknown DIRK table ARKODE_DORMAND_PRINCE_7_4_5") != std::string::npos, message);
    BOOST_TEST(message.find("ARKODE_TRBDF2_3_3_2") != std::string::npos, message);
    BOOST_TEST(message.find(sun::default_table(sun::TableKind::DiagonallyImplicit).name) !=
               std::string::npos);
  }
  // ARKStep's default of order 4 (ARKSTEP_DEFAULT_DIRK_4), as ARKODE's header names it.
  BOOST_TEST(sun::default_table(sun::TableKind::DiagonallyImplicit).name ==
             (SUNDIALS_VERSION_MAJOR >= 7 ? "ARKODE_ESDIRK436L2SA_6_3_4" : "ARKODE_SDIRK_5_3_4"));
  o.table = "ARKODE_IMPLICIT_MIDPOINT_1_2";  // order 2, no embedded method (SUNDIALS >= 6.6)
  if (const sun::ArkodeTable* midpoint = sun::find_table(sun::TableKind::DiagonallyImplicit, o.table)) {
    BOOST_TEST(midpoint->order == 2);
    BOOST_TEST(midpoint->embedded_order == 0);
    BOOST_CHECK_THROW(sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o), ea::InvalidArgument);
    o.fixed_step = 1e-2;
    y = start(system);
    BOOST_TEST((sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).end == ea::RunEnd::Finished));
  }
  o.table = "ARKODE_TRBDF2_3_3_2";  // order 2, embedded order 3
  o.fixed_step = 0;
  y = start(system);
  const sun::ArkodeTable& trbdf2 = *sun::find_table(sun::TableKind::DiagonallyImplicit, o.table);
  BOOST_TEST(trbdf2.order == 2);
  BOOST_TEST(trbdf2.embedded_order == 3);
  BOOST_TEST((sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).end == ea::RunEnd::Finished));
}

// Relaxation takes a table of order >= 2 without a negative weight b_i. The weights, as ARKODE 6.4
// and 7.5 load them: every DIRK table of order 3 or more has a negative one (ARKStep's default of
// order 4 too); of order 2 with an embedded method, ARKODE_SDIRK_2_1_2 (embedded order 1),
// ARKODE_BILLINGTON_3_3_2 and ARKODE_TRBDF2_3_3_2 (3) and, in 7.5, ARKODE_ARK2_DIRK_3_1_2 (1):
// the relaxation default is the first of the higher embedded order. ERKStep's default has none.
BOOST_AUTO_TEST_CASE(the_relaxation_default_tables_have_no_negative_weight) {
  const sun::ArkodeTable& dirk = sun::default_table(sun::TableKind::DiagonallyImplicit);
  BOOST_TEST(dirk.smallest_weight < 0.0);
  BOOST_TEST(sun::relaxation_problem(dirk).find(dirk.name + " has a negative weight b_") != std::string::npos,
             sun::relaxation_problem(dirk));
  const sun::ArkodeTable& relaxed = sun::relaxation_default_table(sun::TableKind::DiagonallyImplicit);
  BOOST_TEST(relaxed.name == "ARKODE_BILLINGTON_3_3_2");
  BOOST_TEST(relaxed.order == 2);
  BOOST_TEST(relaxed.embedded_order == 3);
  BOOST_TEST(sun::relaxation_problem(relaxed).empty());
  BOOST_TEST(sun::relaxation_default_table(sun::TableKind::Explicit).name ==
             sun::default_table(sun::TableKind::Explicit).name);
  const std::string dirk_relaxable = sun::relaxable_table_names(sun::TableKind::DiagonallyImplicit);
  BOOST_TEST(dirk_relaxable.find("ARKODE_TRBDF2_3_3_2") != std::string::npos, dirk_relaxable);
  BOOST_TEST(dirk_relaxable.find("ARKODE_SDIRK_5_3_4") == std::string::npos, dirk_relaxable);
  BOOST_TEST(dirk_relaxable.find("ARKODE_BACKWARD_EULER_1_1") == std::string::npos,
             dirk_relaxable);  // order 1
  // ARKODE relaxes tables of order 2 or more.
  if (const sun::ArkodeTable* euler =
          sun::find_table(sun::TableKind::DiagonallyImplicit, "ARKODE_BACKWARD_EULER_1_1")) {
    BOOST_TEST(sun::relaxation_problem(*euler).find("is of order 1") != std::string::npos);
  }
  const sun::ArkodeTable& dormand_prince =
      *sun::find_table(sun::TableKind::Explicit, "ARKODE_DORMAND_PRINCE_7_4_5");
  BOOST_TEST(
      sun::relaxation_problem(dormand_prince).find("negative weight b_5 = -0.322376") != std::string::npos,
      sun::relaxation_problem(dormand_prince));
}

BOOST_AUTO_TEST_CASE(arkode_counts_the_newton_iterations_of_its_dirk) {
  const System system{CraneDae{}};
  ea::Vector y = start(system);
  sun::ArkodeOptions o;
  o.stepper = sun::ArkodeStepper::Dirk;
  o.rtol = 1e-6;
  o.atol = 1e-8;
  const energy_audit::SolverCounters c = sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).counters;
  BOOST_TEST(c.steps > 0);
  BOOST_TEST(c.nonlinear_iterations >= c.steps);  // at least one per step (several stages each)
  BOOST_TEST(c.jacobian_evaluations > 0);
  BOOST_TEST(c.jacobian_rhs_evaluations > 0);  // the difference-quotient Jacobian
  BOOST_TEST(c.rhs_evaluations > c.nonlinear_iterations);
}

namespace {

using Gyroscopic = ea::LagrangeSystem<ea::testing::GyroscopicOscillator>;

/// The gyroscopic oscillator (b = 0) or its wrong twin (b ≠ 0), with its hand accelerations.
Gyroscopic gyroscopic(double wrong_coefficient) {
  ea::testing::GyroscopicOscillator model;
  model.wrong_gyroscopic_coefficient = wrong_coefficient;
  return Gyroscopic(model, ea::AccelerationSource::Hand);
}

struct AuditedRun {
  double delta_c;              ///< δ_C; C = H here (no forces: Z stays 0)
  double equation_residual;    ///< the equation check's relative residual
  ea::Verdict verdict;
  energy_audit::SolverCounters counters;
};

/// 20 s from q = (1, 0), v = (0, 1.5) with ARKODE at rtol 1e-6 (`table`, empty: the default or
/// the relaxation default), audited with the equation check
/// at every step.
AuditedRun audited_run(const Gyroscopic& system, sun::ArkodeStepper stepper, bool relax,
                       const std::string& table = "") {
  ea::Vector y = system.initial_state({1.0, 0.0}, {0.0, 1.5});
  ea::AuditOptions audit_options;
  audit_options.equation_check_every = 1;
  ea::Audit audit(audit_options);
  sun::ArkodeOptions o;
  o.stepper = stepper;
  o.table = table;
  o.rtol = 1e-6;
  o.atol = 1e-8;
  o.relax = relax;
  const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, 20.0, ea::watch(system, audit), o);
  return {audit.relative_drift(), audit.equation_check().relative_residual(), audit.verdict(), r.counters};
}

/// Rates without an energy gradient (not an EnergyGradientSystem).
struct RatesOnly {
  const Gyroscopic& system;
  ea::Index size() const { return system.size(); }
  void operator()(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const { system(y, dydt, t); }
};

}  // namespace

namespace {

/// The round-off δ_C of a relaxed run: each step's γ is solved to 10 ε |H0|, and the DIRK's
/// relaxation default, of order 2, takes some ten times ERKStep's steps.
double relaxed_round_off(sun::ArkodeStepper stepper) {
  return stepper == sun::ArkodeStepper::Erk ? 1e-12 : 1e-11;
}

/// Relaxed, `stepper` (its relaxation default table) keeps H of the gyroscopic wrong twin at
/// round-off while the equation check fails it, and brings δ_C of the right model down to
/// round-off from the unrelaxed drift at the same tolerance, of the stepper's default table and of
/// the relaxed table.
void relaxation_keeps_h_of_the_wrong_twin_while_the_equation_check_fails_it(sun::ArkodeStepper stepper) {
  const Gyroscopic right = gyroscopic(0.0), wrong = gyroscopic(0.4);
  if (!sun::arkode_has_relaxation) {
    try {
      audited_run(right, stepper, true);
      BOOST_FAIL("relaxation was taken below SUNDIALS 6.6");
    } catch (const ea::InvalidArgument& e) {
      BOOST_TEST(std::string(e.what()).find("6.6") != std::string::npos);
    }
    return;
  }
  const AuditedRun relaxed_wrong = audited_run(wrong, stepper, true);
  const AuditedRun relaxed_right = audited_run(right, stepper, true);
  const AuditedRun plain_right = audited_run(right, stepper, false);
  const std::string relaxed_table = sun::relaxation_default_table(sun::table_kind(stepper)).name;
  const AuditedRun plain_right_same_table = audited_run(right, stepper, false, relaxed_table);
  BOOST_TEST_MESSAGE("δ_C relaxed wrong " << relaxed_wrong.delta_c << ", relaxed right "
                                          << relaxed_right.delta_c << " (" << relaxed_right.counters.steps
                                          << " steps), unrelaxed right " << plain_right.delta_c << " ("
                                          << plain_right.counters.steps << " steps), unrelaxed right with "
                                          << relaxed_table << " " << plain_right_same_table.delta_c << " ("
                                          << plain_right_same_table.counters.steps << " steps)");
  // Relaxation keeps H of the wrong twin at round-off: δ_C cannot see the twin's error...
  BOOST_TEST(relaxed_wrong.delta_c <= relaxed_round_off(stepper));
  // ...the equation check does: its residual is that of b (v_y, −v_x), far above the threshold.
  BOOST_TEST(relaxed_wrong.equation_residual > 1e-3);
  BOOST_CHECK(relaxed_wrong.verdict == ea::Verdict::Fail);  // finished at t1, failed by the equation check
  BOOST_TEST(relaxed_wrong.counters.relaxed);
  BOOST_TEST(relaxed_wrong.counters.relaxation.energy_evaluations > 0);
  BOOST_TEST(relaxed_wrong.counters.relaxation.gradient_evaluations > 0);
  // On the right model relaxation brings δ_C down to round-off from the tolerance's drift.
  BOOST_TEST(relaxed_right.delta_c <= relaxed_round_off(stepper));
  BOOST_TEST(plain_right.delta_c > 100 * relaxed_right.delta_c);
  BOOST_TEST(plain_right_same_table.delta_c > 100 * relaxed_right.delta_c);
  BOOST_CHECK(relaxed_right.verdict == ea::Verdict::Pass);
  BOOST_TEST(!plain_right.counters.relaxed);
}

/// Relaxed, `stepper` (its relaxation default table) keeps C of the damped crane (C = H + Z, Z
/// the damper's work from the independent powers) at round-off, and leaves crane-wrong's δ_C,
/// whose wrong term does work, what it is unrelaxed: Z still tells a wrong power.
void relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift(sun::ArkodeStepper stepper) {
  if (!sun::arkode_has_relaxation) {
    BOOST_TEST_MESSAGE("relaxation needs SUNDIALS 6.6");
    return;
  }
  // The crane over its 5 s at the command line's tolerances.
  const auto delta_c = [stepper](const auto& model, bool relax) {
    const ea::LagrangeSystem system(model, ea::AccelerationSource::Hand);
    ea::Vector y = system.initial_state({model.x1_0, model.phi_0}, {model.x1_dot_0, model.phi_dot_0});
    ea::Audit audit;
    sun::ArkodeOptions o;
    o.stepper = stepper;
    o.relax = relax;
    sun::integrate_arkode(system, y, 0.0, 5.0, ea::watch(system, audit), o);
    BOOST_REQUIRE(audit.verdict() != ea::Verdict::Incomplete);
    return audit.relative_drift();
  };
  const ea::examples::Crane crane;  // damper k = 50 N s/m: C = H + Z
  const ea::examples::CraneWrong wrong;
  ea::examples::Crane undamped;  // k = 0: C = H
  undamped.k = 0;
  const double relaxed = delta_c(crane, true), plain = delta_c(crane, false);
  const double wrong_relaxed = delta_c(wrong, true), wrong_plain = delta_c(wrong, false);
  const double undamped_relaxed = delta_c(undamped, true), undamped_plain = delta_c(undamped, false);
  BOOST_TEST_MESSAGE("crane δ_C " << plain << " → " << relaxed << " relaxed; crane-wrong " << wrong_plain
                                  << " → " << wrong_relaxed << "; crane with k = 0 " << undamped_plain
                                  << " → " << undamped_relaxed);
  BOOST_TEST(relaxed <= relaxed_round_off(stepper));
  BOOST_TEST(plain > 100 * relaxed);
  BOOST_TEST(undamped_relaxed <= relaxed_round_off(stepper));
  BOOST_TEST(undamped_plain > 100 * undamped_relaxed);
  BOOST_TEST(wrong_plain > 1e-2);
  BOOST_TEST(wrong_relaxed == wrong_plain, boost::test_tools::tolerance(1e-3));
}

}  // namespace

BOOST_AUTO_TEST_CASE(arkode_relaxation_keeps_h_of_a_wrong_model_while_the_equation_check_fails_it) {
  relaxation_keeps_h_of_the_wrong_twin_while_the_equation_check_fails_it(sun::ArkodeStepper::Erk);
}

BOOST_AUTO_TEST_CASE(arkode_dirk_relaxation_keeps_h_of_a_wrong_model_while_the_equation_check_fails_it) {
  relaxation_keeps_h_of_the_wrong_twin_while_the_equation_check_fails_it(sun::ArkodeStepper::Dirk);
}

BOOST_AUTO_TEST_CASE(arkode_relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift) {
  relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift(sun::ArkodeStepper::Erk);
}

BOOST_AUTO_TEST_CASE(arkode_dirk_relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift) {
  relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift(sun::ArkodeStepper::Dirk);
}

BOOST_AUTO_TEST_CASE(
    arkode_relaxation_is_refused_for_a_system_without_an_energy_gradient_and_a_negative_weight) {
  const Gyroscopic system = gyroscopic(0.0);
  const auto refusal = [&](const auto& integrated, sun::ArkodeStepper stepper, const std::string& table) {
    ea::Vector y = system.initial_state({1.0, 0.0}, {0.0, 1.5});
    sun::ArkodeOptions o;
    o.stepper = stepper;
    o.table = table;
    o.relax = true;
    try {
      sun::integrate_arkode(integrated, y, 0.0, 1.0, ea::NoObserver{}, o);
    } catch (const ea::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("taken");
  };
  const bool relaxes = sun::arkode_has_relaxation;
  BOOST_TEST(refusal(RatesOnly{system}, sun::ArkodeStepper::Erk, "").find(relaxes ? "scleronomic" : "6.6") !=
             std::string::npos);
  // ARKStep's default DIRK table of order 4 has a negative weight: named, it is refused, naming the
  // weight and the tables relaxation takes; left out, the relaxation default runs.
  const std::string dirk_default = sun::default_table(sun::TableKind::DiagonallyImplicit).name;
  const std::string refused = refusal(system, sun::ArkodeStepper::Dirk, dirk_default);
  BOOST_TEST(refused.find(relaxes ? dirk_default + " has a negative weight b_" : "6.6") != std::string::npos,
             refused);
  BOOST_TEST(refusal(system, sun::ArkodeStepper::Dirk, "").find(relaxes ? "taken" : "6.6") !=
             std::string::npos);
  if (relaxes) {
    BOOST_TEST(refused.find("ARKODE_TRBDF2_3_3_2") != std::string::npos, refused);
    const std::string dormand_prince =
        refusal(system, sun::ArkodeStepper::Erk, "ARKODE_DORMAND_PRINCE_7_4_5");
    BOOST_TEST(dormand_prince.find("negative weight b_5 = -0.322376") != std::string::npos, dormand_prince);
    BOOST_TEST(dormand_prince.find(sun::default_table(sun::TableKind::Explicit).name) != std::string::npos);
  }
}
#endif
