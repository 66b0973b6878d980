#pragma once
/// \file
/// Accelerations derived from T, V and f through Lagrange's equations of the second kind
/// (docs/mathematics.md): a = M⁻¹ r with M and r from lagrange_terms().

#include <string>

#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_terms.hpp"
#include "energy_audit/positive_definite_solve.hpp"

namespace energy_audit {

template <LagrangeModel M>
VectorN<double, M::dofs> derived_accelerations(const M& model, const VectorN<double, M::dofs>& q,
                                               const VectorN<double, M::dofs>& v, double t) {
  const LagrangeTerms<M::dofs> terms = lagrange_terms(model, q, v, t);
  VectorN<double, M::dofs> a;
  if (!solve_positive_definite(terms.mass, terms.rhs, a)) {
    throw Error("mass matrix d2T/dv2 is not positive definite at t = " + to_text(t));
  }
  return a;
}

}  // namespace energy_audit
