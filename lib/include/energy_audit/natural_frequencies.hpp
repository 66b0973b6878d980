#pragma once
/// \file
/// Small oscillations about a static equilibrium q_eq of V at time t:
///
///     M ẍ + K x = 0 ,   M = ∂²T/∂v² (q_eq, 0, t) ,   K = ∇²V(q_eq, t) ,
///
/// natural frequencies sqrt(max(λ, 0)) / (2π) for the eigenvalues λ of M⁻¹ K. ∇V and ∇²V come
/// from the model's V by nested forward-mode differentiation (dual.hpp), M from lagrange_terms().
/// K and M are symmetric and M is positive definite, so the λ are the real eigenvalues of the
/// symmetric-definite pencil (K, M).

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>

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
/// (those of M⁻¹ K), by Eigen's solver of the symmetric-definite pencil (run-time sizes: with
/// fixed ones GCC 12 warns of uninitialized reads inside it).
/// \return false when M is not positive definite (eigenvalues untouched).
template <int n>
bool symmetric_pencil_eigenvalues(const Eigen::Matrix<double, n, n>& K, const Eigen::Matrix<double, n, n>& M,
                                  VectorN<double, n>& eigenvalues) {
  const Matrix mass = M, stiffness = K;
  if (Eigen::LLT<Matrix>(mass).info() != Eigen::Success) return false;
  const Eigen::GeneralizedSelfAdjointEigenSolver<Matrix> pencil(stiffness, mass, Eigen::EigenvaluesOnly);
  eigenvalues = pencil.eigenvalues();
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
