#pragma once
/// \file
/// Maggi's equations of a multiplier model (docs/mathematics.md), as a first-order
/// system y = [q, u, Z] over the independent velocities u, a named subset I of the velocities:
///
///     v = S(q, t) u + s(q, t) ,   G S = 0 ,   G s = −g          (v_I = u, v_D = −G_D⁻¹ (G_I u + g))
///     Sᵀ (M a − r) = 0 ,   a = S u̇ + c ,   c_D = −G_D⁻¹ (Ġ v + ġ), c_I = 0
///     Ż = ∂T/∂t − ∂V/∂t − vᵀ f − vᵀ Gᵀ λ ,   G_Dᵀ λ = (M a − r)_D
///
/// D are the dependent velocities (the others). λ has the sign of M a = r + Gᵀλ; it is needed for
/// Ż only when the constraints do work (rheonomic ones), and reported like the multiplier form's.
/// A dependent block G_D that turns (nearly) singular ends the run with an Error naming t: when
/// the smallest pivot of its fully pivoted LU falls below singularity_threshold ‖G‖ (for one
/// constraint, |G_D| < threshold ‖G‖), the split no longer determines the dependent velocities.
/// The members every form shares, a model's optional members among them, come from Formulation
/// and ConstrainedFormulation (formulation.hpp).

#include <array>
#include <limits>
#include <string>

#include <Eigen/LU>

#include "energy_audit/all_finite.hpp"
#include "energy_audit/constraint_terms.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/equation_error.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/formulation.hpp"
#include "energy_audit/lagrange_terms.hpp"
#include "energy_audit/multiplier_model.hpp"
#include "energy_audit/positive_definite_solve.hpp"

namespace energy_audit {

template <MultiplierModel M>
class MaggiSystem : public ConstrainedFormulation<MaggiSystem<M>, M> {
  using Base = ConstrainedFormulation<MaggiSystem<M>, M>;
  using Base::model_;

 public:
  using Base::m;
  using Base::n;
  using typename Base::Coordinates;
  using Base::carries_energy_flow;
  using Base::size;
  static constexpr int k = n - m;  ///< independent velocities
  static_assert(k > 0, "Maggi's form needs more coordinates than constraints");
  using Independent = VectorN<double, k>;
  using Multipliers = VectorN<double, m>;

  /// The state's rates and what the audit reports with them.
  struct Rates {
    Coordinates v;       ///< all velocities, S u + s
    Independent u_dot;
    Coordinates a;       ///< all accelerations, S u̇ + the constraints' part
    Multipliers lambda;  ///< with the sign of M a = r + Gᵀλ
    double z_dot;
    double explicit_time_power;         ///< ∂T/∂t − ∂V/∂t, for the work ledger
    ConstraintTerms<n, m> constraints;  ///< at (q, v, t), for the sample's drift
  };

  /// The default of singularity_threshold: the model's `static constexpr double
  /// maggi_singularity_threshold` if it declares one (the condition under which its split stops
  /// being usable), else G_D's smallest pivot below 1e-3 of ‖G‖.
  static constexpr double default_singularity_threshold = [] {
    if constexpr (requires { M::maggi_singularity_threshold; }) {
      return M::maggi_singularity_threshold;
    } else {
      return 1e-3;
    }
  }();

  /// `independent`: the indices of the n − m velocities that make u, in the order of u.
  /// Throws InvalidArgument unless they are n − m distinct indices of coordinates and the
  /// threshold is in [0, 1).
  MaggiSystem(M model, const std::array<int, k>& independent, EnergyFlow flow = EnergyFlow::Carried,
              double singularity_threshold = default_singularity_threshold)
      : Base(std::move(model), flow), independent_(independent), singularity_threshold_(singularity_threshold) {
    if (!(singularity_threshold_ >= 0 && singularity_threshold_ < 1)) {
      throw InvalidArgument("Maggi's form: the singularity threshold must be in [0, 1)");
    }
    std::array<bool, n> is_independent{};
    for (const int i : independent_) {
      if (i < 0 || i >= n || is_independent[i]) {
        throw InvalidArgument("Maggi's form: the independent velocities must be " + std::to_string(k) +
                              " distinct coordinates of the " + std::to_string(n));
      }
      is_independent[i] = true;
    }
    int d = 0;
    for (int i = 0; i < n; ++i) {
      if (!is_independent[i]) dependent_[d++] = i;
    }
  }

