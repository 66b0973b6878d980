#pragma once
/// \file
/// How far given accelerations are from satisfying Lagrange's equations (docs/mathematics.md):
/// the residual of
///
///     M(q, t) a = r ,   M = ∂²T/∂v² ,   r = f + ∂L/∂q − (∂²T/∂v∂q) v − ∂²T/∂v∂t ,  L = T − V
///
/// at a state (q, v, t) and accelerations a, typically a model's hand-derived ones, with M a and
/// the terms of r from the model's own T, V and f by automatic differentiation
/// (lagrange_equation_terms.hpp). It complements the energy audit: a wrong term in the equations whose
/// force does no work (a gyroscopic b (v_y, −v_x), say) leaves C = H + Z constant, but not this
/// residual. The residual looks at one state and does not depend on the integration step.

#include <cmath>
#include <utility>

#include <Eigen/Core>

#include "energy_audit/constraint_terms.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_equation_terms.hpp"
#include "energy_audit/multiplier_model.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// The residual of Lagrange's equations at one state, and the size of their terms to judge it by.
struct EquationResidual {
  /// ‖M a − r‖∞ (‖M a − r − Gᵀλ‖∞ with multipliers), in the units of the generalized forces.
  double residual = 0;
  /// max_i (|(M a)_i| + |f_i| + |(∂L/∂q)_i| + |((∂²T/∂v∂q) v + ∂²T/∂v∂t)_i| (+ |(Gᵀλ)_i|)): the
  /// largest sum of the terms' magnitudes in one equation, so that residual / scale is the
  /// relative error of the equations, at round-off (about 1e-16) when a solves them exactly.
  double scale = 0;
  /// |(M a − r)_i| (|(M a − r − Gᵀλ)_i| with multipliers) for each coordinate i, in the order of
  /// the model's coordinates: the equation of coordinate i is row i of M a = r. Their largest is
  /// `residual`. Empty where a caller gives only the two numbers above.
  Vector coordinates;
};

namespace detail {

/// The residual of M a = r + constraint_force from the equation's terms at a; r is summed as
/// lagrange_terms() sums it. Both numbers are NaN when a term is NaN (PropagateNaN: Eigen's default
/// max may drop a NaN).
template <int n>
EquationResidual residual_of(const LagrangeEquationTerms<n>& terms, const VectorN<double, n>& constraint_force) {
  VectorN<double, n> error, term_sizes;
  for (int i = 0; i < n; ++i) {
    const double r = terms.forces[i] + terms.lagrangian_gradient[i] - terms.convective[i];
    error[i] = terms.inertia[i] - r - constraint_force[i];
    term_sizes[i] = std::abs(terms.inertia[i]) + std::abs(terms.forces[i]) + std::abs(terms.lagrangian_gradient[i]) +
                    std::abs(terms.convective[i]) + std::abs(constraint_force[i]);
  }
  Vector coordinates = error.cwiseAbs();
  const double residual = coordinates.template maxCoeff<Eigen::PropagateNaN>();
  return {residual, term_sizes.template maxCoeff<Eigen::PropagateNaN>(), std::move(coordinates)};
}

}  // namespace detail

/// The residual of Lagrange's equations at accelerations a in the state (q, v, t):
///
///     residual = ‖M a − r‖∞ ,   scale = max_i (|(M a)_i| + |f_i| + |(∂L/∂q)_i| + |((∂²T/∂v∂q) v + ∂²T/∂v∂t)_i|)
///
/// with M a, f, ∂L/∂q and the convective term from lagrange_equation_terms(). For a model without
/// constraints; a multiplier model takes its multipliers (the overload below).
template <LagrangeModel M>
  requires(!MultiplierModel<M>)
EquationResidual equation_residual(const M& model, const VectorN<double, M::dofs>& q,
                                   const VectorN<double, M::dofs>& v, const VectorN<double, M::dofs>& a, double t) {
  return detail::residual_of<M::dofs>(lagrange_equation_terms(model, q, v, a, t), VectorN<double, M::dofs>::Zero());
}

/// The residual of Lagrange's equations with multipliers, M a = r + Gᵀλ, at accelerations a and
/// multipliers λ in the state (q, v, t):
///
///     residual = ‖M a − r − Gᵀλ‖∞ ,   scale = max_i (|(M a)_i| + |f_i| + |(∂L/∂q)_i| + |((∂²T/∂v∂q) v + ∂²T/∂v∂t)_i| + |(Gᵀλ)_i|)
///
/// λ has the sign of M a = r + Gᵀλ (MultiplierSystem::Rates::lambda), not a model's reported
/// sign. G = ∂ψ/∂v comes from constraint_terms(). The constraints themselves (G a + Ġ v + ġ = 0,
/// Φ, ψ) are not part of this residual: the audit reports their drift.
template <MultiplierModel M>
EquationResidual equation_residual(const M& model, const VectorN<double, M::dofs>& q,
                                   const VectorN<double, M::dofs>& v, const VectorN<double, M::dofs>& a,
                                   const VectorN<double, M::constraints>& lambda, double t) {
  const ConstraintTerms<M::dofs, M::constraints> constraints = constraint_terms(model, q, v, t);
  const VectorN<double, M::dofs> constraint_force = constraints.G.transpose() * lambda;
  return detail::residual_of<M::dofs>(lagrange_equation_terms(model, q, v, a, t), constraint_force);
}

}  // namespace energy_audit
