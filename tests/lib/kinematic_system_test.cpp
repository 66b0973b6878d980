// Kinematic systems with pseudo-inverse constraint stabilization (seed 001): the pseudo-inverse
// and null spaces against their defining identities on random full-rank Jacobians, ḟ = K f
// along the flow of a rheonomic model, each method's real stability limit against the root of
// its stability polynomial found independently (Eigen's polynomial solver), the ellipse with
// k = 0 against its closed form at each method's order, and the drift verdicts and transverse
// multiplier of the ellipse against linear theory.
#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>
#include <unsupported/Eigen/Polynomials>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <energy_audit/constraint_drift_audit.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/pseudo_inverse.hpp>
#include <energy_audit/stability_polynomial.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/transverse_multiplier.hpp>

#include "ellipse.hpp"

namespace ea = energy_audit;
using ea::Matrix;
using ea::Vector;

namespace {

Matrix random_matrix(std::mt19937& generator, int rows, int cols) {
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Matrix A(rows, cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) A(i, j) = entry(generator);
  }
  return A;
}

/// A point on a sphere of radius R(t) and on a cylinder x² + y² = r², K a full 2 × 2 gain, one
/// free velocity c(t): n = 3, m = 2, rheonomic (f_t ≠ 0).
struct SphereCylinder {
  static constexpr int coordinates = 3;
  static constexpr int constraints = 2;
  template <class S>
  ea::VectorN<S, 2> position_constraints(const ea::VectorN<S, 3>& q, const S& t) const {
    using std::sin;
    const S radius = 2.0 + 0.3 * sin(1.5 * t);
    return ea::VectorN<S, 2>(0.5 * (q.squaredNorm() - radius * radius), 0.5 * (q[0] * q[0] + q[1] * q[1] - 1.0));
  }
  ea::VectorN<double, 1> free_velocities(double t) const { return ea::VectorN<double, 1>(1.0 + 0.5 * std::cos(t)); }
  Eigen::Matrix2d gain() const { return (Eigen::Matrix2d() << -3.0, 0.5, -0.2, -1.0).finished(); }
};

/// Four coordinates on a rheonomic 2-constraint set: n − m = 2, the orthonormal null space.
struct TwoFreeDirections {
  static constexpr int coordinates = 4;
  static constexpr int constraints = 2;
  template <class S>
  ea::VectorN<S, 2> position_constraints(const ea::VectorN<S, 4>& q, const S& t) const {
    return ea::VectorN<S, 2>(q[0] * q[1] + q[2] - t, q.squaredNorm() - 4.0 - 0.1 * t * t);
  }
  ea::VectorN<double, 2> free_velocities(double t) const { return ea::VectorN<double, 2>(0.7, -0.3 * t); }
  Eigen::Matrix2d gain() const { return Eigen::Matrix2d::Identity() * -2.0; }
};

/// max over the run of |(x, y) − (cos 3t, −3 sin 3t)| for the ellipse with k = 0 from (1, 0).
template <class Method>
double ellipse_error(double h) {
  const ea::KinematicSystem<ea::examples::Ellipse> system(ea::examples::Ellipse{.c = 1.0, .k = 0.0});
  typename Method::Stepper stepper;
  Vector q = Eigen::Vector2d(1.0, 0.0);
  double error = 0;
  ea::integrate_const(stepper, system, q, 0.0, 2.0, h, [&](const ea::ConstVectorRef& y, double t) {
    error = std::max(error, (y - Eigen::Vector2d(std::cos(3 * t), -3 * std::sin(3 * t))).norm());
  });
  return error;
}

template <class Method>
ea::ConstraintDriftAudit ellipse_run(double k, double tau, double x0 = 1.05) {
  const ea::KinematicSystem<ea::examples::Ellipse> system(ea::examples::Ellipse{.c = 1.0, .k = k});
  typename Method::Stepper stepper;
  Vector q = Eigen::Vector2d(x0, 0.0);
  ea::ConstraintDriftAudit audit;
  ea::integrate_const(stepper, system, q, 0.0, 20.0, tau, ea::watch_constraints(system, audit));
  return audit;
}

