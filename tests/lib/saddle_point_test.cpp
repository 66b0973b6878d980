// solve_saddle_point: the index-1 system [M −Gᵀ; G 0] [a; λ] = [r; c] against references from
// outside its Schur-complement route: a 3 × 3 system solved by hand, a point-mass pendulum's
// tension in closed form, and larger systems (fixed and dynamic sizes) against Eigen's full-pivot
// LU of the assembled KKT matrix and their residuals M a − Gᵀλ = r, G a = c. Then the errors it
// documents: M not positive definite, G of rank < m (exactly or below the 1e-10 relative
// threshold), each naming t; and NaN, not an error, where the input is not finite or overflows.
#include <cmath>
#include <limits>
#include <string>

#include <boost/test/unit_test.hpp>

#include <Eigen/LU>

#include <energy_audit/error.hpp>
#include <energy_audit/saddle_point.hpp>

#include "error_message.hpp"

namespace ea = energy_audit;
using energy_audit::Index;
using boost::test_tools::tolerance;
using ea::testing::message_is;

namespace {

constexpr double round_off = 1e-13;

/// [a; λ] of the assembled KKT matrix [M −Gᵀ; G 0] by full-pivot LU, independent of the Schur
/// complement and of the Cholesky factor of M.
ea::Vector kkt_reference(const ea::Matrix& M, const ea::Matrix& G, const ea::Vector& r, const ea::Vector& c) {
  const Index n = M.rows(), m = G.rows();
  ea::Matrix K = ea::Matrix::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, m) = -G.transpose();
  K.bottomLeftCorner(m, n) = G;
  ea::Vector rhs(n + m);
  rhs << r, c;
  const Eigen::FullPivLU<ea::Matrix> lu(K);
  BOOST_REQUIRE(lu.isInvertible());
  return lu.solve(rhs);
}

/// The solution against the LU reference, and the residuals of both block rows against the sizes
/// of their terms, to `relative` (which allows for the KKT matrix's condition number).
template <int n, int m>
void check_against_kkt(const ea::SaddlePointSolution<n, m>& s, const ea::Matrix& M, const ea::Matrix& G,
                       const ea::Vector& r, const ea::Vector& c, double relative = 1e-12) {
  const ea::Vector reference = kkt_reference(M, G, r, c);
  const Index rows = M.rows();
  BOOST_REQUIRE(s.a.size() == rows);
  BOOST_REQUIRE(s.lambda.size() == G.rows());
  const double scale = 1.0 + reference.cwiseAbs().maxCoeff();
  BOOST_TEST((s.a - reference.head(rows)).cwiseAbs().maxCoeff() <= relative * scale);
  BOOST_TEST((s.lambda - reference.tail(G.rows())).cwiseAbs().maxCoeff() <= relative * scale);
  const ea::Vector a = s.a, lambda = s.lambda;
  const ea::Vector first_terms =
      M.cwiseAbs() * a.cwiseAbs() + G.transpose().cwiseAbs() * lambda.cwiseAbs() + r.cwiseAbs();
  const ea::Vector second_terms = G.cwiseAbs() * a.cwiseAbs() + c.cwiseAbs();
  BOOST_TEST((M * a - G.transpose() * lambda - r).cwiseAbs().maxCoeff() <= relative * first_terms.maxCoeff());
  BOOST_TEST((G * a - c).cwiseAbs().maxCoeff() <= relative * second_terms.maxCoeff());
}

}  // namespace

BOOST_AUTO_TEST_CASE(two_coordinates_one_constraint_match_the_hand_solution) {
  // M = diag(2, 4), G = [1 1], r = (2, 4), c = 3: a = M⁻¹ (r + Gᵀλ) = ((2 + λ)/2, (4 + λ)/4) and
  // G a = 2 + 3λ/4 = 3, so λ = 4/3 and a = (5/3, 4/3).
  const Eigen::Matrix2d M{{2.0, 0.0}, {0.0, 4.0}};
  const Eigen::Matrix<double, 1, 2> G{{1.0, 1.0}};
  const ea::SaddlePointSolution<2, 1> s =
      ea::solve_saddle_point<2, 1>(M, G, ea::VectorN<double, 2>(2.0, 4.0), ea::VectorN<double, 1>(3.0), 0.0);
  BOOST_TEST(s.lambda[0] == 4.0 / 3.0, tolerance(round_off));
  BOOST_TEST(s.a[0] == 5.0 / 3.0, tolerance(round_off));
  BOOST_TEST(s.a[1] == 4.0 / 3.0, tolerance(round_off));
}

