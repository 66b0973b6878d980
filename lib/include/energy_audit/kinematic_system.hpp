#pragma once
/// \file
/// A KinematicModel as a first-order system y = q, q̇ = w(q, t) = N(q, t) c(t) + f_q⁺ (K f − f_t)
/// (seed 001; docs/mathematics.md, constraint stabilization): f, f_q and f_t from one evaluation of
/// the model's constraints over Dual<double, n + 1> (directions q_1..q_n and t), f_q⁺ by
/// PseudoInverse (a QR of f_qᵀ, never an explicit inverse), N the generalized cross product of the
/// rows of f_q when n − m = 1 (seed 001's construction, not normalized) and an orthonormal basis of
/// the null space otherwise. Along the exact flow ḟ = f_q q̇ + f_t = K f. It runs on every explicit
/// fixed-step method and on CVODES (it is a FirstOrderSystem); it has no second half, so
/// Euler–Cromer and Störmer–Verlet refuse it, and no energies: its audit is the constraint drift
/// (constraint_drift_audit.hpp).

#include <cmath>
#include <utility>

#include "energy_audit/dual.hpp"
#include "energy_audit/kinematic_model.hpp"
#include "energy_audit/pseudo_inverse.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// f, f_q and f_t at one state.
template <int n, int m>
struct KinematicConstraintTerms {
  VectorN<double, m> f;
  Eigen::Matrix<double, m, n> f_q;
  VectorN<double, m> f_t;
};

template <KinematicModel M>
class KinematicSystem {
 public:
  static constexpr int n = M::coordinates;
  static constexpr int m = M::constraints;

  explicit KinematicSystem(M model) : model_(std::move(model)) {}

  const M& model() const { return model_; }
  Index size() const { return n; }
  int constraint_count() const { return m; }

  /// f, f_q and f_t at (q, t), by forward-mode differentiation of the model's constraints.
  KinematicConstraintTerms<n, m> constraint_terms(const ConstVectorRef& q, double t) const {
    using Directions = Dual<double, n + 1>;
    VectorN<Directions, n> q_dual;
    for (int i = 0; i < n; ++i) q_dual[i] = Directions::variable(q[i], i);
    const VectorN<Directions, m> f = model_.position_constraints(q_dual, Directions::variable(t, n));
    KinematicConstraintTerms<n, m> terms;
    for (int k = 0; k < m; ++k) {
      terms.f[k] = f[k].value;
      for (int j = 0; j < n; ++j) terms.f_q(k, j) = f[k].derivatives[j];
      terms.f_t[k] = f[k].derivatives[n];
    }
    return terms;
  }

  /// f(q, t) alone.
  VectorN<double, m> constraint_values(const ConstVectorRef& q, double t) const {
    return model_.position_constraints(VectorN<double, n>(q), t);
  }

  /// The null-space basis N(q, t) the rates use: n × (n − m).
  static Eigen::Matrix<double, n, n - m> null_space(const Eigen::Matrix<double, m, n>& f_q) {
    if constexpr (n - m == 1) {
      return generalized_cross_product(f_q);
    } else {
      return PseudoInverse<m, n>(f_q).orthonormal_null_space();
    }
  }

  /// q̇ = N c + f_q⁺ (K f − f_t); throws energy_audit::Error where f_q loses rank.
  void operator()(const ConstVectorRef& q, Eigen::Ref<Vector> q_dot, double t) const {
    const KinematicConstraintTerms<n, m> terms = constraint_terms(q, t);
    const VectorN<double, m> correction = model_.gain() * terms.f - terms.f_t;
    q_dot = null_space(terms.f_q) * model_.free_velocities(t) + PseudoInverse<m, n>(terms.f_q).apply(correction);
  }

  /// A run ends as diverged after a step that leaves ‖f‖ beyond 1e100 (or non-finite).
  bool within_divergence_bound(const ConstVectorRef& q, double t) const {
    const double norm = constraint_values(q, t).norm();
    return norm <= divergence_bound;
  }
  static constexpr double divergence_bound = 1e100;

 private:
  M model_;
};

}  // namespace energy_audit
