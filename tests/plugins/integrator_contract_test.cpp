// One contract, every integrator: each fixed-step method of FixedStepMethods, cvode-bdf,
// cvode-adams and idas, and where ARKODE is found ERKStep (adaptive, and at a fixed step with
// two of its tables) and ARKStep's DIRK, on crane-dae (a multiplier system, which all of them
// integrate):
//   - the observer sees t0 and every accepted step, in order, and is told how the run ended;
//   - a run that fails keeps the history up to the failure, and its verdict is error;
//   - Z carried in the state and Z as a quadrature agree (the SUNDIALS integrators);
//   - δ_C falls at the method's order as h halves (fixed step; ERKStep's at its table's order,
//     as ARKODE states it), or as rtol falls (adaptive).
// And ARKODE's relaxation under the audit, on the gyroscopic oscillator and its wrong twin (whose
// wrong force does no work): relaxed, ERKStep keeps H at round-off, the wrong twin's too, while
// the equation check still fails the twin; δ_C of the correct model falls against the unrelaxed
// run at the same tolerance; the relaxed run ends at the stop time. Below SUNDIALS 6.6 relaxation
// is refused, naming 6.6, and so is it for ARKStep's DIRK and for a system without H(y). On the
// crane (H of hundreds of joules) relaxation keeps C of the damped model at round-off, and leaves
// crane-wrong's δ_C, whose wrong term does work, what it is unrelaxed.
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
#include <energy_audit/sundials/erk_tables.hpp>
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

/// ERKStep at a fixed step with the table Table::name (empty: ERKStep's default of order 4);
/// `resolution` is h, the order that ARKODE gives the table.
template <class Table>
struct ArkodeFixedStep {
  static constexpr bool adaptive = false;
  static constexpr bool has_quadrature = false;
  static inline const int order =
      (Table::name[0] == '\0' ? sun::default_erk_table() : *sun::find_erk_table(Table::name)).order;
  template <class System, class Observer>
  static RunResult run(const System& system, ea::Vector& y, double t1, double h, Observer&& observer, sun::ZMode) {
    sun::ArkodeOptions o;
    o.table = Table::name;
    o.fixed_step = h;
    const sun::ArkodeResult r = sun::integrate_arkode(system, y, 0.0, t1, observer, o);
    return {r.t_reached, r.end, static_cast<std::size_t>(r.counters.steps)};
  }
};
struct DefaultTable {
  static constexpr const char* name = "";
};
struct BogackiShampine {
  static constexpr const char* name = "ARKODE_BOGACKI_SHAMPINE_4_2_3";
};
using ArkodeIntegrators =
    std::tuple<ArkodeAdaptive<sun::ArkodeStepper::Erk>, ArkodeAdaptive<sun::ArkodeStepper::Dirk>,
               ArkodeFixedStep<DefaultTable>, ArkodeFixedStep<BogackiShampine>>;
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

/// crane-dae whose rates throw after t = 0.5, as a model leaving its domain would.
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
    BOOST_TEST(message.find(sun::default_erk_table().name) != std::string::npos);
  }
  o.table = "ARKODE_KNOTH_WOLKE_3_3";  // order 3, no embedded method
  BOOST_TEST(sun::find_erk_table(o.table)->embedded_order == 0);
  BOOST_CHECK_THROW(sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o), ea::InvalidArgument);
  o.fixed_step = 1e-2;  // at a fixed step it runs
  BOOST_TEST((sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).end == ea::RunEnd::Finished));
}

BOOST_AUTO_TEST_CASE(arkode_counts_the_newton_iterations_of_its_dirk) {
  const System system{CraneDae{}};
  ea::Vector y = start(system);
  sun::ArkodeOptions o;
  o.stepper = sun::ArkodeStepper::Dirk;
  o.rtol = 1e-6;
  o.atol = 1e-8;
  const sun::SolverCounters c = sun::integrate_arkode(system, y, 0.0, 1.0, ea::NoObserver{}, o).counters;
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
  sun::SolverCounters counters;
};

