#pragma once
/// \file
/// A step whose integral of Ż the audit has not taken yet, for solvers whose interpolation may
/// evaluate the right-hand side: ARKODE's Hermite interpolant evaluates f(t_n, y_n) at its first
/// use after a step. The solver's next step (or its own interpolation inside the step) evaluates
/// that f anyway, so the audit's quadrature on the interpolant costs no evaluation then; after
/// the last step of a run nothing else would, and the audit's evaluation would show in the
/// program's counters. A step whose solve call returned y(t_n) is therefore held here until the
/// solver's next step or interpolation (DropInStepAccounting), or, when the program reads the
/// results first or the solver's interpolant is gone (re-initialization, another solver),
/// integrated from what the audit holds: y at the last step ends, f = y' where the solver's
/// interpolant gave it, and y(t_n) (flow_from_history()).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "drop_in_energy_evaluation.hpp"
#include "drop_in_flow_integral.hpp"

namespace energy_audit::sun::detail {

/// True for solver calls (SolverCalls) that declare `static constexpr bool
/// interpolation_may_evaluate_rhs = true` (ARKODE); false when they declare nothing.
template <class Calls>
inline constexpr bool interpolation_may_evaluate_rhs = requires { requires Calls::interpolation_may_evaluate_rhs; };

class DropInPendingStep {
 public:
  /// Forgets the history and any held step: a new or re-initialized solver.
  void reset() {
    pending_ = false;
    history_[0].known = history_[1].known = false;
  }

  bool pending() const { return pending_; }
  double t_end() const { return t_end_; }
  double step() const { return h_; }
  const std::vector<double>& state() const { return y_end_; }

  /// Whether a step that ends now can be held: the history has y at the step's start, from which
  /// it can be integrated without the solver.
  bool can_hold() const { return history_[1].known; }

  /// Holds the step [t_end − h, t_end] that `memory`'s solve call `solve_name` just took, with a
  /// copy of y(t_end) (the program may change its vector before the next call).
  void hold(const void* memory, std::string_view solve_name, double t_end, double h, const double* y,
            std::size_t length) {
    memory_ = memory;
    solve_name_ = solve_name;
    t_end_ = t_end;
    h_ = h;
    y_end_.assign(y, y + length);
    pending_ = true;
  }

  /// Whether the solver `memory`, through `solve_name`, still stands at the end of the held step
  /// with its interpolant over it (`steps_unchanged`: no step since).
  bool held_by(const void* memory, std::string_view solve_name, bool steps_unchanged, double t, double h) const {
    return pending_ && memory == memory_ && solve_name == solve_name_ && steps_unchanged && t == t_end_ && h == h_;
  }

  /// The held step is done with: y(t_end) becomes the latest step end of the history, its f not
  /// known (yet).
  void release() {
    advance(t_end_);
    std::swap(history_[1].y, y_end_);
    pending_ = false;
  }

  /// A step end (or the start) the audit integrated with the solver: y there, its f not known yet.
  void keep_state(double t, const double* y, std::size_t length) {
    advance(t);
    history_[1].y.assign(y, y + length);
  }
  /// y' = f at the latest step end, from the solver's interpolant.
  void keep_derivative(const double* f) {
    Point& last = history_[1];
    last.f.assign(f, f + last.y.size());
    last.has_f = true;
  }

