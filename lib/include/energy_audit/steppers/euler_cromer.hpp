#pragma once
/// \file
/// Euler–Cromer (semi-implicit Euler, seed 002 eq. 21) on y = [q, v, Z]:
///   v ← v + h a(q, v, t);  Z ← Z + h Ż(q, v_old, t);  q ← q + h v_new.

#include <concepts>

#include "energy_audit/types.hpp"

namespace energy_audit {

/// A system that exposes its q/v split: y = [q, v] or [q, v, Z].
template <class S>
concept SecondOrderSystem = requires(const S& system, const ConstVectorRef& x, Eigen::Ref<Vector> a,
                                     double t, double& z_dot) {
  { system.dofs() } -> std::convertible_to<int>;
  { system.carries_energy_flow() } -> std::convertible_to<bool>;
  system.second_order_rates(x, x, t, a, z_dot);
};

class EulerCromer {
 public:
  int evaluations_per_step() const { return 1; }

  template <SecondOrderSystem System>
  void do_step(const System& system, Vector& y, double t, double h) {
    const Index n = system.dofs();
    a_.resize(n);
    double z_dot = 0.0;
    system.second_order_rates(y.head(n), y.segment(n, n), t, a_, z_dot);
    y.segment(n, n) += h * a_;
    if (system.carries_energy_flow()) y[2 * n] += h * z_dot;
    y.head(n) += h * y.segment(n, n);
  }

 private:
  Vector a_;
};

}  // namespace energy_audit
