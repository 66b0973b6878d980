// The Legendre transform (momentum_map, MomentumMap::momenta / velocities, lagrangian_gradient)
// on tiny models whose T is written in Cartesian velocities, against hand derivations in the
// generalized coordinates: the double pendulum's mass matrix [(m1+m2) l1², m2 l1 l2 cos(θ1−θ2); ·,
// m2 l2²] and its inverse by Cramer's rule, a particle in a rotating frame (constant M, offset
// b = m ω (−y, x)) against the textbook H = |p|²/2m − ω (x p_y − y p_x) + V, and a hoisted
// pendulum on a moving carriage (M and b depending on t). ∂L/∂q at fixed v is checked against
// closed forms and against −∂H/∂q at fixed p by central differences of H written by hand. Then
// the documented errors: a mass matrix that is singular or negative definite is an Error naming t,
// a non-finite M or p gives NaN velocities.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/error.hpp>
#include <energy_audit/legendre_transform.hpp>

#include "double_pendulum.hpp"
#include "error_message.hpp"
#include "tiny_model_bases.hpp"

namespace ea = energy_audit;
using boost::test_tools::tolerance;
using ea::testing::DoublePendulum;  // T from the masses' Cartesian velocities; hand M and H
using ea::testing::message_is;

namespace {

constexpr double round_off = 1e-13;

/// A particle in a plane rotating at ω, with a spring k to the axis: T = ½ m |v_inertial|² with
/// v_inertial = (ẋ − ω y, ẏ + ω x) in the rotating coordinates.
struct RotatingFrameParticle : ea::testing::Unforced<2> {
  double m = 0.8, w = 1.7, k = 3.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S&) const {
    const S u = v[0] - w * q[1], z = v[1] + w * q[0];
    return 0.5 * m * (u * u + z * z);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return 0.5 * k * (q[0] * q[0] + q[1] * q[1]);
  }
};

/// A pendulum whose rope is hoisted, l = L0 + A sin(w t), hanging from a carriage at
/// xs = B sin(u t): M = m l², b = m l ẋs cos θ (the l̇ terms cancel).
struct HoistedCarriagePendulum : ea::testing::Unforced<1> {
  double m = 1.3, g = 9.81, L0 = 1.0, A = 0.25, w = 1.5, B = 0.4, u = 2.2;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    using std::cos, std::sin;
    const S l = L0 + A * sin(w * t), l_dot = A * w * cos(w * t), xs_dot = B * u * cos(u * t);
    const S x_dot = xs_dot + l_dot * sin(q[0]) + l * cos(q[0]) * v[0];
    const S y_dot = -l_dot * cos(q[0]) + l * sin(q[0]) * v[0];
    return 0.5 * m * (x_dot * x_dot + y_dot * y_dot);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::cos, std::sin;
    return -m * g * (L0 + A * sin(w * t)) * cos(q[0]);
  }
};

/// T = ½ s (v₀ + v₁)²: M = s [1 1; 1 1], singular for any s and negative semi-definite for s < 0.
struct Degenerate : ea::testing::KineticOnly<2> {
  double s = 1.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * s * (v[0] + v[1]) * (v[0] + v[1]);
  }
};

/// T = −½ (v₀² + v₁²): M = −I, negative definite.
struct NegativeMass : ea::testing::KineticOnly<2> {
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return -0.5 * (v[0] * v[0] + v[1] * v[1]);
  }
};

const std::vector<Eigen::Vector2d> planar_qs{{0.0, 0.0}, {0.4, -1.1}, {2.7, 0.9}, {-1.3, -1.3}};
const std::vector<Eigen::Vector2d> planar_vs{{0.0, 0.0}, {1.5, -0.3}, {-2.2, 3.1}};

}  // namespace

BOOST_AUTO_TEST_CASE(double_pendulum_momenta_match_the_hand_mass_matrix) {
  const DoublePendulum model;
  for (const Eigen::Vector2d& q : planar_qs) {
    BOOST_TEST_CONTEXT("q = (" << q.transpose() << ")") {
      const ea::MomentumMap<2> map = ea::momentum_map(model, q, 0.37);
      const Eigen::Matrix2d M = model.mass(q);
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) BOOST_TEST(map.mass(i, j) == M(i, j), tolerance(round_off));
      }
      BOOST_TEST(map.offset.norm() == 0.0);  // T homogeneous quadratic in v
      for (const Eigen::Vector2d& v : planar_vs) {
        BOOST_TEST_CONTEXT("v = (" << v.transpose() << ")") {
          const Eigen::Vector2d p = map.momenta(v);
          // p = ∂T/∂v by hand: p1 = (m1 + m2) l1² θ1' + m2 l1 l2 cos(θ1 − θ2) θ2', and p2 alike.
          BOOST_TEST(p[0] + 1.0 == M(0, 0) * v[0] + M(0, 1) * v[1] + 1.0, tolerance(round_off));
          BOOST_TEST(p[1] + 1.0 == M(1, 0) * v[0] + M(1, 1) * v[1] + 1.0, tolerance(round_off));
          // Back to v through the transform's own inverse.
          const Eigen::Vector2d back = map.velocities(p, 0.37);
          BOOST_TEST((back - v).cwiseAbs().maxCoeff() <= 1e-13 * (1.0 + v.norm()));
        }
      }
      // v = M⁻¹ p by Cramer's rule for a p not made by momenta().
      const Eigen::Vector2d p(0.9, -0.35);
      const double det = M(0, 0) * M(1, 1) - M(0, 1) * M(1, 0);
      const Eigen::Vector2d v = map.velocities(p, 0.0);
      BOOST_TEST(v[0] == (M(1, 1) * p[0] - M(0, 1) * p[1]) / det, tolerance(round_off));
      BOOST_TEST(v[1] == (M(0, 0) * p[1] - M(1, 0) * p[0]) / det, tolerance(round_off));
    }
  }
}

