// The constraint terms G, g, ψ = G v + g, Ġ v + ġ and Φ by automatic differentiation, against
// hand derivations: the hoisted pendulum's driven rope in its holonomic and kinematic forms
// (rheonomic: g, ġ and the t-derivatives of G are non-zero), crane-dae's pin (scleronomic,
// trigonometric) and a constraint whose G depends on t. Central differences of Φ over double
// along the motion (q + s v, t + s) are a second check that needs no derivation at all.
// States are generic, on the constraints or not: the terms are defined everywhere.
#include <cmath>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/constraint_terms.hpp>

#include "crane_dae.hpp"
#include "hoisted_pendulum.hpp"
#include "singular_constraint.hpp"

namespace ea = energy_audit;
using energy_audit::examples::CraneDae;
using energy_audit::testing::HoistedPendulum;
using energy_audit::testing::HoistedPendulumKinematic;
using energy_audit::testing::SingularConstraint;
using boost::test_tools::tolerance;

namespace {

constexpr double round_off = 1e-14;

template <int n>
struct State {
  ea::VectorN<double, n> q, v;
  double t;
};

const std::vector<State<2>> planar_states{
    {{0.8, -0.6}, {0.3, 1.1}, 0.0}, {{-0.4, -0.9}, {-1.7, 0.2}, 0.37}, {{1.3, 0.5}, {0.0, -2.4}, 2.9}};

/// G, ψ and Ġ v + ġ of a holonomic Φ by central differences of Φ over double alone: G column j
/// from Φ(q ± h e_j, t), ψ = dΦ/ds and Ġ v + ġ = d²Φ/ds² along the motion (q + s v, t + s).
template <class M>
ea::ConstraintTerms<M::dofs, M::constraints> central_differences(const M& model, const State<M::dofs>& s) {
  constexpr int n = M::dofs;
  const double h = 1e-4;
  ea::ConstraintTerms<n, M::constraints> d;
  for (int j = 0; j < n; ++j) {
    ea::VectorN<double, n> plus = s.q, minus = s.q;
    plus[j] += h;
    minus[j] -= h;
    d.G.col(j) = (model.position_constraints(plus, s.t) - model.position_constraints(minus, s.t)) / (2 * h);
  }
  const ea::VectorN<double, n> ahead = s.q + h * s.v, behind = s.q - h * s.v;
  const auto Phi_ahead = model.position_constraints(ahead, s.t + h);
  const auto Phi_behind = model.position_constraints(behind, s.t - h);
  d.Phi = model.position_constraints(s.q, s.t);
  d.psi = (Phi_ahead - Phi_behind) / (2 * h);
  d.bias = (Phi_ahead - 2 * d.Phi + Phi_behind) / (h * h);
  d.g = d.psi - d.G * s.v;
  return d;
}

template <int n, int m>
void check_against_differences(const ea::ConstraintTerms<n, m>& c, const ea::ConstraintTerms<n, m>& d) {
  BOOST_TEST((c.G - d.G).cwiseAbs().maxCoeff() < 1e-7);
  BOOST_TEST((c.psi - d.psi).cwiseAbs().maxCoeff() < 1e-7);
  BOOST_TEST((c.g - d.g).cwiseAbs().maxCoeff() < 1e-7);
  BOOST_TEST((c.bias - d.bias).cwiseAbs().maxCoeff() < 1e-5);
  BOOST_TEST((c.Phi - d.Phi).cwiseAbs().maxCoeff() == 0.0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(driven_rope_terms_match_the_hand_derivation_in_both_forms) {
  // Φ = (x² + y² − l²) / 2 with l = L0 + A sin ωt: G = [x, y], g = −l l̇, ψ = x ẋ + y ẏ − l l̇,
  // Ġ v + ġ = ẋ² + ẏ² − l̇² − l l̈ with l̇ = A ω cos ωt, l̈ = −A ω² sin ωt.
  const HoistedPendulum holonomic;
  const HoistedPendulumKinematic kinematic;
  for (const State<2>& s : planar_states) {
    BOOST_TEST_CONTEXT("q = (" << s.q.transpose() << "), v = (" << s.v.transpose() << "), t = " << s.t) {
      const double x = s.q[0], y = s.q[1], vx = s.v[0], vy = s.v[1];
      const double l = holonomic.L0 + holonomic.A * std::sin(holonomic.w * s.t);
      const double l_dot = holonomic.A * holonomic.w * std::cos(holonomic.w * s.t);
      const double l_ddot = -holonomic.A * holonomic.w * holonomic.w * std::sin(holonomic.w * s.t);
      const double g = -l * l_dot, bias = vx * vx + vy * vy - l_dot * l_dot - l * l_ddot;

      const ea::ConstraintTerms<2, 1> c = ea::constraint_terms(holonomic, s.q, s.v, s.t);
      BOOST_TEST(c.G(0, 0) == x, tolerance(round_off));
      BOOST_TEST(c.G(0, 1) == y, tolerance(round_off));
      BOOST_TEST(c.g[0] == g, tolerance(round_off));
      BOOST_TEST(c.psi[0] == x * vx + y * vy + g, tolerance(round_off));
      BOOST_TEST(c.bias[0] == bias, tolerance(round_off));
      BOOST_TEST(c.Phi[0] == 0.5 * (x * x + y * y - l * l), tolerance(round_off));
      check_against_differences(c, central_differences(holonomic, s));

      // ψ = x ẋ + y ẏ − l l̇ given directly: the same G, g, ψ and Ġ v + ġ, and no Φ.
      const ea::ConstraintTerms<2, 1> k = ea::constraint_terms(kinematic, s.q, s.v, s.t);
      BOOST_TEST(k.G(0, 0) == x, tolerance(round_off));
      BOOST_TEST(k.G(0, 1) == y, tolerance(round_off));
      BOOST_TEST(k.g[0] == g, tolerance(round_off));
      BOOST_TEST(k.psi[0] == c.psi[0], tolerance(round_off));
      BOOST_TEST(k.bias[0] == bias, tolerance(round_off));
      BOOST_TEST(k.Phi[0] == 0.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(crane_dae_pin_terms_match_the_hand_derivation) {
  // Φ = [x1 + x2 − (l/2) cos φ, y2 − (l/2) sin φ]: G = [1 1 0 (l/2) sin φ; 0 0 1 −(l/2) cos φ],
  // g = 0, Ġ v + ġ = [(l/2) cos φ φ̇², (l/2) sin φ φ̇²].
  const CraneDae model;
  const double half = model.l / 2;
  const std::vector<State<4>> states{{{0.5, -0.07, -0.25, -0.52}, {0.0, 0.0, 0.0, 0.0}, 0.0},
                                     {{0.3, 0.1, -0.4, -0.7}, {0.8, -1.2, 0.4, -1.3}, 1.7},
                                     {{-0.2, 0.6, 0.45, 2.4}, {-2.0, 0.3, -0.9, 3.1}, 4.2}};
  for (const State<4>& s : states) {
    BOOST_TEST_CONTEXT("q = (" << s.q.transpose() << "), v = (" << s.v.transpose() << ")") {
      const double phi = s.q[3], phi_dot = s.v[3];
      Eigen::Matrix<double, 2, 4> G;
      G << 1, 1, 0, half * std::sin(phi), 0, 0, 1, -half * std::cos(phi);
      const ea::VectorN<double, 2> bias(half * std::cos(phi) * phi_dot * phi_dot,
                                        half * std::sin(phi) * phi_dot * phi_dot);
      const ea::VectorN<double, 2> Phi(s.q[0] + s.q[1] - half * std::cos(phi), s.q[2] - half * std::sin(phi));

      const ea::ConstraintTerms<4, 2> c = ea::constraint_terms(model, s.q, s.v, s.t);
      BOOST_TEST((c.G - G).cwiseAbs().maxCoeff() <= round_off);
      BOOST_TEST(c.g.cwiseAbs().maxCoeff() <= round_off);
      BOOST_TEST((c.psi - G * s.v).cwiseAbs().maxCoeff() <= round_off);
      BOOST_TEST((c.bias - bias).cwiseAbs().maxCoeff() <= round_off);
      BOOST_TEST((c.Phi - Phi).cwiseAbs().maxCoeff() <= round_off);
      check_against_differences(c, central_differences(model, s));
    }
  }
}

BOOST_AUTO_TEST_CASE(time_dependent_jacobian_gives_the_mixed_terms) {
  // Φ = (1/2 − t) y before t = 1/2: G = [0, 1/2 − t] and g = −y, so Ġ v = −ẏ and ġ = −ẏ:
  // Ġ v + ġ = −2 ẏ, from the mixed derivatives Φ_qt alone.
  const SingularConstraint model;
  for (const State<2>& s : {State<2>{{0.3, -0.2}, {1.0, 0.7}, 0.1}, State<2>{{-1.0, 0.4}, {0.5, -1.9}, 0.45}}) {
    BOOST_TEST_CONTEXT("t = " << s.t) {
      const ea::ConstraintTerms<2, 1> c = ea::constraint_terms(model, s.q, s.v, s.t);
      BOOST_TEST(c.G(0, 0) == 0.0);
      BOOST_TEST(c.G(0, 1) == 0.5 - s.t, tolerance(round_off));
      BOOST_TEST(c.g[0] == -s.q[1], tolerance(round_off));
      BOOST_TEST(c.psi[0] == (0.5 - s.t) * s.v[1] - s.q[1], tolerance(round_off));
      BOOST_TEST(c.bias[0] == -2 * s.v[1], tolerance(round_off));
      BOOST_TEST(c.Phi[0] == (0.5 - s.t) * s.q[1], tolerance(round_off));
    }
  }
}