BOOST_AUTO_TEST_CASE(coupled_mass_matrix_matches_the_hand_solution) {
  // M = [2 1; 1 2] (M⁻¹ = [2 −1; −1 2]/3), G = [1 −1], r = (3, 0), c = 1:
  // M⁻¹ r = (2, −1), M⁻¹ Gᵀ = (1, −1), S = G M⁻¹ Gᵀ = 2, λ = (c − G M⁻¹ r)/S = (1 − 3)/2 = −1,
  // a = M⁻¹ r + M⁻¹ Gᵀ λ = (1, 0). Check: M a − Gᵀλ = (2, 1) + (1, −1) = (3, 0); G a = 1.
  const Eigen::Matrix2d M{{2.0, 1.0}, {1.0, 2.0}};
  const Eigen::Matrix<double, 1, 2> G{{1.0, -1.0}};
  const ea::SaddlePointSolution<2, 1> s =
      ea::solve_saddle_point<2, 1>(M, G, ea::VectorN<double, 2>(3.0, 0.0), ea::VectorN<double, 1>(1.0), 0.0);
  BOOST_TEST(s.lambda[0] == -1.0, tolerance(round_off));
  BOOST_TEST(s.a[0] == 1.0, tolerance(round_off));
  BOOST_TEST(s.a[1] + 1.0 == 1.0, tolerance(round_off));
}

