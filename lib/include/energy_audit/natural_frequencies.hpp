#pragma once
/// \file
/// Small oscillations about a static equilibrium q_eq of V at time t:
///
///     M ẍ + K x = 0 ,   M = ∂²T/∂v² (q_eq, 0, t) ,   K = ∇²V(q_eq, t) ,
///
/// natural frequencies sqrt(max(λ, 0)) / (2π) for the eigenvalues λ of M⁻¹ K. ∇V and ∇²V come
/// from the model's V by nested forward-mode differentiation (dual.hpp), M from lagrange_terms().
/// K and M are symmetric and M is positive definite, so the λ are the real eigenvalues of the
/// symmetric-definite pencil (K, M); they are found by the Cholesky factor of M and the cyclic
/// Jacobi method, small fixed-size loops like positive_definite_solve.hpp's.

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <Eigen/Core>

#include "energy_audit/dual.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_terms.hpp"

namespace energy_audit {

/// ∇V and ∇²V at one configuration.
template <int n>
struct PotentialDerivatives {
  VectorN<double, n> gradient;         ///< ∇V [N or N m]
  Eigen::Matrix<double, n, n> hessian;  ///< ∇²V, the stiffness K
};

/// ∇V(q, t) and ∇²V(q, t) from the model's V by nested forward-mode differentiation.
template <LagrangeModel M>
PotentialDerivatives<M::dofs> potential_derivatives(const M& model, const VectorN<double, M::dofs>& q, double t) {
  constexpr int n = M::dofs;
  using Inner = Dual<double, n>;
  using Outer = Dual<Inner, n>;
  VectorN<Outer, n> q_dual;  // seeded entry by entry into zero Duals, as lagrange_terms.hpp does
  for (int i = 0; i < n; ++i) {
    q_dual[i].value.value = q[i];
    q_dual[i].value.derivatives[i] = 1.0;
    q_dual[i].derivatives[i].value = 1.0;
  }
  Outer t_dual;
  t_dual.value.value = t;
  const Outer V = model.potential_energy(q_dual, t_dual);
  PotentialDerivatives<n> d;
  for (int i = 0; i < n; ++i) {
    d.gradient[i] = V.value.derivatives[i];
    for (int j = 0; j < n; ++j) d.hessian(i, j) = V.derivatives[j].derivatives[i];
  }
  return d;
}

/// The eigenvalues λ of K x = λ M x for symmetric K and symmetric positive definite M, ascending
/// (those of M⁻¹ K). M = L Lᵀ by Cholesky, then the cyclic Jacobi method diagonalizes the
/// symmetric L⁻¹ K L⁻ᵀ until its off-diagonal part is below round-off of its norm.
/// \return false when M is not positive definite (eigenvalues untouched).
template <int n>
bool symmetric_pencil_eigenvalues(const Eigen::Matrix<double, n, n>& K, const Eigen::Matrix<double, n, n>& M,
                                  VectorN<double, n>& eigenvalues) {
  Eigen::Matrix<double, n, n> L = Eigen::Matrix<double, n, n>::Zero();
  for (int j = 0; j < n; ++j) {
    double pivot = M(j, j);
    for (int k = 0; k < j; ++k) pivot -= L(j, k) * L(j, k);
    if (!(pivot > 0)) return false;
    L(j, j) = std::sqrt(pivot);
    for (int i = j + 1; i < n; ++i) {
      double sum = M(i, j);
      for (int k = 0; k < j; ++k) sum -= L(i, k) * L(j, k);
      L(i, j) = sum / L(j, j);
    }
  }
  // L⁻¹ X column by column (forward substitution).
  const auto solve_lower = [&L](const Eigen::Matrix<double, n, n>& X) {
    Eigen::Matrix<double, n, n> Y;
    for (int c = 0; c < n; ++c) {
      for (int i = 0; i < n; ++i) {
        double sum = X(i, c);
        for (int k = 0; k < i; ++k) sum -= L(i, k) * Y(k, c);
        Y(i, c) = sum / L(i, i);
      }
    }
    return Y;
  };
  const Eigen::Matrix<double, n, n> LinvK = solve_lower(K);
  Eigen::Matrix<double, n, n> A = solve_lower(LinvK.transpose());  // L⁻¹ (L⁻¹ K)ᵀ = L⁻¹ K L⁻ᵀ
  A = (0.5 * (A + A.transpose())).eval();

  const double norm2 = A.squaredNorm();
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off2 = 0;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) off2 += A(p, q) * A(p, q);
    }
    if (off2 <= 1e-34 * norm2) break;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        if (A(p, q) == 0.0) continue;
        // The rotation in the (p, q) plane that zeroes A(p, q) (the smaller of the two angles).
        const double theta = (A(q, q) - A(p, p)) / (2 * A(p, q));
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // A J
          const double a_kp = A(k, p), a_kq = A(k, q);
          A(k, p) = c * a_kp - s * a_kq;
          A(k, q) = s * a_kp + c * a_kq;
        }
        for (int k = 0; k < n; ++k) {  // Jᵀ (A J)
          const double a_pk = A(p, k), a_qk = A(q, k);
          A(p, k) = c * a_pk - s * a_qk;
          A(q, k) = s * a_pk + c * a_qk;
        }
        A(p, q) = A(q, p) = 0.0;
      }
    }
  }
  eigenvalues = A.diagonal();
  std::sort(eigenvalues.data(), eigenvalues.data() + n);
  return true;
}

/// The natural frequencies [Hz] about q_eq at time t, ascending: sqrt(max(λ, 0)) / (2π) for the
/// eigenvalues λ of M(q_eq, t)⁻¹ ∇²V(q_eq, t); an unstable direction (λ < 0) gives 0. q_eq is
/// the caller's: ∇V(q_eq, t) = 0 is not checked. Throws Error when M is not positive definite.
template <LagrangeModel M>
std::array<double, M::dofs> natural_frequencies(const M& model, const VectorN<double, M::dofs>& q_eq, double t) {
  constexpr int n = M::dofs;
  const Eigen::Matrix<double, n, n> mass = lagrange_terms(model, q_eq, VectorN<double, n>::Zero().eval(), t).mass;
  VectorN<double, n> lambda;
  if (!symmetric_pencil_eigenvalues<n>(potential_derivatives(model, q_eq, t).hessian, mass, lambda)) {
    throw Error("natural_frequencies: mass matrix d2T/dv2 is not positive definite");
  }
  std::array<double, n> frequencies{};
  for (int i = 0; i < n; ++i) frequencies[i] = std::sqrt(std::max(lambda[i], 0.0)) / (2 * std::numbers::pi);
  return frequencies;
}

}  // namespace energy_audit
