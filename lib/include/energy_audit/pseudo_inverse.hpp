#pragma once
/// \file
/// The Moore–Penrose pseudo-inverse f_q⁺ = f_qᵀ (f_q f_qᵀ)⁻¹ of a constraint Jacobian f_q (m × n,
/// full row rank m < n) and bases of its null space, from one column-pivoting Householder QR of
/// f_qᵀ, never an explicit inverse: with f_qᵀ P = Q R (Q n × n orthogonal, R upper triangular),
/// f_q⁺ r = Q₁ R₁⁻ᵀ Pᵀ r, Q₁ the first m columns of Q and R₁ the leading m × m block of R; the last
/// n − m columns of Q are an orthonormal basis of the null space of f_q.

#include <string>

#include <Eigen/LU>
#include <Eigen/QR>

#include "energy_audit/error.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class PseudoInverse {
 public:
  /// Throws energy_audit::Error when f_q has no more columns than rows or is rank-deficient
  /// (its constraints are dependent, or singular at this state).
  explicit PseudoInverse(const Matrix& fq) : rows_(fq.rows()), qr_(fq.transpose()) {
    if (fq.rows() >= fq.cols()) {
      throw Error("pseudo-inverse: the constraint Jacobian is " + std::to_string(fq.rows()) + " x " +
                  std::to_string(fq.cols()) + "; it needs fewer constraints than coordinates");
    }
    if (qr_.rank() < rows_) {
      throw Error("pseudo-inverse: the constraint Jacobian has rank " + std::to_string(qr_.rank()) + " of " +
                  std::to_string(rows_) + " (dependent or singular constraints)");
    }
  }

  /// f_q⁺ r for r of m entries: the least-norm solution x of f_q x = r.
  Vector apply(const Vector& r) const {
    const Index m = rows_;
    Vector z = qr_.colsPermutation().transpose() * r;
    qr_.matrixQR().topLeftCorner(m, m).template triangularView<Eigen::Upper>().transpose().solveInPlace(z);
    Vector x = Vector::Zero(qr_.rows());
    x.head(m) = z;
    return qr_.householderQ() * x;
  }

  /// An orthonormal basis of the null space of f_q: n × (n − m), NᵀN = I, f_q N = 0.
  Matrix orthonormal_null_space() const {
    const Index n = qr_.rows();
    Matrix basis = Matrix::Identity(n, n).rightCols(n - rows_);
    basis.applyOnTheLeft(qr_.householderQ());
    return basis;
  }

 private:
  Index rows_;
  Eigen::ColPivHouseholderQR<Matrix> qr_;
};

/// The generalized cross product of the n − 1 rows of A (n − 1 × n): the vector N with
/// N_i = (−1)^i det(A without column i) (i from 0), orthogonal to every row, of length the
/// (n − 1)-volume the rows span, zero when they are dependent. For one row [a, b] it is [b, −a],
/// for two rows in 3-space their cross product (seed 001's construction of the null space).
inline Vector generalized_cross_product(const Matrix& A) {
  const Index n = A.cols();
  if (A.rows() != n - 1) {
    throw Error("generalized cross product: " + std::to_string(A.rows()) + " rows of " + std::to_string(n) +
                " entries; it needs n - 1 rows");
  }
  Vector N(n);
  for (Index i = 0; i < n; ++i) {
    Matrix minor(n - 1, n - 1);
    minor << A.leftCols(i), A.rightCols(n - 1 - i);
    const double det = n == 1 ? 1.0 : minor.determinant();
    N[i] = i % 2 == 0 ? det : -det;
  }
  return N;
}

}  // namespace energy_audit
