#pragma once
/// \file
/// A multiplier model as a first-order system y = [q, v, Z] in index-1 form (docs/mathematics.md):
/// accelerations and multipliers from the saddle-point system at every evaluation, with
/// optional Baumgarte stabilization, and Ż carrying the constraint-force power −vᵀGᵀλ. The
/// members every form shares, a model's optional members among them, come from Formulation and
/// ConstrainedFormulation (formulation.hpp).

#include <optional>

#include "energy_audit/constraint_terms.hpp"
#include "energy_audit/dae_terms.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_gradient.hpp"
#include "energy_audit/equation_error.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/formulation.hpp"
#include "energy_audit/lagrange_terms.hpp"
#include "energy_audit/multiplier_model.hpp"
#include "energy_audit/saddle_point.hpp"

namespace energy_audit {

/// Φ̈ + 2α Φ̇ + β² Φ = 0 replaces Φ̈ = 0 (for kinematic constraints ψ̇ + 2α ψ = 0) [1/s].
struct Baumgarte {
  double alpha = 0;
  double beta = 0;
};

template <MultiplierModel M>
class MultiplierSystem : public ConstrainedFormulation<MultiplierSystem<M>, M> {
  using Base = ConstrainedFormulation<MultiplierSystem<M>, M>;
  using Base::model_;

 public:
  using Base::m;
  using Base::n;
  using typename Base::Coordinates;
  using Base::carries_energy_flow;
  using Multipliers = VectorN<double, m>;

  struct Rates {
    Coordinates v;  ///< the state's velocities
    Coordinates a;
    Multipliers lambda;  ///< with the sign of M a = r + Gᵀλ
    double z_dot;
    double explicit_time_power;         ///< ∂T/∂t − ∂V/∂t, for the work ledger
    ConstraintTerms<n, m> constraints;  ///< at the state, for the sample's drift
  };

  explicit MultiplierSystem(M model, std::optional<Baumgarte> baumgarte = std::nullopt,
                            EnergyFlow flow = EnergyFlow::Carried)
      : Base(std::move(model), flow), baumgarte_(baumgarte) {
    if (baumgarte_ && !(baumgarte_->alpha >= 0 && baumgarte_->beta >= 0)) {
      throw InvalidArgument("Baumgarte alpha and beta must be >= 0");
    }
  }

  const std::optional<Baumgarte>& baumgarte() const { return baumgarte_; }
  int second_half_size() const { return n; }

  /// y = [q, v, 0] (or [q, v] when Z is not carried).
  Vector initial_state(const Coordinates& q, const Coordinates& v) const {
    return state_vector(q, v, carries_energy_flow());
  }

  /// Accelerations, multipliers and Ż at one state. Throws Error for a singular G or M.
  Rates rates(const Coordinates& q, const Coordinates& v, double t) const {
    const LagrangeTerms<n> lagrange = equations_of_motion(model_, q, v, t);
    const ConstraintTerms<n, m> c = constraint_terms(model_, q, v, t);
    Multipliers level = -c.bias;
    if (baumgarte_) level -= 2 * baumgarte_->alpha * c.psi + baumgarte_->beta * baumgarte_->beta * c.Phi;
    const SaddlePointSolution<n, m> s = solve_saddle_point<n, m>(lagrange.mass, c.G, lagrange.rhs, level, t);
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model_, q, v, t);
    const double force_power = v.dot(model_.forces(q, v, t));
    const double constraint_power = (c.G * v).dot(s.lambda);
    return {v, s.a, s.lambda, d.T_t - d.V_t - force_power - constraint_power, d.T_t - d.V_t, c};
  }

  DaeTerms dae_terms(const ConstVectorRef& q_in, const ConstVectorRef& v_in, double t) const {
    const Coordinates q = q_in, v = v_in;
    const LagrangeTerms<n> lagrange = equations_of_motion(model_, q, v, t);
    const ConstraintTerms<n, m> c = constraint_terms(model_, q, v, t);
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model_, q, v, t);
    return {lagrange.mass, lagrange.rhs, c.G, c.psi, c.bias, c.Phi,
            d.T_t - d.V_t - v.dot(model_.forces(q, v, t))};
  }

  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>(), v = y.template segment<n>(n);
    store_rates(rates(q, v, t), dydt);
  }

  /// dy/dt = [v, a, Ż] from the rates at the state.
  void store_rates(const Rates& r, Eigen::Ref<Vector> dydt) const {
    dydt.template head<n>() = r.v;
    dydt.template segment<n>(n) = r.a;
    if (carries_energy_flow()) dydt[2 * n] = r.z_dot;
  }

  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>(), v = y.template segment<n>(n);
    dydt.template head<n>() = v;
    dydt.template segment<n>(n) = rates(q, v, t).a;
  }

  double energy_flow_rate(const ConstVectorRef& y, double t) const {
    return rates(y.template head<n>(), y.template segment<n>(n), t).z_dot;
  }

  /// The velocities at the state [q, v]: its second half.
  Coordinates velocities(const Coordinates&, const Coordinates& v, double) const { return v; }

  /// q' = v, for schemes that update q and v apart (PartitionedSystem).
  void rates_of_q(const ConstVectorRef&, const ConstVectorRef& v, double, Eigen::Ref<Vector> q_dot) const { q_dot = v; }

  /// v' = a(q, v, t) and Ż, for schemes that update q and v apart (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q, const ConstVectorRef& v, double t, Eigen::Ref<Vector> a,
                  double& z_dot) const {
    const Rates r = rates(q, v, t);
    a = r.a;
    z_dot = carries_energy_flow() ? r.z_dot : 0.0;
  }

  /// H = T + V at y = [q, v, ...] and its gradient over y, [∂T/∂q + ∂V/∂q, ∂T/∂v, 0], into
  /// `gradient` (EnergyGradientSystem). The constraints do not enter H: with scleronomic
  /// constraints their forces do no work on the exact motion.
  double energy_and_gradient(const ConstVectorRef& y, Eigen::Ref<Vector> gradient) const
    requires EnergyGradientModel<M>
  {
    return energy_and_gradient_over_velocities(model_, y, gradient);
  }

 private:
  std::optional<Baumgarte> baumgarte_;
};

}  // namespace energy_audit