  const std::array<int, k>& independent() const { return independent_; }
  int second_half_size() const { return k; }

  /// y = [q, u, 0] with u = v_I (or [q, u] when Z is not carried); v's dependent entries follow
  /// from the constraints, whatever v holds there.
  Vector initial_state(const Coordinates& q, const Coordinates& v) const {
    Vector y = Vector::Zero(size());
    y.head(n) = q;
    for (int j = 0; j < k; ++j) y[n + j] = v[independent_[j]];
    return y;
  }

  /// v = S u + s at (q, u, t).
  Coordinates velocities(const Coordinates& q, const Independent& u, double t) const {
    const ConstraintTerms<n, m> c = constraint_terms(model_, q, Coordinates::Zero().eval(), t);
    return velocities_from(c, dependent_inverse(c.G, t), u);
  }

  /// Everything at (q, u, t). Throws Error when G_D or the reduced mass SᵀMS is singular.
  Rates rates(const Coordinates& q, const Independent& u, double t) const {
    const ConstraintTerms<n, m> at_rest = constraint_terms(model_, q, Coordinates::Zero().eval(), t);
    const DependentInverse G_D_inverse = dependent_inverse(at_rest.G, t);
    Rates out;
    out.v = velocities_from(at_rest, G_D_inverse, u);
    out.constraints = constraint_terms(model_, q, out.v, t);
    const ConstraintTerms<n, m>& c = out.constraints;
    const LagrangeTerms<n> lagrange = equations_of_motion(model_, q, out.v, t);

    // S = ∂v/∂u: v_I = u, v_D = −G_D⁻¹ G_I u.
    Eigen::Matrix<double, m, k> G_I;
    for (int j = 0; j < k; ++j) G_I.col(j) = at_rest.G.col(independent_[j]);
    const Eigen::Matrix<double, m, k> S_D = -G_D_inverse * G_I;
    Eigen::Matrix<double, n, k> S = Eigen::Matrix<double, n, k>::Zero();
    for (int j = 0; j < k; ++j) S(independent_[j], j) = 1.0;
    for (int d = 0; d < m; ++d) S.row(dependent_[d]) = S_D.row(d);
    // a = S u̇ + c_a with G a + Ġ v + ġ = 0.
    const Multipliers c_D = -G_D_inverse * c.bias;
    Coordinates c_a = Coordinates::Zero();
    for (int d = 0; d < m; ++d) c_a[dependent_[d]] = c_D[d];

    const Eigen::Matrix<double, k, k> reduced_mass = S.transpose() * lagrange.mass * S;
    const Independent reduced_force = S.transpose() * (lagrange.rhs - lagrange.mass * c_a);
    if (!all_finite(reduced_mass) || !all_finite(reduced_force)) {  // a blow-up, not a singular matrix
      out.u_dot.setConstant(std::numeric_limits<double>::quiet_NaN());
    } else if (!solve_positive_definite(reduced_mass, reduced_force, out.u_dot)) {
      throw Error("Maggi's form: the reduced mass matrix S'MS is not positive definite at t = " + to_text(t));
    }
    out.a = S * out.u_dot + c_a;
    const Coordinates constraint_force = lagrange.mass * out.a - lagrange.rhs;  // = Gᵀλ
    Multipliers force_D;
    for (int d = 0; d < m; ++d) force_D[d] = constraint_force[dependent_[d]];
    out.lambda = G_D_inverse.transpose() * force_D;
    const ExplicitTimeDerivatives dt = explicit_time_derivatives(model_, q, out.v, t);
    out.z_dot = dt.T_t - dt.V_t - out.v.dot(model_.forces(q, out.v, t)) - out.v.dot(constraint_force);
    out.explicit_time_power = dt.T_t - dt.V_t;
    return out;
  }