BOOST_AUTO_TEST_CASE(double_pendulum_lagrangian_gradient_matches_closed_form_and_minus_dH_dq) {
  const DoublePendulum model;
  const double c = model.m2 * model.l1 * model.l2;
  for (const Eigen::Vector2d& q : planar_qs) {
    for (const Eigen::Vector2d& v : planar_vs) {
      BOOST_TEST_CONTEXT("q = (" << q.transpose() << "), v = (" << v.transpose() << ")") {
        // ∂L/∂θ1 = −c sin(θ1 − θ2) θ1' θ2' − (m1 + m2) g l1 sin θ1,
        // ∂L/∂θ2 = +c sin(θ1 − θ2) θ1' θ2' − m2 g l2 sin θ2.
        const double coupling = c * std::sin(q[0] - q[1]) * v[0] * v[1];
        const Eigen::Vector2d dL = ea::lagrangian_gradient(model, q, v, 0.0);
        BOOST_TEST(dL[0] + 1.0 == -coupling - (model.m1 + model.m2) * model.g * model.l1 * std::sin(q[0]) + 1.0,
                   tolerance(round_off));
        BOOST_TEST(dL[1] + 1.0 == coupling - model.m2 * model.g * model.l2 * std::sin(q[1]) + 1.0,
                   tolerance(round_off));
        // The Legendre transform's identity ∂L/∂q|v = −∂H/∂q|p, H written by hand.
        const Eigen::Vector2d p = model.mass(q) * v;
        const double h = 1e-5;
        for (int j = 0; j < 2; ++j) {
          Eigen::Vector2d plus = q, minus = q;
          plus[j] += h;
          minus[j] -= h;
          const double dH = (model.hamiltonian(plus, p) - model.hamiltonian(minus, p)) / (2 * h);
          BOOST_TEST(std::abs(dL[j] + dH) <= 1e-8 * (1.0 + std::abs(dH)));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(rotating_frame_has_an_offset_and_the_textbook_hamiltonian) {
  // M = m I, b = ∂T/∂v at v = 0 = m ω (−y, x); H = |p|²/2m − ω (x p_y − y p_x) + ½ k |q|², so
  // −∂H/∂x = ω p_y − k x and −∂H/∂y = −ω p_x − k y at fixed p.
  const RotatingFrameParticle model;
  for (const Eigen::Vector2d& q : planar_qs) {
    for (const Eigen::Vector2d& v : planar_vs) {
      BOOST_TEST_CONTEXT("q = (" << q.transpose() << "), v = (" << v.transpose() << ")") {
        const ea::MomentumMap<2> map = ea::momentum_map(model, q, 1.0);
        BOOST_TEST(map.mass(0, 0) == model.m, tolerance(round_off));
        BOOST_TEST(map.mass(1, 1) == model.m, tolerance(round_off));
        BOOST_TEST(map.mass(0, 1) == 0.0);
        BOOST_TEST(map.mass(1, 0) == 0.0);
        BOOST_TEST(map.offset[0] + 1.0 == -model.m * model.w * q[1] + 1.0, tolerance(round_off));
        BOOST_TEST(map.offset[1] + 1.0 == model.m * model.w * q[0] + 1.0, tolerance(round_off));
        // p = m v_inertial.
        const Eigen::Vector2d p = map.momenta(v);
        BOOST_TEST(p[0] + 1.0 == model.m * (v[0] - model.w * q[1]) + 1.0, tolerance(round_off));
        BOOST_TEST(p[1] + 1.0 == model.m * (v[1] + model.w * q[0]) + 1.0, tolerance(round_off));
        const Eigen::Vector2d back = map.velocities(p, 1.0);
        BOOST_TEST((back - v).cwiseAbs().maxCoeff() <= 1e-13 * (1.0 + v.norm() + q.norm()));
        const Eigen::Vector2d dL = ea::lagrangian_gradient(model, q, v, 1.0);
        BOOST_TEST(dL[0] + 1.0 == model.w * p[1] - model.k * q[0] + 1.0, tolerance(round_off));
        BOOST_TEST(dL[1] + 1.0 == -model.w * p[0] - model.k * q[1] + 1.0, tolerance(round_off));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(time_dependent_mass_and_offset_follow_t) {
  const HoistedCarriagePendulum model;
  for (const double t : {0.0, 0.6, 1.9, 4.4}) {
    for (const double theta : {-0.8, 0.0, 0.5, 2.0}) {
      BOOST_TEST_CONTEXT("t = " << t << ", theta = " << theta) {
        const double l = model.L0 + model.A * std::sin(model.w * t);
        const double xs_dot = model.B * model.u * std::cos(model.u * t);
        const ea::MomentumMap<1> map = ea::momentum_map(model, ea::VectorN<double, 1>(theta), t);
        BOOST_TEST(map.mass(0, 0) == model.m * l * l, tolerance(round_off));
        BOOST_TEST(map.offset[0] + 1.0 == model.m * l * xs_dot * std::cos(theta) + 1.0, tolerance(round_off));
        const double v = -1.4;
        const double p = map.momenta(ea::VectorN<double, 1>(v))[0];
        BOOST_TEST(p + 1.0 == model.m * l * l * v + model.m * l * xs_dot * std::cos(theta) + 1.0,
                   tolerance(round_off));
        BOOST_TEST(map.velocities(ea::VectorN<double, 1>(p), t)[0] == v, tolerance(round_off));
        // ∂L/∂θ = m ẋs (l̇ cos θ − l sin θ θ') − m g l sin θ: of ∂T/∂θ only the products with ẋs
        // survive, the l̇² and l̇ l terms cancel.
        const double l_dot = model.A * model.w * std::cos(model.w * t);
        const double dL = ea::lagrangian_gradient(model, ea::VectorN<double, 1>(theta), ea::VectorN<double, 1>(v), t)[0];
        BOOST_TEST(dL + 1.0 == model.m * xs_dot * (l_dot * std::cos(theta) - l * std::sin(theta) * v) -
                                   model.m * model.g * l * std::sin(theta) + 1.0,
                   tolerance(round_off));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(mass_matrix_not_positive_definite_is_an_error_naming_t) {
  const Eigen::Vector2d q(0.2, -0.4), p(1.0, 0.5);
  const ea::MomentumMap<2> singular = ea::momentum_map(Degenerate{}, q, 0.0);
  BOOST_TEST(singular.mass(0, 0) == 1.0, tolerance(round_off));
  BOOST_TEST(singular.mass(0, 1) == 1.0, tolerance(round_off));
  BOOST_TEST(singular.mass(1, 1) == 1.0, tolerance(round_off));
  BOOST_CHECK_EXCEPTION(singular.velocities(p, 0.37), ea::Error,
                        message_is("mass matrix d2T/dv2 is not positive definite at t = 0.37"));
  const ea::MomentumMap<2> negative_semidefinite = ea::momentum_map(Degenerate{.s = -2.0}, q, 0.0);
  BOOST_CHECK_EXCEPTION(negative_semidefinite.velocities(p, 12.5), ea::Error,
                        message_is("mass matrix d2T/dv2 is not positive definite at t = 12.5"));
  const ea::MomentumMap<2> negative = ea::momentum_map(NegativeMass{}, q, 0.0);
  BOOST_TEST(negative.mass(0, 0) == -1.0, tolerance(round_off));
  BOOST_CHECK_EXCEPTION(negative.velocities(p, 1e-7), ea::Error,
                        message_is("mass matrix d2T/dv2 is not positive definite at t = 1e-07"));
  // momenta() needs no inverse: it is defined for these too.
  BOOST_TEST(singular.momenta(Eigen::Vector2d(1.0, 2.0))[1] == 3.0, tolerance(round_off));
}

BOOST_AUTO_TEST_CASE(non_finite_mass_or_momenta_give_nan_velocities_not_an_error) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  const DoublePendulum model;
  const Eigen::Vector2d q(0.3, 0.1);
  const ea::MomentumMap<2> map = ea::momentum_map(model, q, 0.0);
  BOOST_TEST(map.velocities(Eigen::Vector2d(nan, 0.0), 0.0).array().isNaN().all());
  BOOST_TEST(map.velocities(Eigen::Vector2d(0.0, -inf), 0.0).array().isNaN().all());
  ea::MomentumMap<2> blown_up = map;
  blown_up.mass(1, 0) = inf;
  BOOST_TEST(blown_up.velocities(Eigen::Vector2d(1.0, 1.0), 0.0).array().isNaN().all());
  // Even with the rest of M not positive definite: NaN, which integrators take for divergence.
  blown_up.mass(0, 0) = -1.0;
  BOOST_TEST(blown_up.velocities(Eigen::Vector2d(1.0, 1.0), 0.0).array().isNaN().all());
}
