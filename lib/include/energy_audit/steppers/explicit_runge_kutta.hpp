#pragma once
/// \file
/// One generic loop for every explicit Runge–Kutta scheme; a method is its ButcherTableau.

#include <array>

#include "energy_audit/steppers/butcher_tableau.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class ExplicitRungeKutta {
 public:
  explicit ExplicitRungeKutta(ButcherTableau tableau) : tableau_(tableau) {}

  int evaluations_per_step() const { return tableau_.stages; }
  const ButcherTableau& tableau() const { return tableau_; }

  /// Advances y from t to t + h. The caller owns t (t_k = t0 + k h avoids accumulating error).
  template <class System>
  void do_step(const System& system, Vector& y, double t, double h) {
    resize(y.size());
    const ButcherTableau& bt = tableau_;
    system(y, k_[0], t);
    for (int i = 1; i < bt.stages; ++i) {
      stage_ = y;
      for (int j = 0; j < i; ++j) {
        if (bt.a[i][j] != 0.0) stage_ += (h * bt.a[i][j]) * k_[j];
      }
      system(stage_, k_[i], t + bt.c[i] * h);
    }
    for (int i = 0; i < bt.stages; ++i) {
      if (bt.b[i] != 0.0) y += (h * bt.b[i]) * k_[i];
    }
  }

 private:
  void resize(Index size) {
    if (stage_.size() == size) return;
    stage_.resize(size);
    for (Vector& k : k_) k.resize(size);
  }

  ButcherTableau tableau_;
  std::array<Vector, 4> k_;
  Vector stage_;
};

}  // namespace energy_audit
