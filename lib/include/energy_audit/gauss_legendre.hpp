#pragma once
/// \file
/// Gauss–Legendre quadrature on [0, 1]: k nodes integrate polynomials of degree 2k − 1 exactly,
/// so the mean of a smooth function over an interval of length h is found to O(h^2k). The nodes
/// are the zeros of the Legendre polynomial P_k (Boost.Math), the weights 1 / ((1 − x²) P_k'(x)²)
/// on [−1, 1] halved.

#include <boost/math/special_functions/legendre.hpp>
#include <vector>

#include "energy_audit/error.hpp"

namespace energy_audit {

struct QuadratureRule {
  std::vector<double> nodes;    ///< in (0, 1)
  std::vector<double> weights;  ///< summing to 1: Σ w_i g(x_i) is the mean of g over [0, 1]
};

/// The k-point Gauss–Legendre rule on [0, 1], k >= 1.
inline QuadratureRule gauss_legendre(int points) {
  if (points < 1) throw InvalidArgument("a Gauss-Legendre rule needs at least one node");
  QuadratureRule rule;
  // Boost gives the zeros x >= 0 of P_k on [−1, 1]; the others are −x.
  for (const double x : boost::math::legendre_p_zeros<double>(points)) {
    const double derivative = boost::math::legendre_p_prime(points, x);
    const double weight = 1.0 / ((1.0 - x * x) * derivative * derivative);  // half of [−1, 1]'s
    rule.nodes.push_back(0.5 * (1.0 + x));
    rule.weights.push_back(weight);
    if (x != 0.0) {
      rule.nodes.push_back(0.5 * (1.0 - x));
      rule.weights.push_back(weight);
    }
  }
  return rule;
}

}  // namespace energy_audit