/// The most negative real root of p near the stability limit: of R(x) − 1 or R(x) + 1 with x < 0,
/// the one nearest 0, by Eigen's polynomial solver (companion matrix eigenvalues).
double stability_limit_by_roots(std::vector<double> coefficients) {
  double limit = -INFINITY;
  for (const double shift : {-1.0, 1.0}) {
    std::vector<double> p = coefficients;
    p[0] += shift;  // R(x) − 1 or R(x) + 1
    Eigen::PolynomialSolver<double, Eigen::Dynamic> solver(Eigen::Map<const Eigen::VectorXd>(p.data(), p.size()));
    for (const std::complex<double>& root : solver.roots()) {
      if (std::abs(root.imag()) < 1e-9 && root.real() < -1e-9) limit = std::max(limit, root.real());
    }
  }
  return limit;
}

}  // namespace

BOOST_AUTO_TEST_CASE(pseudo_inverse_and_null_spaces_meet_their_identities) {
  std::mt19937 generator(2026);
  for (const auto& [m, n] : {std::pair{1, 2}, {1, 3}, {2, 3}, {2, 5}, {3, 4}, {4, 7}}) {
    BOOST_TEST_CONTEXT("m = " << m << ", n = " << n) {
      const Matrix fq = random_matrix(generator, m, n);
      const ea::PseudoInverse<> pinv(fq);
      Matrix fq_plus(n, m);
      for (int j = 0; j < m; ++j) fq_plus.col(j) = pinv.apply(Vector::Unit(m, j));
      BOOST_TEST((fq * fq_plus - Matrix::Identity(m, m)).norm() < 1e-13);
      // The least-norm solution: f_q⁺ = f_qᵀ (f_q f_qᵀ)⁻¹ (the formula, for comparison only).
      const Matrix formula = fq.transpose() * (fq * fq.transpose()).inverse();
      BOOST_TEST((fq_plus - formula).norm() < 1e-12 * formula.norm());
      const Matrix N = pinv.orthonormal_null_space();
      BOOST_TEST(N.cols() == n - m);
      BOOST_TEST((fq * N).norm() < 1e-14);
      BOOST_TEST((N.transpose() * N - Matrix::Identity(n - m, n - m)).norm() < 1e-14);
      if (n - m == 1) {
        const Vector cross = ea::generalized_cross_product(fq);
        BOOST_TEST((fq * cross).norm() < 1e-13);
        // Its length is the m-volume the rows span: sqrt(det(f_q f_qᵀ)).
        BOOST_TEST(cross.norm() == std::sqrt((fq * fq.transpose()).determinant()), boost::test_tools::tolerance(1e-12));
      }
    }
  }
  const Eigen::Vector3d a(1, 2, 3), b(-2, 0.5, 4);
  Matrix rows(2, 3);
  rows << a.transpose(), b.transpose();
  BOOST_TEST((ea::generalized_cross_product(rows) - Vector(a.cross(b))).norm() < 1e-14);
  Matrix ellipse_row(1, 2);
  ellipse_row << 9.0, 2.0;  // f_q = [9x, y] at (1, 2): N = [y, −9x]
  BOOST_TEST((ea::generalized_cross_product(ellipse_row) - Eigen::Vector2d(2.0, -9.0)).norm() == 0.0);
  BOOST_CHECK_THROW(ea::PseudoInverse<>(Matrix::Ones(2, 3)), ea::Error);  // rank 1 of 2
  BOOST_CHECK_THROW(ea::PseudoInverse<>(Matrix::Identity(2, 2)), ea::Error);  // no free direction
}

