// SecondOrderTape and TapedScalar: gradient and Hessian of a closed-form function by reverse over
// forward mode and by the chain rule summed over the tape; the terms of Lagrange's equations of a
// model that uses every function a model may use, on the tape both ways against nested forward
// mode (an independent scheme, checked against closed forms in dual_test); constants leave the
// tape alone; comparisons, Eigen, limits and output; the energy gradient of a large model and the
// equation terms of a 20-link chain against their closed forms.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <boost/test/unit_test.hpp>

#include <Eigen/Core>

#include <energy_audit/energy_gradient.hpp>
#include <energy_audit/lagrange_equation_terms.hpp>
#include <energy_audit/lagrange_terms.hpp>
#include <energy_audit/second_order_tape.hpp>
#include <energy_audit/taped_scalar.hpp>
#include <energy_audit/types.hpp>

#include "pendulum_chain.hpp"

namespace ea = energy_audit;
using boost::test_tools::tolerance;
using ea::TapedScalar;

BOOST_AUTO_TEST_CASE(gradient_and_hessian_of_a_closed_form) {
  // f = x² y + sin(x z) + e^y / z
  const double x0 = 0.7, y0 = -0.4, z0 = 1.3;
  ea::SecondOrderTape tape;
  tape.clear(3);
  const TapedScalar x = TapedScalar::variable(tape, x0, true), y = TapedScalar::variable(tape, y0, true),
                    z = TapedScalar::variable(tape, z0, true);
  tape.set_tangent(x.node, 0, 1.0);
  tape.set_tangent(y.node, 1, 1.0);
  tape.set_tangent(z.node, 2, 1.0);
  using std::exp, std::sin;
  const TapedScalar f = x * x * y + sin(x * z) + exp(y) / z;
  BOOST_TEST(f.value == x0 * x0 * y0 + std::sin(x0 * z0) + std::exp(y0) / z0, tolerance(1e-15));
  tape.differentiate(f.node, f.slope);

  const double s = std::sin(x0 * z0), c = std::cos(x0 * z0), e = std::exp(y0);
  const double gradient[3] = {2 * x0 * y0 + z0 * c, x0 * x0 + e / z0, x0 * c - e / (z0 * z0)};
  const double hessian[3][3] = {{2 * y0 - z0 * z0 * s, 2 * x0, c - x0 * z0 * s},
                                {2 * x0, e / z0, -e / (z0 * z0)},
                                {c - x0 * z0 * s, -e / (z0 * z0), -x0 * x0 * s + 2 * e / (z0 * z0 * z0)}};
  const TapedScalar variables[3] = {x, y, z};
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(tape.adjoint(variables[i].node) == gradient[i], tolerance(1e-14));
    for (int j = 0; j < 3; ++j) {
      BOOST_TEST_CONTEXT("d2f/d" << i << "d" << j) {
        BOOST_TEST(tape.adjoint_tangent(variables[i].node, j) == hessian[i][j], tolerance(1e-14));
      }
    }
  }

  // The second way: first derivatives in the reverse sweep, the chain rule summed over the tape
  // for the lower triangle of rows 1 and 2.
  tape.differentiate_first_order(f.node, f.slope);
  tape.accumulate_second_derivatives(1, 3);
  for (int i = 0; i < 3; ++i) BOOST_TEST(tape.adjoint(variables[i].node) == gradient[i], tolerance(1e-14));
  for (int i = 1; i < 3; ++i) {
    for (int j = 0; j <= i; ++j) {
      BOOST_TEST_CONTEXT("summed d2f/d" << i << "d" << j) {
        BOOST_TEST(tape.second_derivative(i, j) == hessian[i][j], tolerance(1e-14));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(constants_and_affine_operations_leave_the_tape_alone) {
  ea::SecondOrderTape tape;
  tape.clear(1);
  const TapedScalar x = TapedScalar::variable(tape, 2.0, true);
  tape.set_tangent(x.node, 0, 1.0);
  const TapedScalar a = 3.0, b = 4;
  using std::sqrt;
  const TapedScalar constant = sqrt(a * a + b * b) / 5.0 - 1;
  BOOST_TEST(constant.is_constant());
  BOOST_TEST(constant.value == 0.0);
  BOOST_TEST(tape.size() == 1);

  // Constant factors and offsets change the slope on the same recorded x.
  const TapedScalar affine = 3.0 - (-x) * 2.0 / 4.0 + 1 - x;
  BOOST_TEST(tape.size() == 1);
  BOOST_TEST(affine.value == 3.0);
  BOOST_TEST(affine.node == x.node);
  BOOST_TEST(affine.slope == -0.5);

  // A product of recorded quantities is recorded (here of two affine functions of the one x, a
  // function of x alone on the tape); its derivatives carry the slopes.
  const TapedScalar y = affine * (x + 1.0);  // (4 − x/2)(x + 1): y' = 3.5 − x = 1.5, y'' = −1
  BOOST_TEST(tape.size() == 2);
  BOOST_TEST(y.value == 9.0);
  tape.differentiate(y.node, y.slope);
  BOOST_TEST(tape.adjoint(x.node) == 1.5, tolerance(1e-15));
  BOOST_TEST(tape.adjoint_tangent(x.node, 0) == -1.0, tolerance(1e-15));
}

namespace {

/// A model of 12 coordinates (above nested forward mode's sizes) whose T, V and f use every
/// function, constants on either side, a branch and explicit time: the tape's terms of Lagrange's
/// equations against those of nested forward mode.
struct EveryFunction {
  static constexpr int dofs = 12;
  template <class S>
  using Coordinates = ea::VectorN<S, dofs>;

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    using std::atan, std::cos, std::cosh, std::exp, std::sin, std::sqrt;
    S T(0.0);
    for (int i = 0; i < dofs; ++i) {
      const S mass = 2.0 + sin(q[i]) * cos(q[(i + 1) % dofs]) + 0.3 * atan(t * q[i]);
      const S coupling = 0.1 * exp(-q[i] * q[i]) / cosh(q[(i + 2) % dofs]);
      T += 0.5 * mass * v[i] * v[i] + coupling * v[i] * v[(i + 1) % dofs] + 0.05 * sqrt(1.0 + q[i] * q[i]) * v[i];
    }
    return T;
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::abs, std::acos, std::asin, std::asinh, std::atan2, std::cbrt, std::exp2, std::expm1, std::hypot,
        std::log, std::log10, std::log1p, std::log2, std::pow, std::sinh, std::tan, std::tanh, std::acosh, std::atanh;
    S V(0.0);
    for (int i = 0; i + 1 < dofs; i += 2) {
      const S a = q[i], b = q[i + 1];
      V += tan(0.3 * a) + asin(0.2 * b) - acos(0.1 * a) + asinh(a * b) + tanh(b) + sinh(0.5 * a);
      V += atan2(a, 2.0 + b) + atan2(1.5, 2.0 + a) + atan2(b, 3.0) + hypot(a, b) + hypot(1.0, a) + hypot(b, 2.0);
      V += log(2.0 + a) + log2(3.0 + b) + log10(4.0 + a * b) + log1p(0.5 + 0.1 * a) + exp2(0.3 * b) + expm1(0.2 * a);
      V += pow(1.5 + 0.1 * a, 2.5) + pow(2.0, 0.3 * b) + pow(2.0 + 0.1 * a, 1.0 + 0.1 * b) + cbrt(3.0 + a);
      V += acosh(2.0 + a * a) + atanh(0.1 * b) + abs(a - 0.2) + abs2(b) + fabs(b + 0.1);
      V += (a > b ? a * b : 2.0 * b - a) + min(a, b) * max(a, 0.3) + min(0.1, b) + max(-0.2, a) * (1.0 + t);
    }
    return V;
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return -0.1 * v;
  }
};

struct EveryFunctionState {
  EveryFunction::Coordinates<double> q, v, a;
  double t = 0.8;
  EveryFunctionState() {
    for (int i = 0; i < EveryFunction::dofs; ++i) {
      q[i] = 0.1 * i - 0.45;
      v[i] = 0.3 * std::cos(i) - 0.1;
      a[i] = 0.7 * std::sin(2.0 * i) + 0.2;
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(every_function_gives_the_terms_of_nested_forward_mode) {
  static_assert(EveryFunction::dofs > ea::max_dofs_for_nested_forward_mode);
  const EveryFunction model;
  const EveryFunctionState x;
  const auto nested = ea::detail::nested_forward_lagrange_terms(model, x.q, x.v, x.t);
  BOOST_TEST(nested.rhs.norm() > 1.0);
  for (const auto way : {ea::TapeSecondDerivatives::summed, ea::TapeSecondDerivatives::reverse_sweep}) {
    BOOST_TEST_CONTEXT("way " << static_cast<int>(way)) {
      const auto taped = ea::detail::taped_lagrange_terms(model, x.q, x.v, x.t, way);
      BOOST_TEST((taped.mass - nested.mass).norm() <= 1e-13 * nested.mass.norm());
      BOOST_TEST((taped.rhs - nested.rhs).norm() <= 1e-13 * nested.rhs.norm());
    }
  }
}

BOOST_AUTO_TEST_CASE(equation_terms_are_m_times_a_and_the_parts_of_r_both_ways) {
  // The equation terms take M a and the convective term along two directions; the tape and
  // nested forward mode must agree with each other and with M's columns times a.
  const EveryFunction model;
  const EveryFunctionState x;
  const auto nested_full = ea::detail::nested_forward_lagrange_terms(model, x.q, x.v, x.t);
  const ea::VectorN<double, EveryFunction::dofs> inertia = nested_full.mass * x.a;
  for (const auto& terms : {ea::detail::taped_equation_terms(model, x.q, x.v, x.a, x.t),
                            ea::detail::nested_forward_equation_terms(model, x.q, x.v, x.a, x.t)}) {
    BOOST_TEST((terms.inertia - inertia).norm() <= 1e-13 * inertia.norm());
    BOOST_TEST((terms.forces + terms.lagrangian_gradient - terms.convective - nested_full.rhs).norm() <=
               1e-13 * nested_full.rhs.norm());
    BOOST_TEST(terms.convective.norm() > 0.1);
    BOOST_TEST(terms.lagrangian_gradient.norm() > 0.1);
    BOOST_TEST((terms.forces + 0.1 * x.v).norm() == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(taped_scalars_compare_print_and_serve_eigen_by_their_value) {
  ea::SecondOrderTape tape;
  tape.clear(2);
  const TapedScalar x = TapedScalar::variable(tape, 1.5), y = TapedScalar::variable(tape, -2.0);
  BOOST_TEST((x > y && y < 0 && x == 1.5 && x != y && 2 > x));
  BOOST_TEST(isfinite(x));
  BOOST_TEST(!isnan(x));
  BOOST_TEST(isinf(x / 0.0));
  BOOST_TEST(std::numeric_limits<TapedScalar>::epsilon() == std::numeric_limits<double>::epsilon());
  std::ostringstream out;
  out << x;
  BOOST_TEST(out.str() == "1.5");
  ea::VectorN<TapedScalar, 2> u(x, y), w(y, x);
  const TapedScalar dot = u.dot(w), scaled_sum = (2.0 * u).sum();
  BOOST_TEST(dot.value == -6.0);
  BOOST_TEST(scaled_sum.value == -1.0);
}

BOOST_AUTO_TEST_CASE(the_energy_gradient_of_a_large_model_is_its_closed_form) {
  constexpr int n = 30;
  static_assert(n > ea::max_dofs_for_nested_forward_mode);
  using Chain = ea::testing::PendulumChain<n>;
  const Chain chain;
  Chain::Coordinates<double> q = chain.start_angles(), v;
  for (int i = 0; i < n; ++i) v[i] = 0.2 * std::sin(i) - 0.05;
  const ea::EnergyGradient<n> g = ea::energy_gradient(chain, q, v);
  // The chain's closed forms: ∂T/∂v = M v with M_jk = μ_max(j,k) l² cos(θ_j − θ_k), μ_k = (N − k) m;
  // ∂V/∂θ_j = μ_j g l sin θ_j; ∂T/∂θ_j = −Σ_k μ_max(j,k) l² sin(θ_j − θ_k) v_j v_k.
  for (int j = 0; j < n; ++j) {
    double momentum = 0, kinetic_q = 0;
    for (int k = 0; k < n; ++k) {
      const double mu_l2 = (n - std::max(j, k)) * chain.m * chain.l * chain.l;
      momentum += mu_l2 * std::cos(q[j] - q[k]) * v[k];
      kinetic_q -= mu_l2 * std::sin(q[j] - q[k]) * v[j] * v[k];
    }
    BOOST_TEST(g.kinetic_v[j] == momentum, tolerance(1e-12));
    BOOST_TEST(std::abs(g.kinetic_q[j] - kinetic_q) < 1e-13);
    BOOST_TEST(g.potential_q[j] == (n - j) * chain.m * chain.g * chain.l * std::sin(q[j]), tolerance(1e-12));
  }
  BOOST_TEST(g.energy == chain.kinetic_energy(q, v, 0.0) + chain.potential_energy(q, 0.0), tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(equation_terms_of_a_chain_above_sixteen_links_are_its_closed_form_both_ways) {
  // Above 16 coordinates GCC no longer unrolls nested forward mode's seeding loops by itself
  // (lagrange_equation_terms.hpp): both ways against the chain's equations (pendulum_chain.hpp),
  //   (M a)_j = Σ_k μ_max(j,k) l² cos(θ_j − θ_k) a_k ,
  //   c_j − (∂L/∂q)_j = Σ_k μ_max(j,k) l² sin(θ_j − θ_k) θ_k'² + μ_j g l sin θ_j .
  constexpr int n = 20;
  static_assert(n > 16 && n <= ea::max_dofs_for_nested_equation_terms);
  using Chain = ea::testing::PendulumChain<n>;
  const Chain chain;
  Chain::Coordinates<double> q = chain.start_angles(), v, a;
  for (int i = 0; i < n; ++i) {
    v[i] = 0.2 * std::sin(i) - 0.05;
    a[i] = 0.3 * std::cos(2 * i) + 0.1;
  }
  for (const auto& terms : {ea::detail::nested_forward_equation_terms(chain, q, v, a, 0.0),
                            ea::detail::taped_equation_terms(chain, q, v, a, 0.0)}) {
    for (int j = 0; j < n; ++j) {
      double inertia = 0, velocity_terms = (n - j) * chain.m * chain.g * chain.l * std::sin(q[j]);
      for (int k = 0; k < n; ++k) {
        const double mu_l2 = (n - std::max(j, k)) * chain.m * chain.l * chain.l;
        inertia += mu_l2 * std::cos(q[j] - q[k]) * a[k];
        velocity_terms += mu_l2 * std::sin(q[j] - q[k]) * v[k] * v[k];
      }
      BOOST_TEST(terms.inertia[j] == inertia, tolerance(1e-12));
      BOOST_TEST(terms.convective[j] - terms.lagrangian_gradient[j] == velocity_terms, tolerance(1e-12));
      BOOST_TEST(terms.forces[j] == -chain.c * v[j]);
    }
  }
}
