#pragma once
/// \file
/// Z over part of the last step by Gauss–Legendre quadrature (energy_audit/gauss_legendre.hpp) on
/// the solver's own interpolant, with the named works over the same nodes.

#include <algorithm>
#include <cstddef>
#include <energy_audit/gauss_legendre.hpp>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>

#include "drop_in_energy_evaluation.hpp"

namespace energy_audit::sun::detail {

/// The 4-point rule on [0, 1] (exact for polynomials of degree 7), its nodes in increasing order so
/// that the sums run from the interval's start to its end.
inline const QuadratureRule& flow_rule() {
  static const QuadratureRule rule = [] {
    const QuadratureRule unordered = gauss_legendre(4);
    std::vector<std::pair<double, double>> pairs;
    for (std::size_t i = 0; i < unordered.nodes.size(); ++i) pairs.emplace_back(unordered.nodes[i], unordered.weights[i]);
    std::sort(pairs.begin(), pairs.end());
    QuadratureRule ordered;
    for (const auto& [node, weight] : pairs) {
      ordered.nodes.push_back(node);
      ordered.weights.push_back(weight);
    }
    return ordered;
  }();
  return rule;
}

class DropInFlowIntegral {
 public:
  /// ∫ Ż dt from a to b, both in the last step, with `interpolate(t, y, k)` writing the k-th
  /// derivative of the solver's interpolant at t into y (the first into `y_rate` at each node
  /// when it is not null); each named power's integral over the same nodes goes to works(). The
  /// ranks' shares at all nodes are summed in one call.
  template <class Interpolate>
  double over(double a, double b, N_Vector y, N_Vector y_rate, Interpolate&& interpolate,
              DropInEnergyEvaluation& energy) {
    const QuadratureRule& rule = flow_rule();
    const std::size_t nodes = rule.nodes.size();
    const std::size_t terms = energy.named_power_count();
    const double length = b - a;
    const double* data = N_VGetArrayPointer(y);
    const double* rate_data = y_rate != nullptr ? N_VGetArrayPointer(y_rate) : nullptr;
    node_values_.assign(nodes * (1 + terms), 0.0);  // Ż, then each named power, at the nodes
    for (std::size_t i = 0; i < nodes; ++i) {
      const double t = a + length * rule.nodes[i];
      interpolate(t, y, 0);
      if (y_rate != nullptr) interpolate(t, y_rate, 1);
      node_values_[i] = energy.flow_rate(data, rate_data, t);
      for (std::size_t k = 0; k < terms; ++k) node_values_[nodes * (1 + k) + i] = energy.named_power(k, data, t);
    }
    energy.sum_shares(node_values_.data(), static_cast<int>(node_values_.size()));
    double sum = 0;
    for (std::size_t i = 0; i < nodes; ++i) {
      double named = 0;
      for (std::size_t k = 0; k < terms; ++k) named += node_values_[nodes * (1 + k) + i];
      sum += rule.weights[i] * (node_values_[i] - named);
    }
    works_.resize(terms);
    for (std::size_t k = 0; k < terms; ++k) {
      double work = 0;
      for (std::size_t i = 0; i < nodes; ++i) work += rule.weights[i] * node_values_[nodes * (1 + k) + i];
      works_[k] = length * work;
    }
    return length * sum;
  }

  /// Each named power's integral over the interval of the last over() [J].
  const std::vector<double>& works() const { return works_; }

 private:
  std::vector<double> node_values_;
  std::vector<double> works_;
};

}  // namespace energy_audit::sun::detail
