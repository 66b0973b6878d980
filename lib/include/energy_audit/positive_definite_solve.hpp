#pragma once
/// \file
/// Solving M x = b for a symmetric positive definite M of size fixed at compile time.

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "energy_audit/types.hpp"

namespace energy_audit {

/// Solves M x = b by M = L D Lᵀ (L unit lower triangular, D diagonal), reading M's lower triangle.
///
/// For the mass matrices of derived_accelerations(): fully inlined and without square roots, it
/// avoids the out-of-line blocked loops of Eigen::LLT, which pay off only for matrices far larger
/// than a model's few coordinates. A heap-backed M (above max_fixed_size_square_matrix rows) is
/// such a matrix: it goes to Eigen::LLT, whose factor lives on the heap too.
/// \return false when a pivot of D is ≤ 0, i.e. M is not positive definite. A NaN pivot passes,
///         as in Eigen::LLT, so a state gone NaN gives NaN accelerations rather than an error.
template <int n>
bool solve_positive_definite(const SquareMatrix<n>& M, const VectorN<double, n>& b, VectorN<double, n>& x) {
  if constexpr (n > max_fixed_size_square_matrix) {
    const Eigen::LLT<Eigen::MatrixXd> cholesky(M);
    if (cholesky.info() != Eigen::Success) return false;
    x = cholesky.solve(b);
    return true;
  } else {
    double L[n][n];  // below the diagonal only
    double d[n], inverse_d[n];
    for (int j = 0; j < n; ++j) {
      d[j] = M(j, j);
      for (int k = 0; k < j; ++k) d[j] -= L[j][k] * L[j][k] * d[k];
      if (d[j] <= 0) return false;
      inverse_d[j] = 1.0 / d[j];
      for (int i = j + 1; i < n; ++i) {
        double sum = M(i, j);
        for (int k = 0; k < j; ++k) sum -= L[i][k] * L[j][k] * d[k];
        L[i][j] = sum * inverse_d[j];
      }
    }
    for (int i = 0; i < n; ++i) {  // L y = b
      x[i] = b[i];
      for (int k = 0; k < i; ++k) x[i] -= L[i][k] * x[k];
    }
    for (int i = n - 1; i >= 0; --i) {  // Lᵀ x = D⁻¹ y
      x[i] *= inverse_d[i];
      for (int k = i + 1; k < n; ++k) x[i] -= L[k][i] * x[k];
    }
    return true;
  }
}

}  // namespace energy_audit
