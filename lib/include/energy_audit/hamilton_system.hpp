#pragma once
/// \file
/// Hamilton's canonical equations of a Lagrange model, built by the Legendre transform
/// (legendre_transform.hpp), as a first-order system y = [q, p, Z]:
///
///     q̇ = ∂H/∂p = v(q, p, t) ,   ṗ = −∂H/∂q + f = ∂L/∂q |_v + f ,   Ż = −∂H/∂t − q̇ᵀ f = ∂T/∂t − ∂V/∂t − vᵀ f
///
/// with v = M⁻¹ (p − b) and H(q, p, t) = T2 − T0 + V at that v, so C = H + Z is the same control
/// function as in Lagrange's form. Every derivative comes from the model's T and V by
/// forward-mode automatic differentiation (the identities ∂H/∂q|_p = −∂L/∂q|_v and
/// ∂H/∂t|_p = −∂L/∂t|_v avoid differentiating through the inverse of M). The members every form
/// shares, a model's optional members among them, come from Formulation (formulation.hpp).

#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_gradient.hpp"
#include "energy_audit/energy_sample.hpp"
#include "energy_audit/formulation.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/legendre_transform.hpp"

namespace energy_audit {

template <LagrangeModel M>
class HamiltonSystem : public Formulation<HamiltonSystem<M>, M> {
  using Base = Formulation<HamiltonSystem<M>, M>;
  using Base::model_;

 public:
  using Base::n;
  using typename Base::Coordinates;
  using Base::carries_energy_flow;

  explicit HamiltonSystem(M model, EnergyFlow flow = EnergyFlow::Carried)
    requires FormWithoutEquationError<M>
      : Base(std::move(model), flow) {}

  int second_half_size() const { return n; }

  /// y = [q, p, 0] with p = ∂T/∂v at (q, v, t0) (or [q, p] when Z is not carried).
  Vector initial_state(const Coordinates& q, const Coordinates& v, double t0) const {
    return state_vector(q, momentum_map(model_, q, t0).momenta(v), carries_energy_flow());
  }

  /// v = ∂H/∂p at (q, p, t).
  Coordinates velocities(const Coordinates& q, const Coordinates& p, double t) const {
    return momentum_map(model_, q, t).velocities(p, t);
  }

  /// dy/dt = [v, ∂L/∂q + f, Ż].
  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    rates_at(q, velocities(q, p, t), t, dydt);
  }

  /// dy/dt at (y, t) into dydt and the sample of y, v computed once for both
  /// (RatesAndSampleSystem).
  EnergySample rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    const Coordinates v = velocities(q, p, t);
    rates_at(q, v, t, dydt);
    return this->energy_sample(y, q, v, t);
  }

  /// The same, with the named forces' powers at y (RatesSampleWithPowersSystem).
  SampleWithPowers<named_force_count<M>()> rates_sample_with_powers(const ConstVectorRef& y, Eigen::Ref<Vector> dydt,
                                                                    double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    const Coordinates v = velocities(q, p, t);
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model_, q, v, t);  // for Ż and the ledger
    rates_at(q, v, t, dydt, &d);
    return {this->energy_sample(y, q, v, t), this->powers_with(q, v, t, d.T_t - d.V_t, check_sum)};
  }

  /// d[q, p]/dt alone, for integrators that carry Z apart (as a quadrature).
  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    const Coordinates v = velocities(q, p, t);
    dydt.template head<n>() = v;
    dydt.template segment<n>(n) = lagrangian_gradient(model_, q, v, t) + model_.forces(q, v, t);
  }

  /// Ż at y = [q, p, ...].
  double energy_flow_rate(const ConstVectorRef& y, double t) const {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    return energy_audit::energy_flow_rate(model_, q, velocities(q, p, t), t);
  }

  /// q' = v(q, p, t), for schemes that update q and p apart (PartitionedSystem).
  void rates_of_q(const ConstVectorRef& q, const ConstVectorRef& p, double t, Eigen::Ref<Vector> q_dot) const {
    q_dot = velocities(q, p, t);
  }

  /// p' = ∂L/∂q + f and Ż, for schemes that update q and p apart (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q_in, const ConstVectorRef& p_in, double t, Eigen::Ref<Vector> p_dot,
                  double& z_dot) const {
    const Coordinates q = q_in, p = p_in;
    const Coordinates v = velocities(q, p, t);
    p_dot = lagrangian_gradient(model_, q, v, t) + model_.forces(q, v, t);
    z_dot = carries_energy_flow() ? energy_audit::energy_flow_rate(model_, q, v, t) : 0.0;
  }

  /// p' = ∂L/∂q + f alone, where a scheme has no use for Ż (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q_in, const ConstVectorRef& p_in, double t, Eigen::Ref<Vector> p_dot) const {
    const Coordinates q = q_in, p = p_in;
    const Coordinates v = velocities(q, p, t);
    p_dot = lagrangian_gradient(model_, q, v, t) + model_.forces(q, v, t);
  }

  /// The energies at the state; the sample's second half is p.
  EnergySample sample(const ConstVectorRef& y, double t) const {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    return this->energy_sample(y, q, velocities(q, p, t), t);
  }

  /// H(q, p) = T + V at y = [q, p, ...] and its gradient over y into `gradient`
  /// (EnergyGradientSystem): [∂H/∂q|_p, ∂H/∂p, 0] = [−∂T/∂q|_v + ∂V/∂q, v, 0], by the same
  /// identity ∂H/∂q|_p = −∂L/∂q|_v as the rates.
  double energy_and_gradient(const ConstVectorRef& y, Eigen::Ref<Vector> gradient) const
    requires EnergyGradientModel<M>
  {
    const Coordinates q = y.template head<n>(), p = y.template segment<n>(n);
    const Coordinates v = velocities(q, p, 0.0);  // scleronomic: no t in the momentum map
    const EnergyGradient<n> g = energy_gradient(model_, q, v);
    gradient.setZero();
    gradient.template head<n>() = g.potential_q - g.kinetic_q;
    gradient.template segment<n>(n) = v;
    return g.energy;
  }

 private:
  /// dy/dt = [v, ∂L/∂q + f, Ż] at (q, v, t); Ż takes ∂T/∂t and ∂V/∂t from `d` when the caller has
  /// them (the audit's ledger needs them too).
  void rates_at(const Coordinates& q, const Coordinates& v, double t, Eigen::Ref<Vector> dydt,
                const ExplicitTimeDerivatives* d = nullptr) const {
    dydt.template head<n>() = v;
    dydt.template segment<n>(n) = lagrangian_gradient(model_, q, v, t) + model_.forces(q, v, t);
    if (carries_energy_flow()) {
      dydt[2 * n] = d != nullptr ? energy_audit::energy_flow_rate(model_, q, v, t, *d)
                                 : energy_audit::energy_flow_rate(model_, q, v, t);
    }
  }
};

}  // namespace energy_audit
