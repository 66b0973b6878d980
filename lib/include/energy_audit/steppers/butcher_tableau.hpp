#pragma once
/// \file
/// Coefficients of the explicit Runge–Kutta schemes of the README's "The mathematics" (at most four stages).

#include <array>

namespace energy_audit {

/// y ← y + h Σ b_i k_i,  k_i = F(t + c_i h, y + h Σ_{j<i} a_ij k_j).
struct ButcherTableau {
  int stages = 0;
  std::array<std::array<double, 4>, 4> a{};
  std::array<double, 4> b{};
  std::array<double, 4> c{};
};

ButcherTableau euler_tableau();   ///< explicit Euler, order 1
ButcherTableau heun_tableau();    ///< rk2: Heun, order 2
ButcherTableau kutta3_tableau();  ///< rk3: Kutta's third-order scheme (seed 001 eq. 17)
ButcherTableau rk4_tableau();     ///< classic fourth-order Runge–Kutta
ButcherTableau gill_tableau();    ///< Runge–Kutta–Gill, order 4 (the scheme of seed 000)

}  // namespace energy_audit
