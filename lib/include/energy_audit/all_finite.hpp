#pragma once
/// \file
/// Whether a state (or a right-hand side) is finite: the divergence check of every integrator.

#include <Eigen/Core>

#include "energy_audit/types.hpp"

namespace energy_audit {

/// True when every entry is finite. It runs at every step or evaluation, so it has no branch per
/// entry: x * 0 is ±0 for finite x and NaN for ±inf and NaN, so the sum is 0 exactly when all
/// entries are finite.
template <class Derived>
bool all_finite(const Eigen::DenseBase<Derived>& x) {
  double zero_if_finite = 0.0;
  for (Index i = 0; i < x.size(); ++i) zero_if_finite += x.coeff(i) * 0.0;
  return zero_if_finite == 0.0;
}

}  // namespace energy_audit
