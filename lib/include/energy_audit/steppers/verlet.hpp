#pragma once
/// \file
/// Störmer–Verlet for a partitioned system y = [q, w, Z] (w = v for Lagrange's form, p for
/// Hamilton's), q' = f(q, w, t), w' = g(q, w, t): second order for any such system and
/// symplectic for Hamiltonian ones (Hairer, Lubich, Wanner, Geometric Numerical Integration,
/// II.2, the generalized Störmer–Verlet method):
///
///     w_½ = w + h/2 g(q, w_½, t)                          (implicit in w_½ unless g ignores w)
///     q_1 = q + h/2 (f(q, w_½, t + h/2) + f(q_1, w_½, t + h/2))   (implicit in q_1 unless f ignores q)
///     w_1 = w_½ + h/2 g(q_1, w_½, t + h)
///     Z_1 = Z + h/2 (Ż(q, w, t) + Ż(q_1, w_1, t + h))      (the trapezoidal rule: second order too)
///
/// The implicit stages are solved by fixed-point iteration to round-off; for a separable
/// Hamiltonian (g independent of w, f of q) each converges at its second evaluation, and the
/// scheme is the explicit leapfrog.

#include <cmath>
#include <limits>
#include <string>

#include "energy_audit/error.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class StormerVerlet {
 public:
  /// Most fixed-point iterations per implicit stage; more means h is too large for the stage.
  static constexpr int max_iterations = 100;

  /// Evaluations of w' (accelerations, or ṗ) in the last step: the start, the iterations of the
  /// first stage, the last kick and the new state's Ż. q' (v itself in Lagrange's form) is not
  /// counted.
  int evaluations_per_step() const { return evaluations_; }

  template <PartitionedSystem System>
  void do_step(const System& system, Vector& y, double t, double h) {
    const Index n = system.dofs(), k = system.second_half_size();
    for (Vector* v : {&q0_, &q1_, &f_, &f_start_}) v->resize(n);
    for (Vector* v : {&w0_, &w_half_, &g_}) v->resize(k);
    evaluations_ = 0;
    double z_dot_start = 0.0, z_dot_end = 0.0;
    q0_ = y.head(n);
    w0_ = y.segment(n, k);

    // w_½ = w + h/2 g(q, w_½, t), from the explicit guess w + h/2 g(q, w, t).
    rates_of_w(system, q0_, w0_, t, z_dot_start);
    w_half_ = w0_ + (0.5 * h) * g_;
    solve_by_iteration(t, w_half_, [&] {
      rates_of_w(system, q0_, w_half_, t);
      next_ = w0_ + (0.5 * h) * g_;
    });

    // q_1 = q + h/2 (f(q, w_½) + f(q_1, w_½)), from the explicit guess q + h f(q, w_½).
    system.rates_of_q(q0_, w_half_, t + 0.5 * h, f_start_);
    q1_ = q0_ + h * f_start_;
    solve_by_iteration(t, q1_, [&] {
      system.rates_of_q(q1_, w_half_, t + 0.5 * h, f_);
      next_ = q0_ + (0.5 * h) * (f_start_ + f_);
    });

    rates_of_w(system, q1_, w_half_, t + h);
    y.head(n) = q1_;
    y.segment(n, k) = w_half_ + (0.5 * h) * g_;
    rates_of_w(system, q1_, y.segment(n, k), t + h, z_dot_end);  // Ż at the new state
    if (system.carries_energy_flow()) y[n + k] += (0.5 * h) * (z_dot_start + z_dot_end);
  }

 private:
  /// g_ = w' at (q, w, t), counted.
  template <class System, class W>
  void rates_of_w(const System& system, const Vector& q, const W& w, double t, double& z_dot) {
    system.rates_of_w(q, w, t, g_, z_dot);
    ++evaluations_;
  }
  /// The same without Ż, where the step has no use for it.
  template <class System, class W>
  void rates_of_w(const System& system, const Vector& q, const W& w, double t) {
    rates_of_w_alone(system, q, w, t, g_);
    ++evaluations_;
  }

  /// Repeats `update`, which computes next_ from x, until next_ and x agree to round-off; x
  /// takes each next_. Round-off is reached when the change is a few ulps, or when it stops
  /// falling while already below a thousand. Throws Error when neither happens within
  /// max_iterations (h too large for the contraction). A NaN ends the iteration; the driver
  /// then finds the state non-finite.
  template <class Update>
  void solve_by_iteration(double t, Vector& x, Update&& update) {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    double previous_change = std::numeric_limits<double>::infinity();
    for (int k = 0; k < max_iterations; ++k) {
      update();
      const double change = (next_ - x).cwiseAbs().maxCoeff();
      const double size = next_.cwiseAbs().maxCoeff();
      x.swap(next_);
      if (!(change > 8 * eps * size)) return;
      if (change >= previous_change && change <= 1e3 * eps * size) return;
      previous_change = change;
    }
    throw Error("Stormer-Verlet: an implicit stage did not converge in " + std::to_string(max_iterations) +
                " iterations at t = " + to_text(t) + "; take a smaller step");
  }

  Vector q0_, w0_, w_half_, q1_, g_, f_, f_start_, next_;
  int evaluations_ = 3;
};

}  // namespace energy_audit
