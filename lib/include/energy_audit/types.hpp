#pragma once
/// \file
/// Vector and matrix aliases shared by the whole library.

#include <Eigen/Core>

namespace energy_audit {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using Index = Eigen::Index;

/// Vector of n entries of scalar type S (n known at compile time, or Eigen::Dynamic).
template <class S, int n>
using VectorN = Eigen::Matrix<S, n, 1>;

/// Read-only view of a vector or of a segment of one (`y.head(n)`), without a copy.
using ConstVectorRef = Eigen::Ref<const Vector>;

/// Read-only view of contiguous doubles: a pointer and a size. Unlike ConstVectorRef it owns no
/// fallback copy, so making and dropping one per step costs nothing.
using ConstVectorView = Eigen::Map<const Vector>;

}  // namespace energy_audit
