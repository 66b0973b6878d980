#pragma once
/// \file
/// One generic loop for every explicit Runge–Kutta scheme; a method is its ButcherTableau.

#include <array>

#include "energy_audit/steppers/butcher_tableau.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class ExplicitRungeKutta {
 public:
  explicit ExplicitRungeKutta(ButcherTableau tableau) : tableau_(tableau) {
    for (int i = 1; i < tableau_.stages; ++i) stage_terms_[i] = nonzero_terms(tableau_.a[i].data(), i);
    update_terms_ = nonzero_terms(tableau_.b.data(), tableau_.stages);
  }

  int evaluations_per_step() const { return tableau_.stages; }

  /// Advances y from t to t + h. The caller owns t (t_k = t0 + k h avoids accumulating error).
  template <class System>
  void do_step(const System& system, Vector& y, double t, double h) {
    resize(y.size());
    system(y, k_[0], t);
    for (int i = 1; i < tableau_.stages; ++i) {
      combine(y, stage_terms_[i], h, stage_);
      system(stage_, k_[i], t + tableau_.c[i] * h);
    }
    combine(y, update_terms_, h, y);
  }

 private:
  /// The non-zero coefficients of one row of the tableau: Σ_j coefficient[j] k_index[j].
  struct Terms {
    std::array<double, 4> coefficient{};
    std::array<int, 4> index{};
    int count = 0;
  };

  static Terms nonzero_terms(const double* row, int length) {
    Terms terms;
    for (int j = 0; j < length; ++j) {
      if (row[j] == 0.0) continue;
      terms.coefficient[terms.count] = row[j];
      terms.index[terms.count++] = j;
    }
    return terms;
  }

  void resize(Index size) {
    if (stage_.size() == size) return;
    stage_.resize(size);
    for (Vector& k : k_) k.resize(size);
  }

  /// out = base + h Σ terms, in one pass, summed in the order of the terms (out may be base).
  void combine(const Vector& base, const Terms& terms, double h, Vector& out) const {
    switch (terms.count) {
      case 0: out = base; break;
      case 1: sum_terms<1>(base, terms, h, out); break;
      case 2: sum_terms<2>(base, terms, h, out); break;
      case 3: sum_terms<3>(base, terms, h, out); break;
      default: sum_terms<4>(base, terms, h, out); break;
    }
  }

  /// The term count is a template argument so that the loop over terms unrolls; the weights and
  /// pointers are local so that the stores to `out` cannot alias them.
  template <int count>
  void sum_terms(const Vector& base, const Terms& terms, double h, Vector& out) const {
    std::array<double, count> weight;
    std::array<const double*, count> k;
    for (int j = 0; j < count; ++j) {
      weight[j] = h * terms.coefficient[j];
      k[j] = k_[terms.index[j]].data();
    }
    const double* in = base.data();
    double* result = out.data();
    const Index size = base.size();
    for (Index e = 0; e < size; ++e) {
      double sum = in[e];
      for (int j = 0; j < count; ++j) sum += weight[j] * k[j][e];
      result[e] = sum;
    }
  }

  ButcherTableau tableau_;
  std::array<Terms, 4> stage_terms_{};
  Terms update_terms_;
  std::array<Vector, 4> k_;
  Vector stage_;
};

}  // namespace energy_audit