/// 20 s from q = (1, 0), v = (0, 1.5) with ARKODE at rtol 1e-6, audited with the equation check
/// at every step.
AuditedRun audited_run(const Gyroscopic& system, sun::ArkodeStepper stepper, bool relax) {
  ea::Vector y = system.initial_state({1.0, 0.0}, {0.0, 1.5});
  ea::AuditOptions audit_options;
  audit_options.equation_check_every = 1;
  ea::Audit audit(audit_options);
  sun::ArkodeOptions o;
  o.stepper = stepper;
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

BOOST_AUTO_TEST_CASE(arkode_relaxation_keeps_h_of_a_wrong_model_while_the_equation_check_fails_it) {
  const Gyroscopic right = gyroscopic(0.0), wrong = gyroscopic(0.4);
  if constexpr (!sun::arkode_has_relaxation) {
    try {
      audited_run(right, sun::ArkodeStepper::Erk, true);
      BOOST_FAIL("relaxation was taken below SUNDIALS 6.6");
    } catch (const ea::InvalidArgument& e) {
      BOOST_TEST(std::string(e.what()).find("6.6") != std::string::npos);
    }
    return;
  }
  const AuditedRun relaxed_wrong = audited_run(wrong, sun::ArkodeStepper::Erk, true);
  const AuditedRun relaxed_right = audited_run(right, sun::ArkodeStepper::Erk, true);
  const AuditedRun plain_right = audited_run(right, sun::ArkodeStepper::Erk, false);
  BOOST_TEST_MESSAGE("δ_C relaxed wrong " << relaxed_wrong.delta_c << ", relaxed right " << relaxed_right.delta_c
                                          << ", unrelaxed right " << plain_right.delta_c);
  // Relaxation keeps H of the wrong twin at round-off: δ_C cannot see the twin's error...
  BOOST_TEST(relaxed_wrong.delta_c <= 1e-12);
  // ...the equation check does: its residual is that of b (v_y, −v_x), far above the threshold.
  BOOST_TEST(relaxed_wrong.equation_residual > 1e-3);
  BOOST_CHECK(relaxed_wrong.verdict == ea::Verdict::Fail);  // finished at t1, failed by the equation check
  BOOST_TEST(relaxed_wrong.counters.relaxed);
  BOOST_TEST(relaxed_wrong.counters.relaxation.energy_evaluations > 0);
  BOOST_TEST(relaxed_wrong.counters.relaxation.gradient_evaluations > 0);
  // On the right model relaxation brings δ_C down to round-off from the tolerance's drift.
  BOOST_TEST(relaxed_right.delta_c <= 1e-12);
  BOOST_TEST(plain_right.delta_c > 100 * relaxed_right.delta_c);
  BOOST_CHECK(relaxed_right.verdict == ea::Verdict::Pass);
  BOOST_TEST(!plain_right.counters.relaxed);
}

BOOST_AUTO_TEST_CASE(arkode_relaxation_keeps_c_of_the_damped_crane_and_leaves_crane_wrongs_drift) {
  if constexpr (sun::arkode_has_relaxation) {
    // arkode-erk on the crane over its 5 s at the command line's tolerances.
    const auto delta_c = [](const auto& model, bool relax) {
      const ea::LagrangeSystem system(model, ea::AccelerationSource::Hand);
      ea::Vector y = system.initial_state({model.x1_0, model.phi_0}, {model.x1_dot_0, model.phi_dot_0});
      ea::Audit audit;
      sun::ArkodeOptions o;
      o.relax = relax;
      sun::integrate_arkode(system, y, 0.0, 5.0, ea::watch(system, audit), o);
      BOOST_REQUIRE(audit.verdict() != ea::Verdict::Incomplete);
      return audit.relative_drift();
    };
    const ea::examples::Crane crane;  // damper k = 50 N s/m: C = H + Z
    const ea::examples::CraneWrong wrong;
    const double relaxed = delta_c(crane, true), plain = delta_c(crane, false);
    const double wrong_relaxed = delta_c(wrong, true), wrong_plain = delta_c(wrong, false);
    BOOST_TEST_MESSAGE("crane δ_C " << plain << " → " << relaxed << " relaxed; crane-wrong " << wrong_plain << " → "
                                    << wrong_relaxed);
    BOOST_TEST(relaxed <= 1e-12);
    BOOST_TEST(plain > 100 * relaxed);
    BOOST_TEST(wrong_plain > 1e-2);
    BOOST_TEST(wrong_relaxed == wrong_plain, boost::test_tools::tolerance(1e-3));
  } else {
    BOOST_TEST_MESSAGE("relaxation needs SUNDIALS 6.6");
  }
}

BOOST_AUTO_TEST_CASE(arkode_relaxation_is_refused_for_a_system_without_an_energy_gradient_and_for_dirk) {
  const Gyroscopic system = gyroscopic(0.0);
  const auto refusal = [&](const auto& integrated, sun::ArkodeStepper stepper) {
    ea::Vector y = system.initial_state({1.0, 0.0}, {0.0, 1.5});
    sun::ArkodeOptions o;
    o.stepper = stepper;
    o.relax = true;
    try {
      sun::integrate_arkode(integrated, y, 0.0, 1.0, ea::NoObserver{}, o);
    } catch (const ea::InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("taken");
  };
  const bool relaxes = sun::arkode_has_relaxation;
  BOOST_TEST(refusal(RatesOnly{system}, sun::ArkodeStepper::Erk).find(relaxes ? "scleronomic" : "6.6") !=
             std::string::npos);
  BOOST_TEST(refusal(system, sun::ArkodeStepper::Dirk).find(relaxes ? "negative weight" : "6.6") != std::string::npos);
}
#endif
