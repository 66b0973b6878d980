// Multiplier models on the fixed-step methods (index-1 form): crane-dae against crane, its
// multipliers against eq. 19, Baumgarte against drift, and singular constraint Jacobians.
#include <cmath>
#include <string>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane.hpp"
#include "crane_dae.hpp"
#include "hoisted_pendulum.hpp"
#include "singular_constraint.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Crane;
using energy_audit::examples::CraneDae;

namespace {

struct Trace {
  ea::Audit audit;
  ea::Vector y;
};

template <class System>
Trace run(const System& system, const ea::Vector& y0, ea::FixedStepMethod method, double h, double t_end) {
  Trace trace{ea::Audit{}, y0};
  ea::FixedStepper stepper(method);
  ea::integrate_const(stepper, system, trace.y, 0.0, t_end, h, ea::watch(system, trace.audit));
  return trace;
}

ea::Vector crane_start(const ea::LagrangeSystem<Crane>& system) {
  const auto s = Crane{}.initial_state();
  return system.initial_state(s.q, s.v);
}
ea::Vector crane_dae_start(const ea::MultiplierSystem<CraneDae>& system) {
  const auto s = CraneDae{}.initial_state();
  return system.initial_state(s.q, s.v);
}

}  // namespace

BOOST_AUTO_TEST_CASE(initial_state_is_consistent) {
  const CraneDae model;
  const auto s = model.initial_state();
  BOOST_TEST(model.position_constraints(s.q, 0.0).norm() < 1e-15);
  BOOST_TEST(s.q[1] == std::cos(-M_PI / 6) / 2 - 0.5, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(crane_dae_reproduces_crane_on_every_method) {
  const ea::LagrangeSystem<Crane> crane{Crane{}};
  const ea::MultiplierSystem<CraneDae> dae{CraneDae{}};
  for (const auto method : {ea::FixedStepMethod::of<ea::methods::Rk4>(), ea::FixedStepMethod::of<ea::methods::Rkg>(), ea::FixedStepMethod::of<ea::methods::Rk2>(),
                            ea::FixedStepMethod::of<ea::methods::EulerCromer>()}) {
    const Trace a = run(crane, crane_start(crane), method, 1e-3, 5.0);
    const Trace b = run(dae, crane_dae_start(dae), method, 1e-3, 5.0);
    BOOST_TEST_CONTEXT(method.info().name) {
      // x1 and phi: the same discrete motion in two formulations, to round-off accumulated over 5000 steps.
      BOOST_TEST(std::abs(b.y[0] - a.y[0]) < 1e-9);
      BOOST_TEST(std::abs(b.y[3] - a.y[1]) < 1e-9);
      // C(t) on the stored rows (fourth-order methods, where the velocity drift is negligible): the
      // energies of the two formulations agree, and Z only adds the tiny constraint power -psi^T lambda.
      if (method.info().order < 4) continue;
      const auto& ha = a.audit.history();
      const auto& hb = b.audit.history();
      BOOST_TEST_REQUIRE(ha.rows() == hb.rows());
      const std::size_t ca = ha.layout().multiplier_offset() - 1, cb = hb.layout().multiplier_offset() - 1;
      double worst = 0;
      for (std::size_t r = 0; r < ha.rows(); r += 100) worst = std::max(worst, std::abs(ha.row(r)[ca] - hb.row(r)[cb]));
      BOOST_TEST(worst < 1e-7 * a.audit.energy_scale());
    }
  }
}

BOOST_AUTO_TEST_CASE(multipliers_match_the_constraint_forces_of_eq_19) {
  // Seed form: m2 x2'' + F_Ax = 0 and m2 y2'' + F_Ay = -m2 g, with x2'', y2'' from crane's eq. 19.
  const Crane crane;
  const CraneDae model;
  const ea::MultiplierSystem<CraneDae> dae{model};
  for (const double phi : {-M_PI / 6, -1.2, 0.4}) {
    for (const double phi_dot : {0.0, 1.5}) {
      const Crane::Coordinates<double> q(0.3, phi), v(-0.7, phi_dot);
      const auto a = crane.accelerations(q, v, 0.0);
      const double l = crane.l, m2 = crane.m2;
      const double x2_ddot = -(l / 2) * (std::sin(phi) * a[1] + std::cos(phi) * phi_dot * phi_dot) - a[0];
      const double y2_ddot = (l / 2) * (std::cos(phi) * a[1] - std::sin(phi) * phi_dot * phi_dot);
      const CraneDae::Coordinates<double> qd(0.3, (l / 2) * std::cos(phi) - 0.3, (l / 2) * std::sin(phi), phi);
      const CraneDae::Coordinates<double> vd(-0.7, -(l / 2) * std::sin(phi) * phi_dot + 0.7,
                                             (l / 2) * std::cos(phi) * phi_dot, phi_dot);
      ea::Vector y = dae.initial_state(qd, vd);
      const ea::EnergySample sample = dae.sample(y, 0.0);
      BOOST_TEST((*sample.multipliers)[0] == -m2 * x2_ddot, boost::test_tools::tolerance(1e-10));
      BOOST_TEST((*sample.multipliers)[1] == -m2 * crane.g - m2 * y2_ddot, boost::test_tools::tolerance(1e-10));
      BOOST_TEST(dae.rates(qd, vd, 0.0).a[0] == a[0], boost::test_tools::tolerance(1e-10));
    }
  }
}

BOOST_AUTO_TEST_CASE(baumgarte_bounds_the_position_drift_that_grows_without_it) {
  const ea::MultiplierSystem<CraneDae> plain{CraneDae{}};
  const ea::MultiplierSystem<CraneDae> stabilized{CraneDae{}, ea::Baumgarte{10.0, 10.0}};
  const double h = 1e-2;
  const double drift_10 = run(plain, crane_dae_start(plain), ea::FixedStepMethod::of<ea::methods::Rk4>(), h, 10.0)
                              .audit.max_constraint_drift()->position;
  const double drift_50 = run(plain, crane_dae_start(plain), ea::FixedStepMethod::of<ea::methods::Rk4>(), h, 50.0)
                              .audit.max_constraint_drift()->position;
  const Trace kept = run(stabilized, crane_dae_start(stabilized), ea::FixedStepMethod::of<ea::methods::Rk4>(), h, 50.0);
  BOOST_TEST_MESSAGE("|Phi| without: " << drift_10 << " (10 s), " << drift_50 << " (50 s); with Baumgarte: "
                                       << kept.audit.max_constraint_drift()->position);
  BOOST_TEST(drift_50 > 5 * drift_10);  // grows
  BOOST_TEST(kept.audit.max_constraint_drift()->position < drift_50 / 100);
  BOOST_TEST(kept.audit.max_constraint_drift()->position < 1e-5);
  BOOST_TEST(kept.audit.passed());
}

BOOST_AUTO_TEST_CASE(singular_constraint_jacobian_is_a_clear_error_with_history_kept) {
  using energy_audit::testing::DuplicatedConstraint;
  using energy_audit::testing::SingularConstraint;
  {
    const ea::MultiplierSystem<SingularConstraint> system{SingularConstraint{}};
    ea::Vector y = system.initial_state({0.0, 0.0}, {1.0, 0.0});
    ea::Audit audit;
    ea::FixedStepper rk4(ea::methods::Rk4{});
    BOOST_CHECK_EXCEPTION(ea::integrate_const(rk4, system, y, 0.0, 1.0, 0.01, ea::watch(system, audit)), ea::Error,
                          [](const ea::Error& e) {
                            const std::string what = e.what();
                            return what.find("singular") != std::string::npos && what.find("t = 0.5") != std::string::npos;
                          });
    BOOST_TEST(audit.last_row()[0] == 0.49, boost::test_tools::tolerance(1e-12));  // kept up to the last good step
  }
  {
    const ea::MultiplierSystem<DuplicatedConstraint> system{DuplicatedConstraint{}};
    ea::Vector y = system.initial_state({0.0, 0.0}, {1.0, 0.0});
    ea::FixedStepper rk4(ea::methods::Rk4{});
    BOOST_CHECK_EXCEPTION(ea::integrate_const(rk4, system, y, 0.0, 1.0, 0.01), ea::Error, [](const ea::Error& e) {
      return std::string(e.what()).find("rank 1 of 2") != std::string::npos;
    });
  }
}

BOOST_AUTO_TEST_CASE(rheonomic_constraint_power_enters_z) {
  // The point mass held at y = 0 by Phi = (t - 0.5) y on [0, 0.4]: T and V are constant, and the
  // constraint does no work on the exact motion; Z stays ~0 and C constant.
  using energy_audit::testing::SingularConstraint;
  const ea::MultiplierSystem<SingularConstraint> system{SingularConstraint{}};
  const Trace trace = run(system, system.initial_state({0.0, 0.0}, {1.0, 0.0}), ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3, 0.4);
  BOOST_TEST(std::abs(trace.y[4]) < 1e-12);
  BOOST_TEST(trace.audit.relative_drift() < 1e-12);
}

BOOST_AUTO_TEST_CASE(driven_rope_work_enters_z_and_c_stays_constant_while_e_does_not) {
  using energy_audit::testing::HoistedPendulum;
  using energy_audit::testing::HoistedPendulumKinematic;
  const ea::MultiplierSystem<HoistedPendulum> holonomic{HoistedPendulum{}};
  const ea::MultiplierSystem<HoistedPendulumKinematic> kinematic{HoistedPendulumKinematic{}};
  HoistedPendulum::Coordinates<double> q, v;
  HoistedPendulum{}.start(0.6, 0.0, q, v);

  double max_energy_change = 0;
  ea::Audit audit;
  ea::Vector y = holonomic.initial_state(q, v);
  ea::FixedStepper rk4(ea::methods::Rk4{});
  const double E0 = holonomic.sample(y, 0.0).energy.E();
  ea::integrate_const(rk4, holonomic, y, 0.0, 5.0, 1e-3, [&](const ea::ConstVectorRef& state, double t) {
    const ea::EnergySample sample = holonomic.sample(state, t);
    audit.record(sample);
    max_energy_change = std::max(max_energy_change, std::abs(sample.energy.E() - E0));
  });
  BOOST_TEST(audit.relative_drift() < 1e-8);
  BOOST_TEST(max_energy_change / audit.energy_scale() > 1e-2);  // the hoist pumps energy in and out
  BOOST_TEST(std::abs(y[4]) / audit.energy_scale() > 1e-3);    // and Z carries it

  // The same constraint given in velocity form: the same motion, the same Z.
  const Trace k = run(kinematic, kinematic.initial_state(q, v), ea::FixedStepMethod::of<ea::methods::Rk4>(), 1e-3, 5.0);
  BOOST_TEST((k.y - y).cwiseAbs().maxCoeff() < 1e-9);
  BOOST_TEST(k.audit.relative_drift() < 1e-8);
  BOOST_TEST(std::isnan(k.audit.max_constraint_drift()->position));  // no Phi for a kinematic constraint
  BOOST_TEST(k.audit.max_constraint_drift()->velocity < 1e-9);
}