BOOST_AUTO_TEST_CASE(the_flow_keeps_fdot_equal_to_k_f) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> entry(-1.5, 1.5);
  const ea::KinematicSystem<SphereCylinder> three(SphereCylinder{});
  const ea::KinematicSystem<TwoFreeDirections> four(TwoFreeDirections{});
  for (int trial = 0; trial < 20; ++trial) {
    const double t = entry(generator);
    const Vector q3 = Eigen::Vector3d(entry(generator), entry(generator), entry(generator));
    Vector rate3(3);
    three(q3, rate3, t);
    const auto terms3 = three.constraint_terms(q3, t);
    BOOST_TEST((terms3.f_q * rate3 + terms3.f_t - SphereCylinder{}.gain() * terms3.f).norm() <
               1e-12 * (1 + terms3.f.norm()));
    const Vector q4 = Eigen::Vector4d(entry(generator), entry(generator), entry(generator), entry(generator));
    Vector rate4(4);
    four(q4, rate4, t);
    const auto terms4 = four.constraint_terms(q4, t);
    BOOST_TEST((terms4.f_q * rate4 + terms4.f_t - TwoFreeDirections{}.gain() * terms4.f).norm() <
               1e-12 * (1 + terms4.f.norm()));
  }
  // f_t by differentiation: the sphere's f_t = −R R' against the closed form.
  const double t = 0.4, radius = 2.0 + 0.3 * std::sin(1.5 * t), rate = 0.45 * std::cos(1.5 * t);
  BOOST_TEST(three.constraint_terms(Eigen::Vector3d(1, 0, 1), t).f_t[0] == -radius * rate,
             boost::test_tools::tolerance(1e-14));
  // Integrated with rk4 from an off-constraint start, f decays as e^{Kt} (to the method's error).
  ea::methods::Rk4::Stepper stepper;
  Vector q = Eigen::Vector3d(1.1, 0.1, 1.8);
  const auto f0 = three.constraint_values(q, 0.0);
  ea::integrate_const(stepper, three, q, 0.0, 1.0, 1e-3);
  const Eigen::Matrix2d K = SphereCylinder{}.gain();
  const Eigen::Vector2d expected = K.exp() * f0;  // f(1) = e^{K} f(0)
  const Eigen::Vector2d f1 = three.constraint_values(q, 1.0);
  BOOST_TEST_MESSAGE("f(1) = " << f1.transpose() << ", e^K f(0) = " << expected.transpose());
  BOOST_TEST((f1 - expected).norm() < 1e-9 * f0.norm());
}

