// Seed 000's container (examples/models/container.hpp) against references from outside the code
// under test: the load's velocity and angular velocity taken from Eigen's rotations by central
// differences for T, the closed-form equilibrium start (docs/models.md, the container), the static
// rope tension m g, and the multiplier form against Maggi's form of the same model. Its wrong twins
// fail where it passes; Maggi's form stops when the rope swings too near the horizontal.
#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Geometry>
#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/equation_error.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "container.hpp"

namespace ea = energy_audit;
using ea::examples::ContainerCircle;
using ea::examples::ContainerCircleWrong;
using ea::examples::ContainerLine;
using ea::examples::ContainerLineWrong;
using Coordinates = ContainerLine::Coordinates<double>;

namespace {

/// R = Rx(psi) Ry(theta) Rz(phi) from Eigen's rotations.
Eigen::Matrix3d rotation(const Coordinates& q) {
  using Eigen::AngleAxisd, Eigen::Vector3d;
  return (AngleAxisd(q[3], Vector3d::UnitX()) * AngleAxisd(q[4], Vector3d::UnitY()) *
          AngleAxisd(q[5], Vector3d::UnitZ()))
      .toRotationMatrix();
}

/// T from the load's motion, by central differences along v: v_C = d/dt (B + R ρ) and the body
/// angular velocity from Rᵀ Ṙ = [ω]×.
double kinetic_energy_by_differences(const ContainerLine& c, const Coordinates& q, const Coordinates& v) {
  const double step = 1e-6;
  const Eigen::Vector3d rho(c.xi, c.eta, c.zeta);
  const Coordinates later = q + step * v, earlier = q - step * v;
  const auto centre = [&](const Coordinates& at) -> Eigen::Vector3d { return at.head<3>() + rotation(at) * rho; };
  const Eigen::Vector3d v_C = (centre(later) - centre(earlier)) / (2 * step);
  const Eigen::Matrix3d W = rotation(q).transpose() * (rotation(later) - rotation(earlier)) / (2 * step);
  const Eigen::Vector3d omega(W(2, 1), W(0, 2), W(1, 0));
  return 0.5 * c.m * v_C.squaredNorm() +
         0.5 * (c.Jx * omega[0] * omega[0] + c.Jy * omega[1] * omega[1] + c.Jz * omega[2] * omega[2]);
}

struct Run {
  ea::Audit audit;
  ea::Vector y;
  double lambda_end = 0;      // λ at the end [N/m]
  double energy_change = 0;  // max |E − E(t0)| over the run [J]
};

/// rk4 at step h over the model's interval in the multiplier form or in Maggi's form.
template <class Model, bool maggi>
Run run(double h, double t_end = Model::interval.t_end) {
  const Model model;
  const auto start = model.initial_state();
  const auto system = [&] {
    if constexpr (maggi) {
      return ea::MaggiSystem<Model>(model, {0, 1, 3, 4, 5});
    } else {
      return ea::MultiplierSystem<Model>(model);
    }
  }();
  Run r;
  r.y = system.initial_state(start.q, start.v);
  ea::FixedStepper rk4(ea::methods::Rk4{});
  const double E0 = system.sample(r.y, Model::interval.t0).energy.E();
  ea::integrate_const(rk4, system, r.y, Model::interval.t0, t_end, h, [&](const ea::Vector& y, double t) {
    const ea::EnergySample s = system.sample(y, t);
    r.audit.record(s);
    r.energy_change = std::max(r.energy_change, std::abs(s.energy.E() - E0));
  });
  r.lambda_end = (*system.sample(r.y, t_end).multipliers)[0];
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(kinetic_energy_matches_the_motion_of_the_load) {
  const ContainerLine c;
  const Coordinates q(0.3, -0.2, -7.9, 0.4, -0.3, 1.1), v(0.5, -0.7, 0.2, 0.9, -1.3, 0.6);
  const double T = c.kinetic_energy(q, v, 0.0);
  BOOST_TEST(T == kinetic_energy_by_differences(c, q, v), boost::test_tools::tolerance(1e-8));
  // V: m g times the height of the centre of mass above its height at rest below z = 0.
  const Eigen::Vector3d centre = q.head<3>() + rotation(q) * Eigen::Vector3d(c.xi, c.eta, c.zeta);
  const double rest_height = -(c.l + std::sqrt(c.xi * c.xi + c.eta * c.eta + c.zeta * c.zeta));
  BOOST_TEST(c.potential_energy(q, 0.0) == c.m * c.g * (centre[2] - rest_height), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(the_start_is_the_static_equilibrium_below_the_rope_end) {
  const ContainerCircle c;
  const auto start = c.initial_state();
  const Eigen::Vector3d B = start.q.head<3>();
  const Eigen::Vector3d centre = B + rotation(start.q) * Eigen::Vector3d(c.xi, c.eta, c.zeta);
  BOOST_TEST(B[0] == 12.0);  // A(0) = (L, 0, 0), B = A − (0, 0, l)
  BOOST_TEST(B[2] == -8.0);
  BOOST_TEST(std::abs(centre[0] - B[0]) < 1e-15);  // C straight below B
  BOOST_TEST(std::abs(centre[1] - B[1]) < 1e-15);
  BOOST_TEST(centre[2] < B[2]);
  BOOST_TEST(std::abs(c.potential_energy(start.q, 0.0)) < 1e-9);  // V(t0) = 0: C(t0) = 0
  // The rope holds the load's weight and turns it about A, which moves at L ω across the rope:
  // tension N = −λ l = m (g + (L ω)² / l), with the centre of mass on the rope's line.
  const ea::MultiplierSystem<ContainerCircle> system(c);
  const ea::EnergySample s = system.sample(system.initial_state(start.q, start.v), 0.0);
  const double speed = c.L * c.omega;
  BOOST_TEST(-(*s.multipliers)[0] * c.l == c.m * (c.g + speed * speed / c.l), boost::test_tools::tolerance(1e-12));
  // On the line A starts at rest: N = m g.
  const ContainerLine line;
  const ea::MultiplierSystem<ContainerLine> line_system(line);
  const auto line_start = line.initial_state();
  const ea::EnergySample at_rest = line_system.sample(line_system.initial_state(line_start.q, line_start.v), 0.0);
  BOOST_TEST(-(*at_rest.multipliers)[0] * line.l == line.m * line.g, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(c_is_constant_while_the_drive_changes_e) {
  const Run r = run<ContainerCircle, true>(0.01);
  BOOST_TEST(r.audit.relative_drift() < 1e-9);
  BOOST_TEST(r.energy_change > 1e3);  // the jib does work on the load: E is not conserved
}

BOOST_AUTO_TEST_CASE(maggi_and_multipliers_agree_on_the_circle_at_rk4_order) {
  double previous_gap = 0;
  for (const double h : {0.01, 0.005}) {
    const Run a = run<ContainerCircle, false>(h), b = run<ContainerCircle, true>(h);
    const double gap = (a.y.head<6>() - b.y.head<6>()).cwiseAbs().maxCoeff();
    BOOST_TEST_MESSAGE("circle, h = " << h << ": max |q_multipliers - q_maggi| = " << gap);
    BOOST_TEST(gap < 3e-9);
    BOOST_TEST(std::abs(a.lambda_end - b.lambda_end) < 1e-9 * std::abs(b.lambda_end));
    if (previous_gap > 0) BOOST_TEST(previous_gap / gap > 8.0);  // both converge at fourth order
    previous_gap = gap;
  }
}

// The line's rope-end acceleration jumps at t1, t2, t3: there the two forms differ at first order
// in h, and they converge to each other as h falls.
BOOST_AUTO_TEST_CASE(maggi_and_multipliers_converge_together_on_the_line) {
  double previous_gap = 0;
  for (const double h : {0.01, 0.005, 0.0025}) {
    const Run a = run<ContainerLine, false>(h), b = run<ContainerLine, true>(h);
    const double gap = (a.y.head<6>() - b.y.head<6>()).cwiseAbs().maxCoeff();
    BOOST_TEST_MESSAGE("line, h = " << h << ": max |q_multipliers - q_maggi| = " << gap);
    BOOST_TEST(gap < 3e-4);
    if (previous_gap > 0) BOOST_TEST(previous_gap / gap == 2.0, boost::test_tools::tolerance(0.05));
    previous_gap = gap;
    // Before the first break both are smooth: they agree at rk4's accuracy.
    const Run early_a = run<ContainerLine, false>(h, 1.5), early_b = run<ContainerLine, true>(h, 1.5);
    BOOST_TEST((early_a.y.head<6>() - early_b.y.head<6>()).cwiseAbs().maxCoeff() < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(the_wrong_twins_fail_where_the_models_pass) {
  // Seed 000's method and step: Runge-Kutta-Gill at h = 0.04, Maggi's form.
  // The equation check sees the twins' accelerations and multipliers against Lagrange's
  // equations of T and V with the constraint force: the correct models are not checked (their
  // equations are derived), the twins fail it.
  const auto delta_C = [](auto model) {
    using Model = decltype(model);
    const ea::MaggiSystem<Model> system(model, {0, 1, 3, 4, 5});
    const auto start = model.initial_state();
    ea::Vector y = system.initial_state(start.q, start.v);
    ea::FixedStepper gill(ea::methods::Rkg{});
    ea::Audit audit;
    ea::integrate_const(gill, system, y, Model::interval.t0, Model::interval.t_end, 0.04, ea::watch(system, audit));
    const ea::EquationCheck& equations = audit.equation_check();
    if constexpr (ea::HasEquationError<Model>) {
      BOOST_TEST(equations.checked_steps() > 0u);
      BOOST_TEST(equations.relative_residual() > 1e-4);  // the threshold is 1e-8
      BOOST_TEST(!equations.passed());
    } else {
      BOOST_TEST(equations.checked_steps() == 0u);
    }
    return audit.relative_drift();
  };
  const double line = delta_C(ContainerLine{}), line_wrong = delta_C(ContainerLineWrong{});
  const double circle = delta_C(ContainerCircle{}), circle_wrong = delta_C(ContainerCircleWrong{});
  BOOST_TEST_MESSAGE("delta_C: line " << line << ", line-wrong " << line_wrong << ", circle " << circle
                                      << ", circle-wrong " << circle_wrong);
  BOOST_TEST(line < 1e-4);
  BOOST_TEST(circle < 1e-6);
  BOOST_TEST(line_wrong > 1e-3);
  BOOST_TEST(circle_wrong > 1e-2);
}

BOOST_AUTO_TEST_CASE(maggi_stops_when_the_rope_swings_near_the_horizontal) {
  ContainerLine fast;
  fast.a = 20.0;  // the rope end's acceleration swings the load up past |dz| = 0.1 l
  const ea::MaggiSystem<ContainerLine> system(fast, {0, 1, 3, 4, 5});
  const auto start = fast.initial_state();
  ea::Vector y = system.initial_state(start.q, start.v);
  ea::FixedStepper rk4(ea::methods::Rk4{});
  BOOST_CHECK_EXCEPTION(ea::integrate_const(rk4, system, y, 0.0, 20.0, 0.01, [](const ea::Vector&, double) {}),
                        ea::Error, [](const ea::Error& e) {
                          const std::string text = e.what();
                          return text.find("singular at t = 1.29") != std::string::npos &&
                                 text.find("below 0.1 of |G|") != std::string::npos;
                        });
}

// A rope end that accelerates at 20 m/s² and stops accelerating at t1 = 2 s throws the load
// ahead of it: the rope would have to push, λ turns positive, and the audit says when; the
// seed's own motion keeps the rope taut.
BOOST_AUTO_TEST_CASE(a_rope_that_would_go_slack_is_reported_with_its_time) {
  const auto first_sign_change = [](const ContainerLine& model) {
    const ea::MultiplierSystem<ContainerLine> system(model);
    const auto start = model.initial_state();
    ea::Vector y = system.initial_state(start.q, start.v);
    ea::FixedStepper rk4(ea::methods::Rk4{});
    ea::Audit audit;
    ea::integrate_const(rk4, system, y, 0.0, 20.0, 0.005, ea::watch(system, audit));
    // The first stored row with λ > 0, read off the history.
    const ea::History& history = audit.history();
    const std::size_t lambda = audit.layout().multiplier_offset();
    double first_positive = std::nan("");
    for (std::size_t i = 0; i < history.rows() && std::isnan(first_positive); ++i) {
      if (history.row(i)[lambda] > 0) first_positive = history.row(i)[0];
    }
    BOOST_TEST_REQUIRE(audit.multiplier_sign_changes().size() == 1u);
    const double reported = audit.multiplier_sign_changes()[0];
    BOOST_TEST((std::isnan(reported) == std::isnan(first_positive)));
    if (!std::isnan(reported)) BOOST_TEST(reported == first_positive);
    return reported;
  };
  ContainerLine hard;
  hard.a = 20.0;
  BOOST_TEST(first_sign_change(hard) == 2.0);
  BOOST_TEST(std::isnan(first_sign_change(ContainerLine{})));
}
