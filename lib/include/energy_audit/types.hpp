#pragma once
/// \file
/// Vector and matrix aliases shared by the whole library.

#include <type_traits>

#include <Eigen/Core>

namespace energy_audit {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using Index = Eigen::Index;

/// Vector of n entries of scalar type S (n known at compile time, or Eigen::Dynamic).
template <class S, int n>
using VectorN = Eigen::Matrix<S, n, 1>;

/// The most rows of a square matrix of doubles that the library keeps in a fixed-size
/// Eigen::Matrix: 128 × 128 doubles are Eigen's limit on fixed-size objects (its
/// EIGEN_STACK_ALLOCATION_LIMIT, 128 KiB).
inline constexpr int max_fixed_size_square_matrix = 128;

/// An n × n matrix of doubles (a mass matrix): fixed-size up to max_fixed_size_square_matrix rows,
/// where the compiler can unroll and keep it on the stack; heap-backed and sized n × n above.
template <int n>
using SquareMatrix =
    std::conditional_t<(n <= max_fixed_size_square_matrix), Eigen::Matrix<double, n, n>, Eigen::MatrixXd>;

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