BOOST_AUTO_TEST_CASE(real_stability_limits_are_the_roots_of_the_stability_polynomials) {
  const auto check = [](const char* name, const ea::StabilityPolynomial& R, double closed_form) {
    BOOST_TEST_CONTEXT(name) {
      const double by_roots = stability_limit_by_roots(R.coefficients());
      BOOST_TEST_MESSAGE(name << ": z* = " << R.real_stability_limit() << ", root " << by_roots);
      BOOST_TEST(R.real_stability_limit() == by_roots, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(R.real_stability_limit() == closed_form, boost::test_tools::tolerance(1e-9));
    }
  };
  check("euler", ea::StabilityPolynomial(ea::euler_tableau()), -2.0);
  check("rk2", ea::StabilityPolynomial(ea::heun_tableau()), -2.0);
  check("rk3", ea::StabilityPolynomial(ea::kutta3_tableau()), -2.5127453266183286);
  check("rk4", ea::StabilityPolynomial(ea::rk4_tableau()), -2.7852935634761658);
  check("rkg", ea::StabilityPolynomial(ea::gill_tableau()), -2.7852935634761658);
  // R's coefficients are 1/k! for an s-stage method of order s ≤ 4.
  const std::vector<double> expected{1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0};
  const std::vector<double> rk4 = ea::StabilityPolynomial(ea::rk4_tableau()).coefficients();
  for (std::size_t k = 0; k < expected.size(); ++k) BOOST_TEST(rk4[k] == expected[k], boost::test_tools::tolerance(1e-15));
  // |R(iw)|² − 1: w² for Euler, w⁴/4 for Heun, −w⁶/72 + w⁸/576 for rk4, by hand from R(z).
  const double w = 0.006;
  BOOST_TEST(ea::StabilityPolynomial(ea::euler_tableau()).rotation_growth(w) == w * w,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(ea::StabilityPolynomial(ea::heun_tableau()).rotation_growth(w) == std::pow(w, 4) / 4,
             boost::test_tools::tolerance(1e-6));
  // At w = 0.006, d ≈ −6.5e-16, below the round-off of |R|² ≈ 1 itself: what is left is that of
  // the cancelling w² terms, ε w² ≈ 1e-20.
  for (const auto& [rotation, relative] : {std::pair{0.3, 1e-9}, std::pair{0.006, 1e-4}}) {
    BOOST_TEST(ea::StabilityPolynomial(ea::rk4_tableau()).rotation_growth(rotation) ==
                   -std::pow(rotation, 6) / 72 + std::pow(rotation, 8) / 576,
               boost::test_tools::tolerance(relative));
  }
  BOOST_TEST(ea::StabilityPolynomial(ea::kutta3_tableau()).rotation_growth(w) ==
                 -std::pow(w, 4) / 12 + std::pow(w, 6) / 36,
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(the_ellipse_with_k_zero_follows_its_closed_form_at_each_order) {
  const auto order = [](double coarse, double fine) { return std::log2(coarse / fine); };
  const double h = 0.01;
  const double euler = order(ellipse_error<ea::methods::Euler>(h), ellipse_error<ea::methods::Euler>(h / 2));
  const double rk2 = order(ellipse_error<ea::methods::Rk2>(h), ellipse_error<ea::methods::Rk2>(h / 2));
  const double rk3 = order(ellipse_error<ea::methods::Rk3>(h), ellipse_error<ea::methods::Rk3>(h / 2));
  const double rk4 = order(ellipse_error<ea::methods::Rk4>(h), ellipse_error<ea::methods::Rk4>(h / 2));
  const double rkg = order(ellipse_error<ea::methods::Rkg>(h), ellipse_error<ea::methods::Rkg>(h / 2));
  BOOST_TEST_MESSAGE("orders: euler " << euler << ", rk2 " << rk2 << ", rk3 " << rk3 << ", rk4 " << rk4 << ", rkg "
                                      << rkg);
  BOOST_TEST(std::abs(euler - 1) < 0.1);
  BOOST_TEST(std::abs(rk2 - 2) < 0.1);
  BOOST_TEST(std::abs(rk3 - 3) < 0.1);
  BOOST_TEST(std::abs(rk4 - 4) < 0.1);
  BOOST_TEST(std::abs(rkg - 4) < 0.1);
}

BOOST_AUTO_TEST_CASE(ellipse_verdicts_follow_linear_theory) {
  // k > 0: the constraint repels, for every method.
  BOOST_TEST(std::string(ea::to_string(ellipse_run<ea::methods::Euler>(2.0, 0.002).verdict())) == "unstable");
  BOOST_TEST(std::string(ea::to_string(ellipse_run<ea::methods::Rk4>(2.0, 0.002).verdict())) == "unstable");
  // k = −2, well inside every interval: the 5 % error is removed, down to the offset at which
  // the correction balances the method's error of the rotation (Euler: 4.5 d / (1 − R − d) with
  // d = (3 c τ)², R = 1 + τ k, about 0.04).
  for (const auto& audit : {ellipse_run<ea::methods::Euler>(-2.0, 0.002), ellipse_run<ea::methods::Rk2>(-2.0, 0.002),
                            ellipse_run<ea::methods::Rk4>(-2.0, 0.002)}) {
    BOOST_TEST(std::string(ea::to_string(audit.verdict())) == "stable");
    BOOST_TEST(audit.final() < 0.2 * audit.initial());
  }
  const double d = std::pow(3 * 0.002, 2), R = 1 - 2 * 0.002;
  BOOST_TEST(ellipse_run<ea::methods::Euler>(-2.0, 0.002).final() == 4.5 * d / (1 - R - d),
             boost::test_tools::tolerance(0.05));
  // k = 0: the initial error stays.
  const ea::ConstraintDriftAudit neutral = ellipse_run<ea::methods::Rk4>(0.0, 0.002);
  BOOST_TEST(std::string(ea::to_string(neutral.verdict())) == "neutral");
  BOOST_TEST(neutral.final() == neutral.initial(), boost::test_tools::tolerance(1e-6));
  // τ k = −2.4: beyond Euler's limit −2, inside rk4's −2.785.
  BOOST_TEST(std::string(ea::to_string(ellipse_run<ea::methods::Euler>(-1200.0, 0.002).verdict())) == "unstable");
  BOOST_TEST(std::string(ea::to_string(ellipse_run<ea::methods::Rk4>(-1200.0, 0.002).verdict())) == "stable");
}

BOOST_AUTO_TEST_CASE(the_transverse_multiplier_is_r_plus_d_to_leading_order) {
  const std::vector<Vector> points = ea::examples::Ellipse::constraint_points(256);
  const double tau = 0.002;
  for (const double k : {-2.0, -50.0, 2.0}) {
    const ea::KinematicSystem<ea::examples::Ellipse> system(ea::examples::Ellipse{.c = 1.0, .k = k});
    ea::methods::Euler::Stepper euler;
    const double rho = ea::transverse_multiplier(euler, system, tau, 0.0, points);
    const ea::StabilityPolynomial R(ea::euler_tableau());
    const double linear = R(tau * k) + R.rotation_growth(3.0 * tau);
    BOOST_TEST_MESSAGE("k = " << k << ": rho = " << rho << ", R + d = " << linear);
    BOOST_TEST(rho == linear, boost::test_tools::tolerance(1e-3));
    BOOST_TEST((rho < 1) == (k < 0));
  }
}
