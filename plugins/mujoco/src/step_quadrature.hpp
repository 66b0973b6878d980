#pragma once
/// \file
/// The weights that integrate, over one step [a, b], the polynomial through values at up to four
/// node times (the step's ends and their neighbours): w_j = ∫_a^b L_j(t) dt with the Lagrange
/// basis L_j of the nodes, by 2-point Gauss–Legendre quadrature, exact for the cubic. With the
/// nodes t_{i−1}, t_i, t_{i+1}, t_{i+2} around the step [t_i, t_{i+1}] (one-sided at the run's
/// ends) the work of a smooth power is accurate to O(h⁵) per step, O(h⁴) over a fixed interval
/// (docs/mathematics.md, the MuJoCo audit's quadrature).

#include <array>
#include <cmath>
#include <cstddef>

namespace energy_audit::mujoco::detail {

inline constexpr std::size_t max_stencil_nodes = 4;

/// Weights for `count` (1 to 4) nodes at `times` over [a, b].
inline std::array<double, max_stencil_nodes> step_weights(const double* times, std::size_t count, double a, double b) {
  std::array<double, max_stencil_nodes> weights{};
  const double half = 0.5 * (b - a), middle = 0.5 * (a + b), offset = half / std::sqrt(3.0);
  for (const double x : {middle - offset, middle + offset}) {
    for (std::size_t j = 0; j < count; ++j) {
      double basis = 1;
      for (std::size_t k = 0; k < count; ++k) {
        if (k != j) basis *= (x - times[k]) / (times[j] - times[k]);
      }
      weights[j] += half * basis;
    }
  }
  return weights;
}

}  // namespace energy_audit::mujoco::detail