BOOST_AUTO_TEST_CASE(pendulum_multiplier_is_the_rope_tension) {
  // A point mass m at (x, y) on Φ = (x² + y² − l²)/2 = 0 under gravity: M = m I, G = [x y],
  // r = (0, −m g), c = −Ġ v = −(ẋ² + ẏ²). At angle θ from the downward vertical, moving at speed u
  // along e_t = (cos θ, sin θ), the rope's force Gᵀλ = λ l e_r with e_r = (sin θ, −cos θ); the
  // radial balance −m u²/l = m g cos θ + λ l gives λ = −(m u²/l + m g cos θ)/l, and the
  // tangential one a·e_t = −g sin θ.
  const double m = 1.5, g = 9.81, l = 0.8;
  for (const double theta : {0.0, 0.4, -1.1, 2.5}) {
    for (const double u : {0.0, 0.7, -2.3}) {
      BOOST_TEST_CONTEXT("theta = " << theta << ", u = " << u) {
        const double x = l * std::sin(theta), y = -l * std::cos(theta);
        const double vx = u * std::cos(theta), vy = u * std::sin(theta);
        const Eigen::Matrix2d M = m * Eigen::Matrix2d::Identity();
        const Eigen::Matrix<double, 1, 2> G{{x, y}};
        const ea::SaddlePointSolution<2, 1> s = ea::solve_saddle_point<2, 1>(
            M, G, ea::VectorN<double, 2>(0.0, -m * g), ea::VectorN<double, 1>(-(vx * vx + vy * vy)), 0.0);
        const double lambda = -(m * u * u / l + m * g * std::cos(theta)) / l;
        BOOST_TEST(s.lambda[0] == lambda, tolerance(1e-13));
        // a = centripetal (−u²/l toward the pivot) + tangential (−g sin θ along (cos θ, sin θ)).
        const double a_tangential = -g * std::sin(theta), a_radial = u * u / l;
        const double ax = a_tangential * std::cos(theta) - a_radial * std::sin(theta);
        const double ay = a_tangential * std::sin(theta) + a_radial * std::cos(theta);
        BOOST_TEST(s.a[0] + 1.0 == ax + 1.0, tolerance(1e-13));
        BOOST_TEST(s.a[1] + 1.0 == ay + 1.0, tolerance(1e-13));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(three_coordinates_two_constraints_match_the_full_pivot_lu_of_the_kkt_matrix) {
  Eigen::Matrix3d M;
  M << 4.0, 1.0, 0.5,  //
      1.0, 3.0, -0.2,  //
      0.5, -0.2, 2.0;
  Eigen::Matrix<double, 2, 3> G;
  G << 1.0, -2.0, 0.3,  //
      0.0, 0.7, 1.4;
  const ea::VectorN<double, 3> r(0.3, -1.7, 2.2);
  const ea::VectorN<double, 2> c(-0.4, 1.1);
  const ea::SaddlePointSolution<3, 2> s = ea::solve_saddle_point<3, 2>(M, G, r, c, 0.0);
  check_against_kkt(s, M, G, r, c);
  // A nearly (but not numerically) dependent pair of rows is still solved: σ_min(S)/σ_max(S) ~ 1e-5,
  // far above the 1e-10 threshold; the solution is then as accurate as the KKT matrix allows.
  Eigen::Matrix<double, 2, 3> G_close;
  G_close << 1.0, 0.0, 0.0,  //
      1.0, 1e-2, 0.0;
  check_against_kkt(ea::solve_saddle_point<3, 2>(M, G_close, r, c, 0.0), M, G_close, r, c, 1e-9);
}

BOOST_AUTO_TEST_CASE(dynamic_sizes_match_the_full_pivot_lu_of_the_kkt_matrix) {
  // n = 5, m = 3 at run time: M = Aᵀ A + I (positive definite), G and the right-hand sides fixed.
  ea::Matrix A(5, 5);
  A << 1.0, 0.2, -0.3, 0.0, 0.5,  //
      0.1, 1.5, 0.4, -0.6, 0.0,   //
      -0.7, 0.0, 0.9, 0.2, 0.3,   //
      0.0, 0.8, -0.1, 1.2, -0.4,  //
      0.6, -0.5, 0.0, 0.3, 0.7;
  const ea::Matrix M = A.transpose() * A + ea::Matrix::Identity(5, 5);
  ea::Matrix G(3, 5);
  G << 1.0, 0.0, -1.0, 0.5, 0.0,  //
      0.0, 2.0, 0.3, 0.0, -1.0,   //
      0.4, -0.4, 0.0, 1.0, 1.0;
  ea::Vector r(5), c(3);
  r << 1.0, -2.0, 0.5, 3.0, -0.25;
  c << 0.2, -1.5, 0.75;
  const auto s = ea::solve_saddle_point<Eigen::Dynamic, Eigen::Dynamic>(M, G, r, c, 0.0);
  check_against_kkt(s, M, G, r, c);
}

BOOST_AUTO_TEST_CASE(mass_matrix_not_positive_definite_is_an_error_naming_t) {
  const Eigen::Matrix<double, 1, 2> G{{1.0, 1.0}};
  const ea::VectorN<double, 2> r(1.0, 1.0);
  const ea::VectorN<double, 1> c(0.0);
  const std::string expected = "mass matrix d2T/dv2 is not positive definite at t = 0.25";
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<2, 1>(Eigen::Matrix2d{{1.0, 0.0}, {0.0, -1.0}}, G, r, c, 0.25)),
                        ea::Error, message_is(expected));
  // Singular (semi-definite): T = ½ (v₀ + v₁)².
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<2, 1>(Eigen::Matrix2d{{1.0, 1.0}, {1.0, 1.0}}, G, r, c, 0.25)),
                        ea::Error, message_is(expected));
  const ea::Matrix M_dynamic = -ea::Matrix::Identity(3, 3);
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<Eigen::Dynamic, Eigen::Dynamic>(
                            M_dynamic, ea::Matrix::Ones(1, 3), ea::Vector::Ones(3), ea::Vector::Zero(1), 1e-7)),
                        ea::Error, message_is("mass matrix d2T/dv2 is not positive definite at t = 1e-07"));
}