  /// ∫ Ż dt over the held step by the 4-point Gauss–Legendre rule of the solver's interpolation
  /// (flow_rule()), on the polynomial through what the audit holds: y at the last two step ends
  /// before t_end and f at them where known, and y(t_end). With y_{n−2}, f_{n−2}, y_{n−1},
  /// f_{n−1} and y_n the polynomial is of degree 4: its error in y is O(h⁵), in Z over the step
  /// O(h⁶). `works` gets each named power's integral over the same nodes.
  double flow_from_history(DropInEnergyEvaluation& energy, std::vector<double>& works) const {
    // Conditions on p(s) = Σ c_k s^k, s = (t − t_end)/h: values (y) and scaled slopes (h f).
    struct Condition {
      double s;
      bool slope;
      const std::vector<double>* data;
    };
    std::vector<Condition> conditions;
    for (const Point& point : history_) {
      if (!point.known) continue;
      const double s = (point.t - t_end_) / h_;
      conditions.push_back({s, false, &point.y});
      if (point.has_f) conditions.push_back({s, true, &point.f});
    }
    conditions.push_back({0.0, false, &y_end_});
    const std::size_t m = conditions.size();

    const QuadratureRule& rule = flow_rule();
    const std::size_t nodes = rule.nodes.size();
    const std::size_t terms = energy.named_power_count();
    const std::size_t length = y_end_.size();
    std::vector<double> y(length), weights(m), values(nodes * (1 + terms), 0.0);
    for (std::size_t i = 0; i < nodes; ++i) {
      const double s = rule.nodes[i] - 1;  // the step is s ∈ [−1, 0]
      node_weights(conditions, s, weights);
      std::fill(y.begin(), y.end(), 0.0);
      for (std::size_t j = 0; j < m; ++j) {
        const double w = conditions[j].slope ? weights[j] * h_ : weights[j];
        const double* d = conditions[j].data->data();
        for (std::size_t e = 0; e < length; ++e) y[e] += w * d[e];
      }
      const double t = t_end_ + h_ * s;
      values[i] = energy.flow_rate(y.data(), nullptr, t);
      for (std::size_t k = 0; k < terms; ++k) values[nodes * (1 + k) + i] = energy.named_power(k, y.data(), t);
    }
    energy.sum_shares(values.data(), static_cast<int>(values.size()));
    double sum = 0;
    works.assign(terms, 0.0);
    for (std::size_t i = 0; i < nodes; ++i) {
      double named = 0;
      for (std::size_t k = 0; k < terms; ++k) {
        named += values[nodes * (1 + k) + i];
        works[k] += h_ * rule.weights[i] * values[nodes * (1 + k) + i];
      }
      sum += rule.weights[i] * (values[i] - named);
    }
    return h_ * sum;
  }

 private:
  struct Point {
    bool known = false;
    bool has_f = false;
    double t = 0;
    std::vector<double> y, f;  // y and y' = f at t
  };

  /// Makes room for a new latest point at t (the older one drops out; its vectors are reused).
  void advance(double t) {
    std::swap(history_[0], history_[1]);
    history_[1].known = true;
    history_[1].has_f = false;
    history_[1].t = t;
  }

  /// The weights w with p(s) = Σ_j w_j d_j: A^T w = (s^0 … s^{m−1}), A's row j the condition j
  /// on the monomials. Gaussian elimination with partial pivoting (m ≤ 5).
  template <class Conditions>
  static void node_weights(const Conditions& conditions, double s, std::vector<double>& w) {
    const std::size_t m = conditions.size();
    std::vector<double> a(m * m);  // a[k * m + j] = A[j][k]: the transpose
    for (std::size_t j = 0; j < m; ++j) {
      for (std::size_t k = 0; k < m; ++k) {
        const double sj = conditions[j].s;
        a[k * m + j] = conditions[j].slope ? (k == 0 ? 0.0 : static_cast<double>(k) * std::pow(sj, k - 1))
                                           : std::pow(sj, k);
      }
    }
    for (std::size_t k = 0; k < m; ++k) w[k] = std::pow(s, k);
    for (std::size_t c = 0; c < m; ++c) {
      std::size_t pivot = c;
      for (std::size_t r = c + 1; r < m; ++r) {
        if (std::abs(a[r * m + c]) > std::abs(a[pivot * m + c])) pivot = r;
      }
      if (pivot != c) {
        for (std::size_t k = 0; k < m; ++k) std::swap(a[c * m + k], a[pivot * m + k]);
        std::swap(w[c], w[pivot]);
      }
      for (std::size_t r = c + 1; r < m; ++r) {
        const double factor = a[r * m + c] / a[c * m + c];
        for (std::size_t k = c; k < m; ++k) a[r * m + k] -= factor * a[c * m + k];
        w[r] -= factor * w[c];
      }
    }
    for (std::size_t c = m; c-- > 0;) {
      for (std::size_t k = c + 1; k < m; ++k) w[c] -= a[c * m + k] * w[k];
      w[c] /= a[c * m + c];
    }
  }

  bool pending_ = false;
  const void* memory_ = nullptr;
  std::string_view solve_name_;
  double t_end_ = 0, h_ = 0;
  std::vector<double> y_end_;
  std::array<Point, 2> history_;  // [0] the older step end, [1] the latest
};

}  // namespace energy_audit::sun::detail
