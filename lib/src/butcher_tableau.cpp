#include "energy_audit/steppers/butcher_tableau.hpp"

#include <cmath>

namespace energy_audit {

ButcherTableau euler_tableau() {
  ButcherTableau t;
  t.stages = 1;
  t.b = {1.0};
  return t;
}

ButcherTableau heun_tableau() {
  ButcherTableau t;
  t.stages = 2;
  t.a[1] = {1.0};
  t.b = {0.5, 0.5};
  t.c = {0.0, 1.0};
  return t;
}

ButcherTableau kutta3_tableau() {
  ButcherTableau t;
  t.stages = 3;
  t.a[1] = {0.5};
  t.a[2] = {-1.0, 2.0};
  t.b = {1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0};
  t.c = {0.0, 0.5, 1.0};
  return t;
}

ButcherTableau rk4_tableau() {
  ButcherTableau t;
  t.stages = 4;
  t.a[1] = {0.5};
  t.a[2] = {0.0, 0.5};
  t.a[3] = {0.0, 0.0, 1.0};
  t.b = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
  t.c = {0.0, 0.5, 0.5, 1.0};
  return t;
}

ButcherTableau gill_tableau() {
  const double r = std::sqrt(2.0);
  ButcherTableau t;
  t.stages = 4;
  t.a[1] = {0.5};
  t.a[2] = {(r - 1.0) / 2.0, (2.0 - r) / 2.0};
  t.a[3] = {0.0, -r / 2.0, 1.0 + r / 2.0};
  t.b = {1.0 / 6.0, (2.0 - r) / 6.0, (2.0 + r) / 6.0, 1.0 / 6.0};
  t.c = {0.0, 0.5, 0.5, 1.0};
  return t;
}

}  // namespace energy_audit
