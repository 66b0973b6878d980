// The IDAS adapter on crane-dae: agreement with crane on CVODES, Z as residual or quadrature,
// GGL against drift, long and short runs, and the failures that must end in clear errors with
// the history kept.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#include <energy_audit/sundials/integrate_idas_explicit.hpp>

#include "crane.hpp"
#include "crane_dae.hpp"
#include "singular_constraint.hpp"

namespace ea = energy_audit;
namespace sun = energy_audit::sun;
using energy_audit::examples::Crane;
using energy_audit::examples::CraneDae;
using DaeSystem = ea::MultiplierSystem<CraneDae>;

namespace {

// crane on CVODES at rtol 1e-11 up to t_end: the reference from the other formulation.
ea::Vector crane_on_cvodes(double t_end) {
  const ea::LagrangeSystem<Crane> system{Crane{}};
  const auto s = Crane{}.initial_state();
  ea::Vector state = system.initial_state(s.q, s.v);
  sun::CvodesOptions o;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  sun::integrate_cvodes(system, state, 0.0, t_end, ea::NoObserver{}, o);
  return state;
}

const ea::Vector& crane_reference() {
  static const ea::Vector y = crane_on_cvodes(5.0);
  return y;
}

struct IdasRun {
  ea::Vector y;
  ea::Audit audit;
  sun::IdasResult result;
};

IdasRun run_idas(sun::IdasOptions options, const CraneDae& model = CraneDae{}) {
  const DaeSystem system{model};
  const auto s = model.initial_state();
  IdasRun run{system.initial_state(s.q, s.v), ea::Audit{}, {}};
  run.result = sun::integrate_idas(system, run.y, 0.0, 5.0, ea::watch(system, run.audit), options);
  return run;
}

sun::IdasOptions tight(sun::DaeForm form, sun::ZMode mode = sun::ZMode::State) {
  sun::IdasOptions o;
  o.form = form;
  o.z_mode = mode;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(crane_dae_on_idas_matches_crane_on_cvodes) {
  for (const auto form : {sun::DaeForm::Index1, sun::DaeForm::Ggl}) {
    const IdasRun run = run_idas(tight(form));
    BOOST_TEST_CONTEXT((form == sun::DaeForm::Ggl ? "ggl" : "index 1")) {
      BOOST_TEST(std::abs(run.y[0] - crane_reference()[0]) < 1e-6);  // x1(5)
      BOOST_TEST(std::abs(run.y[3] - crane_reference()[1]) < 1e-6);  // phi(5)
      BOOST_TEST(run.y[8] == crane_reference()[4], boost::test_tools::tolerance(1e-7));  // Z(5)
      BOOST_TEST_REQUIRE(run.audit.max_constraint_drift().has_value());
      BOOST_TEST(run.audit.max_constraint_drift()->position < 1e-6);
      BOOST_TEST(run.audit.max_constraint_drift()->velocity < 1e-6);
      BOOST_TEST(run.audit.relative_drift() < 1e-7);
      BOOST_TEST(run.audit.accepted_steps() == static_cast<std::size_t>(run.result.counters.steps) + 1);
    }
  }
}

BOOST_AUTO_TEST_CASE(z_as_residual_and_as_quadrature_agree) {
  for (const auto form : {sun::DaeForm::Index1, sun::DaeForm::Ggl}) {
    const IdasRun state = run_idas(tight(form, sun::ZMode::State));
    const IdasRun quadrature = run_idas(tight(form, sun::ZMode::Quadrature));
    BOOST_TEST(quadrature.y[8] == state.y[8], boost::test_tools::tolerance(1e-8));
    BOOST_TEST((quadrature.y.head(8) - state.y.head(8)).cwiseAbs().maxCoeff() < 1e-6);
    BOOST_TEST(quadrature.result.counters.quadrature_rhs_evaluations > 0);
  }
}

BOOST_AUTO_TEST_CASE(ggl_keeps_phi_at_the_solver_tolerance) {
  sun::IdasOptions ggl;  // defaults: rtol 1e-8, atol 1e-10
  ggl.form = sun::DaeForm::Ggl;
  sun::IdasOptions index1 = ggl;
  index1.form = sun::DaeForm::Index1;
  const double ggl_drift = run_idas(ggl).audit.max_constraint_drift()->position;
  const double index1_drift = run_idas(index1).audit.max_constraint_drift()->position;
  BOOST_TEST_MESSAGE("max |Phi|: GGL " << ggl_drift << ", index 1 " << index1_drift);
  BOOST_TEST(ggl_drift < 10 * ggl.atol);
  BOOST_TEST(ggl_drift < index1_drift / 100);
}

BOOST_AUTO_TEST_CASE(baumgarte_on_the_index1_residual_reduces_drift) {
  sun::IdasOptions plain;
  sun::IdasOptions stabilized;
  stabilized.baumgarte = ea::Baumgarte{10.0, 10.0};
  const double plain_drift = run_idas(plain).audit.max_constraint_drift()->position;
  const double stabilized_drift = run_idas(stabilized).audit.max_constraint_drift()->position;
  BOOST_TEST(stabilized_drift < plain_drift / 10);
}

BOOST_AUTO_TEST_CASE(inconsistent_initial_values_are_refused_for_ggl) {
  const DaeSystem system{CraneDae{}};
  auto s = CraneDae{}.initial_state();
  s.q[1] += 1e-3;  // x2 off the constraint: IDACalcIC never changes q
  ea::Vector y = system.initial_state(s.q, s.v);
  ea::Audit audit;
  sun::IdasOptions o;
  o.form = sun::DaeForm::Ggl;
  BOOST_CHECK_EXCEPTION(sun::integrate_idas(system, y, 0.0, 5.0, ea::watch(system, audit), o), ea::InvalidArgument,
                        [](const ea::InvalidArgument& e) {
                          return std::string(e.what()).find("inconsistent initial values") != std::string::npos;
                        });
  BOOST_TEST(audit.accepted_steps() == 0u);
}

BOOST_AUTO_TEST_CASE(rank_deficient_constraints_fail_in_idacalcic_with_its_flag) {
  using energy_audit::testing::DuplicatedConstraint;
  const ea::MultiplierSystem<DuplicatedConstraint> system{DuplicatedConstraint{}};
  ea::Vector y = system.initial_state({0.0, 0.0}, {1.0, 0.0});
  try {
    sun::integrate_idas(system, y, 0.0, 1.0, ea::NoObserver{});
    BOOST_FAIL("a rank-deficient G must fail");
  } catch (const sun::IdasFailure& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(e.function() == "IDACalcIC");
    BOOST_TEST(e.flag_name().rfind("IDA_", 0) == 0u);
    // SUNDIALS' own text (MSG_IC_NO_RECOVERY in idas_impl.h)
    BOOST_TEST(std::string(e.what()).ends_with("but IDACalcIC was unable to recover."), e.what());
  }
}

BOOST_AUTO_TEST_CASE(constraint_jacobian_turning_singular_midway_fails_with_history_kept) {
  using energy_audit::testing::SingularConstraint;
  const ea::MultiplierSystem<SingularConstraint> system{SingularConstraint{}};
  ea::Vector y = system.initial_state({0.0, 0.0}, {1.0, 0.0});
  ea::Audit audit;
  try {
    sun::integrate_idas(system, y, 0.0, 1.0, ea::watch(system, audit));
    BOOST_FAIL("G = [0, 0.5 - t] is singular from t = 0.5 on");
  } catch (const ea::Error& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(std::string(e.what()).find("t = ") != std::string::npos);
    // SUNDIALS' own text (MSG_CONV_FAILS in idas_impl.h)
    BOOST_TEST(std::string(e.what()).ends_with("the corrector convergence failed repeatedly or with |h| = hmin."),
               e.what());
  }
  BOOST_TEST(audit.accepted_steps() > 1u);
  BOOST_TEST(audit.last_row()[0] < 0.5);
  BOOST_TEST(audit.last_row()[0] > 0.4);
}

BOOST_AUTO_TEST_CASE(ggl_needs_holonomic_constraints_and_no_baumgarte) {
  const DaeSystem system{CraneDae{}};
  const auto s = CraneDae{}.initial_state();
  ea::Vector y = system.initial_state(s.q, s.v);
  sun::IdasOptions o;
  o.form = sun::DaeForm::Ggl;
  o.baumgarte = ea::Baumgarte{1.0, 1.0};
  BOOST_CHECK_THROW(sun::integrate_idas(system, y, 0.0, 1.0, ea::NoObserver{}, o), ea::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(system_without_z_integrates_the_motion_alone) {
  const DaeSystem with_z{CraneDae{}};
  const DaeSystem without_z{CraneDae{}, std::nullopt, ea::EnergyFlow::Off};
  const auto s = CraneDae{}.initial_state();
  ea::Vector y = without_z.initial_state(s.q, s.v);
  BOOST_TEST_REQUIRE(y.size() == 8);
  for (const auto mode : {sun::ZMode::State, sun::ZMode::Quadrature}) {
    sun::IdasOptions o;
    o.z_mode = mode;
    ea::Vector motion = y;
    sun::integrate_idas(without_z, motion, 0.0, 5.0, ea::NoObserver{}, o);
    ea::Vector full = with_z.initial_state(s.q, s.v);
    sun::integrate_idas(with_z, full, 0.0, 5.0, ea::NoObserver{}, o);
    BOOST_TEST((motion - full.head(8)).cwiseAbs().maxCoeff() < 1e-5);
  }
}

namespace {
// crane-dae whose damper throws from t = 0.3 on: an exception inside an IDAS residual.
struct ThrowingCraneDae : CraneDae {
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    if (t > 0.3) throw std::runtime_error("damper failed");
    return CraneDae::forces(q, v, t);
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(exception_in_a_residual_is_rethrown_after_idas_returns_with_history_kept) {
  const ea::MultiplierSystem<ThrowingCraneDae> system{ThrowingCraneDae{}};
  const auto s = ThrowingCraneDae{}.initial_state();
  ea::Vector y = system.initial_state(s.q, s.v);
  ea::Audit audit;
  BOOST_CHECK_EXCEPTION(sun::integrate_idas(system, y, 0.0, 5.0, ea::watch(system, audit)), std::runtime_error,
                        [](const std::runtime_error& e) { return std::string(e.what()) == "damper failed"; });
  BOOST_TEST(audit.accepted_steps() > 1u);
  BOOST_TEST(audit.last_row()[0] <= 0.3 + 1e-12);
}

namespace {

// The first 200 steps of crane-dae on IDAS towards t1, as (t, y) after each; the run must stop
// in its step budget.
std::vector<std::pair<double, ea::Vector>> first_steps(double t1, double initial_step = 0) {
  const DaeSystem system{CraneDae{}};
  const auto s = CraneDae{}.initial_state();
  ea::Vector y = system.initial_state(s.q, s.v);
  std::vector<std::pair<double, ea::Vector>> steps;
  sun::IdasOptions o;
  o.max_steps = 200;
  o.initial_step = initial_step;
  try {
    const auto record = [&](const ea::Vector& state, double t) { steps.emplace_back(t, state); };
    sun::integrate_idas(system, y, 0.0, t1, record, o);
    BOOST_ERROR("200 steps reached t1 = " << t1);
  } catch (const sun::IdasFailure& e) {
    BOOST_TEST(e.function() == "IDASolve", e.what());
    BOOST_TEST(e.flag_name() == "IDA_TOO_MUCH_WORK", e.what());
    BOOST_TEST(e.t() > 0.0);
    BOOST_TEST((!steps.empty() && e.t() == steps.back().first));
  }
  return steps;
}

}  // namespace

BOOST_AUTO_TEST_CASE(long_runs_start_and_take_the_first_steps_of_a_short_one) {
  const auto short_run = first_steps(5.0);
  BOOST_TEST_REQUIRE(short_run.size() == 201u);  // t0 and 200 steps
  // After 200 steps, crane-dae is where crane on CVODES is.
  const auto& [t_last, y_last] = short_run.back();
  const ea::Vector crane = crane_on_cvodes(t_last);
  BOOST_TEST(std::abs(y_last[0] - crane[0]) < 1e-6);  // x1
  BOOST_TEST(std::abs(y_last[3] - crane[1]) < 1e-6);  // phi
  for (const double t1 : {2e4, 1e7}) {
    BOOST_TEST_CONTEXT("t1 = " << t1) {
      const auto long_run = first_steps(t1);
      BOOST_TEST(long_run.size() == short_run.size());
      double t_difference = 0, y_difference = 0;
      for (std::size_t i = 0; i < std::min(long_run.size(), short_run.size()); ++i) {
        t_difference = std::max(t_difference, std::abs(long_run[i].first - short_run[i].first));
        y_difference = std::max(y_difference, (long_run[i].second - short_run[i].second).cwiseAbs().maxCoeff());
      }
      BOOST_TEST_MESSAGE("t1 = " << t1 << ": 200 steps to t = " << long_run.back().first << ", max |t - t_short| = "
                                  << t_difference << ", max |y - y_short| = " << y_difference);
      BOOST_TEST(t_difference <= 1e-12 * t_last);
      BOOST_TEST(y_difference <= 1e-12);
    }
  }
  // With an initial step, the long run starts as well.
  BOOST_TEST(first_steps(1e7, 1e-6).size() == 201u);
}

BOOST_AUTO_TEST_CASE(an_interval_too_short_to_start_on_is_refused_before_idas_starts) {
  const DaeSystem system{CraneDae{}};
  const auto s = CraneDae{}.initial_state();
  const ea::Vector y0 = system.initial_state(s.q, s.v);
  for (const auto form : {sun::DaeForm::Index1, sun::DaeForm::Ggl}) {
    BOOST_TEST_CONTEXT((form == sun::DaeForm::Ggl ? "ggl" : "index 1")) {
      sun::IdasOptions o;
      o.form = form;
      ea::Vector y = y0;
      ea::Audit audit;
      BOOST_CHECK_EXCEPTION(sun::integrate_idas(system, y, 0.0, 1e-300, ea::watch(system, audit), o),
                            ea::InvalidArgument, [](const ea::InvalidArgument& e) {
                              return e.what() == sun::adaptive_interval_problem(0.0, 1e-300) &&
                                     std::string(e.what()).find("too short") != std::string::npos;
                            });
      BOOST_TEST(audit.accepted_steps() == 0u);
      // Near the rule's bound and at 1e-6, IDAS starts and reaches the end; with an initial
      // step longer than the interval too.
      for (const double t1 : {1e-150, 1e-6}) {
        for (const double initial_step : {0.0, 1e-3}) {
          ea::Vector short_run = y0;
          o.initial_step = initial_step;
          const sun::IdasResult result = sun::integrate_idas(system, short_run, 0.0, t1, ea::NoObserver{}, o);
          BOOST_TEST(result.t_reached == t1);
          BOOST_TEST((short_run.head(8) - y0.head(8)).cwiseAbs().maxCoeff() < 1e-3);
        }
      }
    }
  }
}

// First-order systems on IDAS, as the residual Y' - F(t, Y): the crane in Lagrange's form
// against CVODES, and crane-dae in Maggi's form against its multiplier form on IDAS.
BOOST_AUTO_TEST_CASE(first_order_systems_run_on_idas_as_explicit_residuals) {
  const ea::LagrangeSystem<Crane> crane{Crane{}};
  const auto s = Crane{}.initial_state();
  for (const sun::ZMode mode : {sun::ZMode::State, sun::ZMode::Quadrature}) {
    ea::Vector y = crane.initial_state(s.q, s.v);
    ea::Audit audit;
    sun::IdasOptions o;
    o.rtol = 1e-10;
    o.atol = 1e-12;
    o.z_mode = mode;
    const sun::IdasResult result = sun::integrate_idas(crane, y, 0.0, 5.0, ea::watch(crane, audit), o);
    BOOST_TEST(result.t_reached == 5.0);
    BOOST_TEST((y.head(4) - crane_reference().head(4)).norm() < 1e-6);
    BOOST_TEST(audit.relative_drift() < 1e-6);
    BOOST_CHECK(audit.verdict() == ea::Verdict::Pass);
  }
  const CraneDae model;
  const auto d = model.initial_state();
  const ea::MaggiSystem<CraneDae> maggi(model, {0, 3});
  ea::Vector y_maggi = maggi.initial_state(d.q, d.v);
  ea::Audit maggi_audit;
  sun::IdasOptions o;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  sun::integrate_idas(maggi, y_maggi, 0.0, 5.0, ea::watch(maggi, maggi_audit), o);
  const IdasRun multipliers = run_idas(tight(sun::DaeForm::Index1));
  BOOST_TEST((y_maggi.head(4) - multipliers.y.head(4)).norm() < 1e-6);
  BOOST_TEST(y_maggi[0] == crane_reference()[0], boost::test_tools::tolerance(1e-6));
  BOOST_TEST(maggi_audit.relative_drift() < 1e-6);
  BOOST_TEST(maggi_audit.max_constraint_drift()->velocity < 1e-12);  // ψ = 0 by construction
}
