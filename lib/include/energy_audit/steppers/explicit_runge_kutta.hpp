#pragma once
/// \file
/// One generic loop for every explicit Runge–Kutta scheme; a method is its ButcherTableau.

#include <array>
#include <cstddef>
#include <utility>

#include "energy_audit/steppers/butcher_tableau.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// The tableau is a template argument: the compiler sees every coefficient, drops the zero
/// ones and unrolls the stages, so a scheme costs what a loop written for it by hand would.
/// Any number of stages.
template <auto tableau>
class ExplicitRungeKutta {
  static constexpr int stages = decltype(tableau)::stages;
  static_assert(stages >= 1, "a scheme has at least one stage");

 public:
  int evaluations_per_step() const { return stages; }

  /// Advances y from t to t + h; returns whether the new y is finite (checked inside the update
  /// loop, where it costs one multiply-add per entry instead of another pass over y).
  /// The caller owns t (t_k = t0 + k h avoids accumulating error).
  template <FirstOrderSystem System>
  bool do_step(const System& system, Vector& y, double t, double h) {
    return do_step(system, y, t, h, [&system](const Vector& x, Vector& dxdt, double s) { system(x, dxdt, s); });
  }

  /// As above, with the first stage F(t, y) evaluated by first_stage(y, k, t) instead: the
  /// driver lets the observer sample y in that same evaluation (see integrate_const).
  template <FirstOrderSystem System, class FirstStage>
  bool do_step(const System& system, Vector& y, double t, double h, FirstStage&& first_stage) {
    resize(y.size());
    first_stage(y, k_[0], t);
    [&]<int... i>(std::integer_sequence<int, i...>) __attribute__((always_inline)) {
      ((combine<tableau.a[i + 1], i + 1>(y, h, stage_), system(stage_, k_[i + 1], t + tableau.c[i + 1] * h)), ...);
    }(std::make_integer_sequence<int, stages - 1>{});
    return combine<tableau.b, stages>(y, h, y) == 0.0;
  }

 private:
  template <std::size_t>
  using StagePointer = const double*;

  void resize(Index size) {
    if (stage_.size() == size) return;
    stage_.resize(size);
    for (Vector& k : k_) k.resize(size);
  }

  /// out = base + h Σ_{j < used} weights[j] k_j over the non-zero weights, in one pass (out may
  /// be base). Returns 0 when every entry of out is finite, NaN otherwise (see sum_terms).
  /// Forced inline, like the lambdas that unroll the stages: in a driver whose observer makes
  /// its body large (the audit's), the compiler would otherwise call each stage's update.
  template <std::array<double, stages> weights, int used>
  [[gnu::always_inline]] double combine(const Vector& base, double h, Vector& out) const {
    return [&]<std::size_t... j>(std::index_sequence<j...> sequence) __attribute__((always_inline)) {
      return sum_terms<weights>(sequence, base.data(), out.data(), base.size(), h, k_[j].data()...);
    }(std::make_index_sequence<used>{});
  }

  /// One term of the sum; a zero weight adds none at all (adding 0.0 is not free: it turns -0.0
  /// into +0.0, so the compiler must keep it).
  template <double weight>
  static void add_term(double& sum, double h, const double* k, Index e) {
    if constexpr (weight != 0.0) sum += (h * weight) * k[e];
  }

  /// The loop of combine(). The stages never alias the states, and saying so lets the compiler
  /// vectorize; `in` and `out` are the same array or disjoint. x * 0 is ±0 for finite x and NaN
  /// otherwise, so the returned sum is 0 exactly when every entry is finite; unused for the
  /// stages, it compiles away there.
  template <std::array<double, stages> weights, std::size_t... j>
  [[gnu::always_inline]] static double sum_terms(std::index_sequence<j...>, const double* in, double* out,
                                                 Index size, double h, StagePointer<j> __restrict... k) {
    double zero_if_finite = 0.0;
    for (Index e = 0; e < size; ++e) {
      double sum = in[e];
      (add_term<weights[j]>(sum, h, k, e), ...);
      out[e] = sum;
      zero_if_finite += sum * 0.0;
    }
    return zero_if_finite;
  }

  std::array<Vector, stages> k_;
  Vector stage_;
};

}  // namespace energy_audit
