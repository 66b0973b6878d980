// Maggi's equations against the multiplier form of the same models: the same motion, the same
// multipliers and the same C on crane-dae (scleronomic) and on the hoisted pendulum, whose
// rheonomic constraint does work; on every fixed-step method; a dependent block that turns
// singular ends the run naming the time; the drift of Φ and ψ.
#include <cmath>
#include <numbers>
#include <string>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane_dae.hpp"
#include "hoisted_pendulum.hpp"

namespace ea = energy_audit;
using energy_audit::examples::CraneDae;
using energy_audit::testing::HoistedPendulum;
using energy_audit::testing::HoistedPendulumKinematic;
using boost::test_tools::tolerance;

namespace {

struct Run {
  ea::Vector y;
  ea::Audit audit;
  ea::IntegrationResult result;
};

template <class System>
Run run(const System& system, ea::Vector y, ea::FixedStepMethod method, double h, double t_end) {
  Run r{std::move(y), ea::Audit{}, {}};
  ea::FixedStepper stepper(method);
  r.result = ea::integrate_const(stepper, system, r.y, 0.0, t_end, h, ea::watch(system, r.audit));
  return r;
}

/// Both forms of one model with rk4: q(t), v(t), λ(t) (the rows' multiplier columns) and C(t).
template <class Model>
void check_same_as_multipliers(const Model& model, const std::array<int, Model::dofs - Model::constraints>& independent,
                               const typename Model::template Coordinates<double>& q0,
                               const typename Model::template Coordinates<double>& v0, double t_end) {
  constexpr int n = Model::dofs, k = n - Model::constraints;
  const ea::MultiplierSystem<Model> multipliers(model);
  const ea::MaggiSystem<Model> maggi(model, independent);
  const auto rk4 = ea::FixedStepMethod::of<ea::methods::Rk4>();
  const Run a = run(multipliers, multipliers.initial_state(q0, v0), rk4, 1e-3, t_end);
  const Run b = run(maggi, maggi.initial_state(q0, v0), rk4, 1e-3, t_end);
  BOOST_TEST_REQUIRE(a.result.finished());
  BOOST_TEST_REQUIRE(b.result.finished());
  const typename Model::template Coordinates<double> q = b.y.template head<n>();
  const ea::VectorN<double, k> u = b.y.template segment<k>(n);
  BOOST_TEST((a.y.template head<n>() - q).norm() < 1e-8);
  BOOST_TEST((a.y.template segment<n>(n) - maggi.velocities(q, u, t_end)).norm() < 1e-7);
  BOOST_TEST(b.audit.last_row().back() < 1e-12);  // ‖ψ‖: v = S u + s keeps ψ = 0 by construction
  const ea::HistoryLayout la = a.audit.layout(), lb = b.audit.layout();
  double worst_lambda = 0, worst_C = 0, lambda_scale = 0;
  for (std::size_t r = 0; r < a.audit.history().rows(); r += 50) {
    const auto ra = a.audit.history().row(r), rb = b.audit.history().row(r);
    for (std::size_t j = 0; j < la.multipliers; ++j) {
      worst_lambda = std::max(worst_lambda, std::abs(ra[la.multiplier_offset() + j] - rb[lb.multiplier_offset() + j]));
      lambda_scale = std::max(lambda_scale, std::abs(ra[la.multiplier_offset() + j]));
    }
    worst_C = std::max(worst_C, std::abs(ra[la.multiplier_offset() - 1] - rb[lb.multiplier_offset() - 1]));
  }
  BOOST_TEST_MESSAGE("max |lambda difference| " << worst_lambda << " of " << lambda_scale << ", max |C difference| "
                                                 << worst_C);
  BOOST_TEST(worst_lambda < 1e-7 * lambda_scale);
  BOOST_TEST(worst_C < 1e-8);
  BOOST_TEST(b.audit.relative_drift() < 1e-8);
}

}  // namespace

BOOST_AUTO_TEST_CASE(maggi_and_multipliers_agree_on_crane_dae) {
  const CraneDae model;
  const auto start = model.initial_state();
  check_same_as_multipliers(model, {0, 3}, start.q, start.v, 5.0);  // independent: x1, phi
}

BOOST_AUTO_TEST_CASE(maggi_and_multipliers_agree_on_a_rheonomic_constraint) {
  HoistedPendulum::Coordinates<double> q, v;
  HoistedPendulum{}.start(0.6, 0.4, q, v);
  check_same_as_multipliers(HoistedPendulum{}, {0}, q, v, 3.0);
  check_same_as_multipliers(HoistedPendulumKinematic{}, {0}, q, v, 3.0);
}

BOOST_AUTO_TEST_CASE(maggi_runs_on_every_fixed_step_method_at_its_order) {
  const CraneDae model;
  const auto start = model.initial_state();
  const ea::MaggiSystem<CraneDae> maggi(model, {0, 3});
  for (const ea::FixedStepMethod method : ea::FixedStepMethod::all()) {
    BOOST_TEST_CONTEXT(method.info().name) {
      const double coarse = run(maggi, maggi.initial_state(start.q, start.v), method, 4e-3, 2.0).audit.relative_drift();
      const double fine = run(maggi, maggi.initial_state(start.q, start.v), method, 2e-3, 2.0).audit.relative_drift();
      BOOST_TEST_MESSAGE(method.info().name << ": delta_C " << coarse << " -> " << fine);
      BOOST_TEST(fine < coarse);  // δ_C falls with h on every method
    }
  }
}

// With x2 and y2 independent, the dependent block (x1, phi) is [[1, (l/2) sin phi], [0,
// -(l/2) cos phi]]: singular when the rod passes the vertical, which it does as it falls; with a
// threshold of 0.1 the run stops before.
BOOST_AUTO_TEST_CASE(a_singular_dependent_block_ends_the_run_naming_the_time) {
  const CraneDae model;
  const auto start = model.initial_state();
  const ea::MaggiSystem<CraneDae> maggi(model, {1, 2}, ea::EnergyFlow::Carried, 0.1);
  ea::Vector y = maggi.initial_state(start.q, start.v);
  ea::Audit audit;
  ea::FixedStepper stepper(ea::methods::Rk4{});
  try {
    ea::integrate_const(stepper, maggi, y, 0.0, 5.0, 1e-3, ea::watch(maggi, audit));
    BOOST_FAIL("the rod passes the vertical: G_D must turn singular");
  } catch (const ea::Error& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(std::string(e.what()).find("singular") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("t = ") != std::string::npos);
  }
  BOOST_TEST(audit.accepted_steps() > 1u);  // the history up to there is kept
  BOOST_TEST(audit.t_reached() > 0.0);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Error);
  // At the vertical itself the block is singular to round-off, whatever the threshold.
  CraneDae vertical;
  vertical.phi_0 = -std::numbers::pi / 2;
  const auto at_vertical = vertical.initial_state();
  const ea::MaggiSystem<CraneDae> default_threshold(vertical, {1, 2});
  ea::Vector y_vertical = default_threshold.initial_state(at_vertical.q, at_vertical.v);
  BOOST_CHECK_THROW(ea::integrate_const(stepper, default_threshold, y_vertical, 0.0, 1.0, 1e-3), ea::Error);
  BOOST_CHECK_THROW(ea::MaggiSystem<CraneDae>(model, {0, 0}), ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::MaggiSystem<CraneDae>(model, {0, 4}), ea::InvalidArgument);
}
