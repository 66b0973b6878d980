#pragma once
/// \file
/// Coefficients of the explicit Runge–Kutta schemes of the README's "The mathematics" (at most four stages).

#include <array>
#include <numbers>

namespace energy_audit {

/// y ← y + h Σ b_i k_i,  k_i = F(t + c_i h, y + h Σ_{j<i} a_ij k_j).
/// A structural type, so that a scheme can be a template argument known to the compiler.
struct ButcherTableau {
  int stages = 0;
  std::array<std::array<double, 4>, 4> a{};
  std::array<double, 4> b{};
  std::array<double, 4> c{};
};

/// explicit Euler, order 1
constexpr ButcherTableau euler_tableau() { return {.stages = 1, .b = {1.0}}; }

/// rk2: Heun, order 2
constexpr ButcherTableau heun_tableau() {
  return {.stages = 2, .a = {{{}, {1.0}}}, .b = {0.5, 0.5}, .c = {0.0, 1.0}};
}

/// rk3: Kutta's third-order scheme (seed 001 eq. 17)
constexpr ButcherTableau kutta3_tableau() {
  return {.stages = 3,
          .a = {{{}, {0.5}, {-1.0, 2.0}}},
          .b = {1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0},
          .c = {0.0, 0.5, 1.0}};
}

/// classic fourth-order Runge–Kutta
constexpr ButcherTableau rk4_tableau() {
  return {.stages = 4,
          .a = {{{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}}},
          .b = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0},
          .c = {0.0, 0.5, 0.5, 1.0}};
}

/// Runge–Kutta–Gill, order 4 (the scheme of seed 000)
constexpr ButcherTableau gill_tableau() {
  constexpr double r = std::numbers::sqrt2;
  return {.stages = 4,
          .a = {{{}, {0.5}, {(r - 1.0) / 2.0, (2.0 - r) / 2.0}, {0.0, -r / 2.0, 1.0 + r / 2.0}}},
          .b = {1.0 / 6.0, (2.0 - r) / 6.0, (2.0 + r) / 6.0, 1.0 / 6.0},
          .c = {0.0, 0.5, 0.5, 1.0}};
}

}  // namespace energy_audit
