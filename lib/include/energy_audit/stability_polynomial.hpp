#pragma once
/// \file
/// The stability polynomial of an explicit Runge–Kutta method: one step applied to y' = λ y
/// multiplies y by R(z), z = h λ, R(z) = 1 + Σ_{k=1..s} (bᵀ A^{k−1} 1) z^k. From it, the
/// real stability interval (z*, 0) — z* < 0 the most negative z with |R(x)| ≤ 1 on all of
/// [z, 0) — and the growth |R(i w)|² − 1 of a rotation at rate w h per step, which decide when a
/// fixed step keeps constraints that attract at rate k: z*/h < k < 0 for the linear part (seed
/// 001; docs/mathematics.md, the stability polynomials).

#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "energy_audit/steppers/butcher_tableau.hpp"

namespace energy_audit {

class StabilityPolynomial {
 public:
  /// R's coefficients from the tableau: c_0 = 1, c_k = bᵀ A^{k−1} 1.
  template <int s>
  explicit StabilityPolynomial(const ButcherTableau<s>& tableau) : coefficients_(s + 1, 0.0) {
    coefficients_[0] = 1.0;
    std::array<double, s> power{};  // A^{k−1} 1
    power.fill(1.0);
    for (int k = 1; k <= s; ++k) {
      double c = 0;
      for (int i = 0; i < s; ++i) c += tableau.b[i] * power[i];
      coefficients_[k] = c;
      std::array<double, s> next{};
      for (int i = 0; i < s; ++i) {
        for (int j = 0; j < s; ++j) next[i] += tableau.a[i][j] * power[j];
      }
      power = next;
    }
  }

  /// c_0 .. c_s, R(z) = Σ c_k z^k.
  const std::vector<double>& coefficients() const { return coefficients_; }

  template <class Number>
  Number operator()(Number z) const {
    Number value = 0;
    for (auto c = coefficients_.rbegin(); c != coefficients_.rend(); ++c) value = value * z + *c;
    return value;
  }

  /// z* < 0: the first point left of 0 where |R| exceeds 1, found by scanning with steps of
  /// 1e-3 down to −100 and bisecting the bracket to round-off; −inf if |R| ≤ 1 there throughout.
  double real_stability_limit() const {
    const auto outside = [&](double x) { return std::abs((*this)(x)) > 1.0; };
    constexpr double scan_step = 1e-3;
    for (double inside = 0, x = -scan_step; x >= -100.0; inside = x, x -= scan_step) {
      if (!outside(x)) continue;
      double a = inside, b = x;  // |R(a)| ≤ 1 (or a = 0), |R(b)| > 1
      while (a - b > 4 * std::numeric_limits<double>::epsilon() * std::abs(b)) {
        const double middle = 0.5 * (a + b);
        (outside(middle) ? b : a) = middle;
      }
      return a;
    }
    return -INFINITY;
  }

  /// d(w) = |R(i w)|² − 1: the growth per step of the radius of a rotation at rate w/h. With
  /// R(i w) = 1 + a + i b, d = 2a + a² + b², in which the terms of order w² cancel exactly
  /// (|R|² − 1 computed as it reads would lose d of order w⁶ to the round-off of 1).
  double rotation_growth(double w) const {
    double a = 0, b = 0, power = 1;  // power = w^k
    for (std::size_t k = 1; k < coefficients_.size(); ++k) {
      power *= w;
      const double term = coefficients_[k] * power * ((k / 2) % 2 == 0 ? 1.0 : -1.0);  // i^k = ±1 or ±i
      (k % 2 == 0 ? a : b) += term;
    }
    return 2 * a + a * a + b * b;
  }

 private:
  std::vector<double> coefficients_;
};

}  // namespace energy_audit
