#pragma once
/// \file
/// Checks what a model declares about itself against its own energies.

#include <cmath>
#include <string>

#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_terms.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// A `scleronomic` declaration lets the library skip the split of T and the time derivatives;
/// this checks it at one generic state: T0 = T1 = 0 and no explicit t-dependence of T and V.
/// Throws InvalidArgument naming the term that contradicts it.
template <LagrangeModel M>
void check_declarations(const M& model) {
  if constexpr (is_scleronomic<M>) {
    constexpr int n = M::dofs;
    const VectorN<double, n> q = VectorN<double, n>::LinSpaced(0.1, 0.1 * n);
    const VectorN<double, n> v = VectorN<double, n>::LinSpaced(0.7, 0.7 + 0.3 * n);
    const double t = 0.37;
    const ExplicitTimeDerivatives d = differentiate_in_time(model, q, v, t);
    const EnergyTerms e = split_energy_terms(model, q, v, t);
    const double scale = std::abs(e.T) + std::abs(e.T0) + 1.0;
    const auto require_zero = [scale](double value, const char* what) {
      if (std::abs(value) > 1e-12 * scale) {
        throw InvalidArgument(std::string("model declares scleronomic but ") + what + " != 0");
      }
    };
    require_zero(d.T_t, "dT/dt");
    require_zero(d.V_t, "dV/dt");
    require_zero(e.T0, "T0");
    require_zero(e.T1, "T1");
  }
}

}  // namespace energy_audit
