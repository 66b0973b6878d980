#pragma once
/// \file
/// Accelerations derived from T, V and f through Lagrange's equations of the second kind
/// (the README's "The mathematics"): a = M⁻¹ r with M and r from lagrange_terms().

#include <string>

#include <Eigen/Cholesky>

#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_terms.hpp"

namespace energy_audit {

template <LagrangeModel M>
VectorN<double, M::dofs> derived_accelerations(const M& model, const VectorN<double, M::dofs>& q,
                                               const VectorN<double, M::dofs>& v, double t) {
  const LagrangeTerms<M::dofs> terms = lagrange_terms(model, q, v, t);
  const Eigen::LLT<Eigen::Matrix<double, M::dofs, M::dofs>> cholesky(terms.mass);
  if (cholesky.info() != Eigen::Success) {
    throw Error("mass matrix d2T/dv2 is not positive definite at t = " + to_text(t));
  }
  return cholesky.solve(terms.rhs);
}

}  // namespace energy_audit
