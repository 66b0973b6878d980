// gauss_legendre(k), the rule on [0, 1] that carries Z through ARKODE SPRKStep's drifts: the
// nodes and weights of k = 1 to 4 against their closed forms, and every rule of k = 1 to 6 exact
// for the monomials to degree 2k − 1 and not for x^2k. It needs no SUNDIALS, so any build runs it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/gauss_legendre.hpp>

namespace ea = energy_audit;

namespace {

/// (node, weight) pairs of `rule`, by node.
std::vector<std::pair<double, double>> sorted(const ea::QuadratureRule& rule) {
  std::vector<std::pair<double, double>> pairs;
  for (std::size_t i = 0; i < rule.nodes.size(); ++i) pairs.emplace_back(rule.nodes[i], rule.weights[i]);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

BOOST_AUTO_TEST_CASE(nodes_and_weights_equal_their_closed_forms) {
  // On [−1, 1]: k = 2, ±1/√3 with weights 1; k = 3, 0 and ±√(3/5) with 8/9 and 5/9; k = 4,
  // ±√(3/7 ∓ 2/7 √(6/5)) with (18 ± √30)/36. On [0, 1] the nodes are (1 + x)/2 and the weights halved.
  const double r3 = std::sqrt(3.0) / 6, r15 = std::sqrt(15.0) / 10;
  const double inner = std::sqrt(3.0 / 7 - 2.0 / 7 * std::sqrt(6.0 / 5)) / 2;
  const double outer = std::sqrt(3.0 / 7 + 2.0 / 7 * std::sqrt(6.0 / 5)) / 2;
  const double w_inner = (18 + std::sqrt(30.0)) / 72, w_outer = (18 - std::sqrt(30.0)) / 72;
  const std::vector<std::vector<std::pair<double, double>>> expected{
      {{0.5, 1.0}},
      {{0.5 - r3, 0.5}, {0.5 + r3, 0.5}},
      {{0.5 - r15, 5.0 / 18}, {0.5, 4.0 / 9}, {0.5 + r15, 5.0 / 18}},
      {{0.5 - outer, w_outer}, {0.5 - inner, w_inner}, {0.5 + inner, w_inner}, {0.5 + outer, w_outer}}};
  for (std::size_t k = 1; k <= expected.size(); ++k) {
    const auto rule = sorted(ea::gauss_legendre(static_cast<int>(k)));
    BOOST_TEST_REQUIRE(rule.size() == k);
    for (std::size_t i = 0; i < k; ++i) {
      BOOST_TEST(std::abs(rule[i].first - expected[k - 1][i].first) < 1e-15, "k " << k << ", node " << i);
      BOOST_TEST(std::abs(rule[i].second - expected[k - 1][i].second) < 1e-15, "k " << k << ", weight " << i);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_rule_of_k_nodes_is_exact_to_degree_2k_minus_1) {
  for (int k = 1; k <= 6; ++k) {
    const ea::QuadratureRule rule = ea::gauss_legendre(k);
    BOOST_TEST(rule.nodes.size() == static_cast<std::size_t>(k));
    BOOST_TEST(rule.weights.size() == static_cast<std::size_t>(k));
    const auto mean_of_power = [&](int power) {
      double mean = 0;
      for (std::size_t i = 0; i < rule.nodes.size(); ++i) mean += rule.weights[i] * std::pow(rule.nodes[i], power);
      return mean;
    };
    for (int power = 0; power <= 2 * k - 1; ++power) {  // the mean of x^p over [0, 1] is 1/(p + 1)
      BOOST_TEST(std::abs(mean_of_power(power) - 1.0 / (power + 1)) < 1e-15, "k " << k << ", x^" << power);
    }
    BOOST_TEST(std::abs(mean_of_power(2 * k) - 1.0 / (2 * k + 1)) > 1e-12, "k " << k << " is not exact for x^2k");
  }
  BOOST_CHECK_THROW(ea::gauss_legendre(0), ea::InvalidArgument);
}
