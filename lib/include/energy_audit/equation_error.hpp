#pragma once
/// \file
/// A deliberate error in a model's equations of motion, for wrong twins of models whose
/// equations the library derives (multiplier and Maggi forms): the model gives
///
///     VectorN<double, dofs> equation_error(const Coordinates<double>& q, const Coordinates<double>& v,
///                                          double t) const;
///
/// which those forms add to the right-hand side r of M a = r + Gᵀλ, as a mistake in a derivation
/// would. T, V, f, Ż and C do not see it, so the audit judges the wrong equations against the
/// right energy balance. A model with hand-written accelerations carries its error in them.

#include <concepts>

#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_terms.hpp"

namespace energy_audit {

template <class M>
concept HasEquationError = requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
  { model.equation_error(q, q, t) } -> std::convertible_to<VectorN<double, M::dofs>>;
};

/// M and r of the equations the model is integrated with: Lagrange's terms (lagrange_terms.hpp)
/// plus the model's equation_error, if it has one.
template <LagrangeModel M>
LagrangeTerms<M::dofs> equations_of_motion(const M& model, const VectorN<double, M::dofs>& q,
                                           const VectorN<double, M::dofs>& v, double t) {
  LagrangeTerms<M::dofs> terms = lagrange_terms(model, q, v, t);
  if constexpr (HasEquationError<M>) terms.rhs += model.equation_error(q, v, t);
  return terms;
}

}  // namespace energy_audit