  /// dy/dt = [v, u̇, Ż].
  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    store_rates(rates(y.template head<n>(), y.template segment<k>(n), t), dydt);
  }

  /// dy/dt = [v, u̇, Ż] from the rates at the state.
  void store_rates(const Rates& r, Eigen::Ref<Vector> dydt) const {
    dydt.template head<n>() = r.v;
    dydt.template segment<k>(n) = r.u_dot;
    if (carries_energy_flow()) dydt[n + k] = r.z_dot;
  }

  /// d[q, u]/dt alone, for integrators that carry Z apart (as a quadrature).
  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Rates r = rates(y.template head<n>(), y.template segment<k>(n), t);
    dydt.template head<n>() = r.v;
    dydt.template segment<k>(n) = r.u_dot;
  }

  double energy_flow_rate(const ConstVectorRef& y, double t) const {
    return rates(y.template head<n>(), y.template segment<k>(n), t).z_dot;
  }

  /// q' = v(q, u, t), for schemes that update q and u apart (PartitionedSystem).
  void rates_of_q(const ConstVectorRef& q, const ConstVectorRef& u, double t, Eigen::Ref<Vector> q_dot) const {
    q_dot = velocities(q, u, t);
  }

  /// u' and Ż, for schemes that update q and u apart (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q, const ConstVectorRef& u, double t, Eigen::Ref<Vector> u_dot,
                  double& z_dot) const {
    const Rates r = rates(q, u, t);
    u_dot = r.u_dot;
    z_dot = carries_energy_flow() ? r.z_dot : 0.0;
  }

 private:
  using DependentInverse = Eigen::Matrix<double, m, m>;

  /// G_D⁻¹; throws Error naming t when the smallest pivot of G_D's fully pivoted LU is below the
  /// threshold. Past that check G_D is well conditioned, and its inverse (in closed form for up to
  /// four constraints) turns the four solves of an evaluation into products of fixed-size matrices.
  /// A G that is not finite (a state that blew up) gives a NaN inverse, which the integrators
  /// take for divergence.
  DependentInverse dependent_inverse(const Eigen::Matrix<double, m, n>& G, double t) const {
    if (!all_finite(G)) return DependentInverse::Constant(std::numeric_limits<double>::quiet_NaN());
    Eigen::Matrix<double, m, m> G_D;
    for (int d = 0; d < m; ++d) G_D.col(d) = G.col(dependent_[d]);
    const Eigen::FullPivLU<Eigen::Matrix<double, m, m>> lu(G_D);
    const double smallest_pivot = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
    const double scale = G.norm();
    if (!(smallest_pivot > singularity_threshold_ * scale)) {  // also when a pivot is NaN
      throw Error("Maggi's form: the dependent block G_D of the constraint Jacobian is singular at t = " +
                  to_text(t) + " (its smallest pivot " + to_text(smallest_pivot) + " is below " +
                  to_text(singularity_threshold_) + " of |G| = " + to_text(scale) +
                  "); choose other independent velocities");
    }
    return G_D.inverse();
  }

  Coordinates velocities_from(const ConstraintTerms<n, m>& at_rest, const DependentInverse& G_D_inverse,
                              const Independent& u) const {
    Multipliers right = -at_rest.g;
    Coordinates v = Coordinates::Zero();
    for (int j = 0; j < k; ++j) {
      v[independent_[j]] = u[j];
      right -= at_rest.G.col(independent_[j]) * u[j];
    }
    const Multipliers v_D = G_D_inverse * right;
    for (int d = 0; d < m; ++d) v[dependent_[d]] = v_D[d];
    return v;
  }

  std::array<int, k> independent_;
  std::array<int, m> dependent_{};
  double singularity_threshold_;
};

}  // namespace energy_audit
