#pragma once
/// \file
/// Euler–Cromer (semi-implicit Euler, seed 002 eq. 21) on a partitioned system y = [q, w, Z]
/// (w = v for Lagrange's form, p for Hamilton's):
///   w ← w + h g(q, w, t);  Z ← Z + h Ż(q, w_old, t);  q ← q + h f(q, w_new, t).

#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class EulerCromer {
 public:
  int evaluations_per_step() const { return 1; }

  template <PartitionedSystem System>
  void do_step(const System& system, Vector& y, double t, double h) {
    const Index n = system.dofs(), k = system.second_half_size();
    w_dot_.resize(k);
    q_dot_.resize(n);
    double z_dot = 0.0;
    system.rates_of_w(y.head(n), y.segment(n, k), t, w_dot_, z_dot);
    y.segment(n, k) += h * w_dot_;
    if (system.carries_energy_flow()) y[n + k] += h * z_dot;
    system.rates_of_q(y.head(n), y.segment(n, k), t, q_dot_);
    y.head(n) += h * q_dot_;
  }

 private:
  Vector w_dot_, q_dot_;
};

}  // namespace energy_audit
