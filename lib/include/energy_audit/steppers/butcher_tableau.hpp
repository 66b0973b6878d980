#pragma once
/// \file
/// Coefficients of the explicit Runge–Kutta schemes of docs/mathematics.md.

#include <array>
#include <numbers>

namespace energy_audit {

/// y ← y + h Σ b_i k_i,  k_i = F(t + c_i h, y + h Σ_{j<i} a_ij k_j), with s stages.
/// A structural type, so that a scheme can be a template argument known to the compiler.
template <int s>
struct ButcherTableau {
  static constexpr int stages = s;
  std::array<std::array<double, s>, s> a{};
  std::array<double, s> b{};
  std::array<double, s> c{};
};

/// explicit Euler, order 1
constexpr ButcherTableau<1> euler_tableau() { return {.b = {1.0}}; }

/// rk2: Heun, order 2
constexpr ButcherTableau<2> heun_tableau() { return {.a = {{{}, {1.0}}}, .b = {0.5, 0.5}, .c = {0.0, 1.0}}; }

/// rk3: Kutta's third-order scheme (seed 001 eq. 17)
constexpr ButcherTableau<3> kutta3_tableau() {
  return {.a = {{{}, {0.5}, {-1.0, 2.0}}}, .b = {1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0}, .c = {0.0, 0.5, 1.0}};
}

/// classic fourth-order Runge–Kutta
constexpr ButcherTableau<4> rk4_tableau() {
  return {.a = {{{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}}},
          .b = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0},
          .c = {0.0, 0.5, 0.5, 1.0}};
}

/// Runge–Kutta–Gill, order 4 (the scheme of seed 000)
constexpr ButcherTableau<4> gill_tableau() {
  constexpr double r = std::numbers::sqrt2;
  return {.a = {{{}, {0.5}, {(r - 1.0) / 2.0, (2.0 - r) / 2.0}, {0.0, -r / 2.0, 1.0 + r / 2.0}}},
          .b = {1.0 / 6.0, (2.0 - r) / 6.0, (2.0 + r) / 6.0, 1.0 / 6.0},
          .c = {0.0, 0.5, 0.5, 1.0}};
}

}  // namespace energy_audit
