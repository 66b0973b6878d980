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

/// Read-only view of contiguous doubles: a whole vector, a segment of one (`y.head(n)`) or a Map
/// of solver memory, converted implicitly; nothing is copied or owned. Unlike
/// Eigen::Ref<const Vector>, which carries a fallback copy it must free, making and dropping
/// one per right-hand-side call costs nothing. An expression not stored contiguously does not
/// convert: evaluate it into a Vector first.
class ConstVectorRef : public Eigen::Map<const Vector> {
 public:
  ConstVectorRef(const double* data, Index size) : Eigen::Map<const Vector>(data, size) {}

  template <class Derived>
    requires(bool(Derived::IsVectorAtCompileTime) && Derived::InnerStrideAtCompileTime == 1 &&
             (Derived::Flags & Eigen::DirectAccessBit) != 0)
  ConstVectorRef(const Eigen::DenseBase<Derived>& v)  // implicit, like Eigen::Ref
      : Eigen::Map<const Vector>(v.derived().data(), v.size()) {}
};

}  // namespace energy_audit
