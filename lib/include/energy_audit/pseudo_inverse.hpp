#pragma once
/// \file
/// The Moore–Penrose pseudo-inverse f_q⁺ = f_qᵀ (f_q f_qᵀ)⁻¹ of a constraint Jacobian f_q (m × n,
/// full row rank m < n) and bases of its null space, from one column-pivoting Householder QR of
/// f_qᵀ, never an explicit inverse: with f_qᵀ P = Q R (Q n × n orthogonal, R upper triangular),
/// f_q⁺ r = Q₁ R₁⁻ᵀ Pᵀ r, Q₁ the first m columns of Q and R₁ the leading m × m block of R; the last
/// n − m columns of Q are an orthonormal basis of the null space of f_q.

#include <limits>
#include <string>

#include <Eigen/LU>
#include <Eigen/QR>

#include "energy_audit/all_finite.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// m × n known at compile time (fixed-size, nothing allocated) or Eigen::Dynamic.
template <int m = Eigen::Dynamic, int n = Eigen::Dynamic>
class PseudoInverse {
 public:
  using Jacobian = Eigen::Matrix<double, m, n>;
  using Residual = Eigen::Matrix<double, m, 1>;
  using Velocity = Eigen::Matrix<double, n, 1>;
  using NullSpace = Eigen::Matrix<double, n, (m == Eigen::Dynamic || n == Eigen::Dynamic) ? Eigen::Dynamic : n - m>;

  /// Throws energy_audit::Error when f_q has no more columns than rows or is rank-deficient
  /// (its constraints are dependent, or singular at this state). An f_q that is not finite, or
  /// whose factors overflow (a state that blew up), has no rank to judge: apply() and the null
  /// space are then NaN, which the integrators take for divergence.
  explicit PseudoInverse(const Jacobian& fq) : rows_(fq.rows()), qr_(fq.transpose()) {
    if (fq.rows() >= fq.cols()) {
      throw Error("pseudo-inverse: the constraint Jacobian is " + std::to_string(fq.rows()) + " x " +
                  std::to_string(fq.cols()) + "; it needs fewer constraints than coordinates");
    }
    finite_ = all_finite(fq) && all_finite(qr_.matrixQR());
    if (finite_ && qr_.rank() < rows_) {
      throw Error("pseudo-inverse: the constraint Jacobian has rank " + std::to_string(qr_.rank()) + " of " +
                  std::to_string(rows_) + " (dependent or singular constraints)");
    }
  }

  /// f_q⁺ r for r of m entries: the least-norm solution x of f_q x = r.
  Velocity apply(const Residual& r) const {
    if (!finite_) return Velocity::Constant(qr_.rows(), std::numeric_limits<double>::quiet_NaN());
    Residual z = qr_.colsPermutation().transpose() * r;
    qr_.matrixQR().topLeftCorner(rows_, rows_).template triangularView<Eigen::Upper>().transpose().solveInPlace(z);
    Velocity x = Velocity::Zero(qr_.rows());
    x.head(rows_) = z;
    return qr_.householderQ() * x;
  }

  /// An orthonormal basis of the null space of f_q: n × (n − m), NᵀN = I, f_q N = 0.
  NullSpace orthonormal_null_space() const {
    const Index columns = qr_.rows();
    NullSpace basis = Matrix::Identity(columns, columns).rightCols(columns - rows_);
    if (!finite_) return basis.setConstant(std::numeric_limits<double>::quiet_NaN());
    basis.applyOnTheLeft(qr_.householderQ());
    return basis;
  }

 private:
  Index rows_;
  bool finite_ = true;
  Eigen::ColPivHouseholderQR<Eigen::Matrix<double, n, m>> qr_;  // of f_qᵀ
};

/// The generalized cross product of the n − 1 rows of A (n − 1 × n): the vector N with
/// N_i = (−1)^i det(A without column i) (i from 0), orthogonal to every row, of length the
/// (n − 1)-volume the rows span, zero when they are dependent. For one row [a, b] it is [b, −a],
/// for two rows in 3-space their cross product (seed 001's construction of the null space).
template <class Derived>
Eigen::Matrix<double, Derived::ColsAtCompileTime, 1> generalized_cross_product(const Eigen::MatrixBase<Derived>& A) {
  constexpr int columns = Derived::ColsAtCompileTime;
  constexpr int minor_size = columns == Eigen::Dynamic ? Eigen::Dynamic : columns - 1;
  const Index n = A.cols();
  if (A.rows() != n - 1) {
    throw Error("generalized cross product: " + std::to_string(A.rows()) + " rows of " + std::to_string(n) +
                " entries; it needs n - 1 rows");
  }
  Eigen::Matrix<double, columns, 1> N(n);
  for (Index i = 0; i < n; ++i) {
    Eigen::Matrix<double, minor_size, minor_size> minor(n - 1, n - 1);
    minor.leftCols(i) = A.leftCols(i);
    minor.rightCols(n - 1 - i) = A.rightCols(n - 1 - i);
    const double det = minor.determinant();  // 1 for the empty minor of n = 1
    N[i] = i % 2 == 0 ? det : -det;
  }
  return N;
}

}  // namespace energy_audit