BOOST_AUTO_TEST_CASE(rank_deficient_constraint_jacobian_is_an_error_naming_rank_and_t) {
  const Eigen::Matrix3d M = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal();
  const ea::VectorN<double, 3> r(1.0, 0.0, -1.0);
  const ea::VectorN<double, 2> c(0.5, 1.0);
  // Second row twice the first.
  Eigen::Matrix<double, 2, 3> G;
  G << 1.0, 2.0, 3.0,  //
      2.0, 4.0, 6.0;
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<3, 2>(M, G, r, c, 1.5)), ea::Error,
                        message_is("constraint Jacobian G is singular (rank 1 of 2) at t = 1.5"));
  // A zero row.
  G << 0.0, 0.0, 0.0,  //
      0.3, -1.0, 0.2;
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<3, 2>(M, G, r, c, 2.0)), ea::Error,
                        message_is("constraint Jacobian G is singular (rank 1 of 2) at t = 2"));
  // Independent in exact arithmetic, dependent below the threshold: S = G M⁻¹ Gᵀ =
  // [1 1; 1 1 + 5e-13] (representable), σ_min(S)/σ_max(S) ~ 2.5e-13 < 1e-10.
  G << 1.0, 0.0, 0.0,  //
      1.0, 1e-6, 0.0;
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<3, 2>(M, G, r, c, 0.0)), ea::Error,
                        message_is("constraint Jacobian G is singular (rank 1 of 2) at t = 0"));
  // Dynamic m: three constraints on two coordinates can have rank 2 at most.
  BOOST_CHECK_EXCEPTION((ea::solve_saddle_point<Eigen::Dynamic, Eigen::Dynamic>(
                            ea::Matrix::Identity(2, 2), ea::Matrix{{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}},
                            ea::Vector::Zero(2), ea::Vector::Zero(3), 3.0)),
                        ea::Error, message_is("constraint Jacobian G is singular (rank 2 of 3) at t = 3"));
}

BOOST_AUTO_TEST_CASE(non_finite_or_overflowing_input_gives_nan_not_an_error) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Eigen::Matrix2d M = Eigen::Matrix2d::Identity();
  const Eigen::Matrix<double, 1, 2> G{{1.0, 1.0}};
  const ea::VectorN<double, 2> r(1.0, 2.0);
  const ea::VectorN<double, 1> c(0.5);
  const auto all_nan = [](const auto& s) { return s.a.array().isNaN().all() && s.lambda.array().isNaN().all(); };
  Eigen::Matrix2d M_nan = M;
  M_nan(1, 0) = nan;  // even an entry Cholesky would not read, and a matrix that is not PD otherwise
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(M_nan, G, r, c, 0.0)));
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(-M_nan, G, r, c, 0.0)));
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(M, Eigen::Matrix<double, 1, 2>{{inf, 0.0}}, r, c, 0.0)));
  // A non-finite G would be "singular" if checked: NaN, not an error.
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(M, Eigen::Matrix<double, 1, 2>{{nan, nan}}, r, c, 0.0)));
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(M, G, ea::VectorN<double, 2>(1.0, -inf), c, 0.0)));
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(M, G, r, ea::VectorN<double, 1>(nan), 0.0)));
  // Finite input that overflows: M⁻¹ r = 1e300 / 1e-300.
  BOOST_TEST(all_nan(ea::solve_saddle_point<2, 1>(Eigen::Matrix2d(1e-300 * M), G, ea::VectorN<double, 2>(1e300, 0.0),
                                                  c, 0.0)));
  // Dynamic sizes: the NaN vectors have the sizes of r and c.
  const auto s = ea::solve_saddle_point<Eigen::Dynamic, Eigen::Dynamic>(
      ea::Matrix::Identity(4, 4), ea::Matrix::Ones(2, 4), ea::Vector::Constant(4, nan), ea::Vector::Zero(2), 0.0);
  BOOST_TEST(s.a.size() == 4);
  BOOST_TEST(s.lambda.size() == 2);
  BOOST_TEST(all_nan(s));
}
