#pragma once
/// \file
/// The index-1 saddle-point system of a multiplier model (docs/mathematics.md),
///
///     [ M  −Gᵀ ] [ a ]   [ r ]
///     [ G   0  ] [ λ ] = [ c ] ,
///
/// solved through the Schur complement: M is symmetric positive definite (Cholesky), and
/// S = G M⁻¹ Gᵀ is factored with column-pivoting QR, whose rank tells a singular G apart.

#include <limits>
#include <string>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "energy_audit/all_finite.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

template <int n, int m>
struct SaddlePointSolution {
  VectorN<double, n> a;
  VectorN<double, m> lambda;
};

/// Throws Error naming t when M is not positive definite or G has rank < m. A state that has
/// left the finite range (terms, or the Schur complement, not finite) has no such defect to
/// report: the solution is then NaN, which every integrator takes for divergence. n and m may be
/// Eigen::Dynamic.
template <int n, int m>
SaddlePointSolution<n, m> solve_saddle_point(const Eigen::Matrix<double, n, n>& M,
                                             const Eigen::Matrix<double, m, n>& G, const VectorN<double, n>& r,
                                             const VectorN<double, m>& c, double t) {
  const auto not_finite = [&] {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    return SaddlePointSolution<n, m>{VectorN<double, n>::Constant(r.size(), nan),
                                     VectorN<double, m>::Constant(c.size(), nan)};
  };
  if (!all_finite(M) || !all_finite(G) || !all_finite(r) || !all_finite(c)) return not_finite();
  const Eigen::LLT<Eigen::Matrix<double, n, n>> cholesky(M);
  if (cholesky.info() != Eigen::Success) {
    throw Error("mass matrix d2T/dv2 is not positive definite at t = " + to_text(t));
  }
  const Eigen::Matrix<double, n, m> M_inv_Gt = cholesky.solve(G.transpose());
  const VectorN<double, n> M_inv_r = cholesky.solve(r);
  const Eigen::Matrix<double, m, m> schur = G * M_inv_Gt;
  if (!all_finite(schur) || !all_finite(M_inv_r)) return not_finite();  // it overflowed
  Eigen::ColPivHouseholderQR<Eigen::Matrix<double, m, m>> qr(schur);
  qr.setThreshold(1e-10);  // relative to the largest pivot
  if (!all_finite(qr.matrixQR())) return not_finite();
  if (qr.rank() < G.rows()) {  // G.rows(), not m: m may be Eigen::Dynamic
    throw Error("constraint Jacobian G is singular (rank " + std::to_string(qr.rank()) + " of " +
                std::to_string(G.rows()) + ") at t = " + to_text(t));
  }
  SaddlePointSolution<n, m> s;
  s.lambda = qr.solve(c - G * M_inv_r);
  s.a = M_inv_r + M_inv_Gt * s.lambda;
  return s;
}

}  // namespace energy_audit
