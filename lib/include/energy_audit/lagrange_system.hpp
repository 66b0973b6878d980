#pragma once
/// \file
/// A Lagrange model as a first-order system y = [q, v, Z] with Ż appended (docs/mathematics.md):
/// its rates from the model's hand-derived accelerations, or from Lagrange's equations of its T, V
/// and f. The members every form shares, a model's optional members among them, come from
/// Formulation (formulation.hpp).

#include <cmath>
#include <stdexcept>

#include "energy_audit/derived_accelerations.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_gradient.hpp"
#include "energy_audit/energy_sample.hpp"
#include "energy_audit/equation_residual.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/flatten.hpp"
#include "energy_audit/formulation.hpp"
#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// Where the accelerations come from.
enum class AccelerationSource {
  Hand,     ///< the model's own accelerations(q, v, t): the audit checks that derivation
  Derived,  ///< Lagrange's equations from T, V, f by automatic differentiation
};

template <LagrangeModel M>
class LagrangeSystem : public Formulation<LagrangeSystem<M>, M> {
  using Base = Formulation<LagrangeSystem<M>, M>;
  using Base::model_;

 public:
  using Base::n;
  using typename Base::Coordinates;
  using Base::carries_energy_flow;

  explicit LagrangeSystem(M model, AccelerationSource source = default_source(),
                          EnergyFlow flow = EnergyFlow::Carried)
    requires FormWithoutEquationError<M>
      : Base(std::move(model), flow), source_(source) {
    if constexpr (!HasHandAccelerations<M>) {
      if (source_ == AccelerationSource::Hand) {
        throw InvalidArgument("model has no hand-derived accelerations; use AccelerationSource::Derived");
      }
    }
  }

  static constexpr AccelerationSource default_source() {
    return HasHandAccelerations<M> ? AccelerationSource::Hand : AccelerationSource::Derived;
  }

  int second_half_size() const { return n; }

  /// y = [q, v, 0] (or [q, v] when Z is not carried).
  Vector initial_state(const Coordinates& q, const Coordinates& v) const {
    return state_vector(q, v, carries_energy_flow());
  }

  Coordinates accelerations(const Coordinates& q, const Coordinates& v, double t) const {
    if constexpr (HasHandAccelerations<M>) {
      if (source_ == AccelerationSource::Hand) return model_.accelerations(q, v, t);
    }
    return derived_accelerations(model_, q, v, t);
  }

  /// dy/dt = [v, a(q, v, t), Ż(q, v, t)].
  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    if constexpr (HasHandAccelerations<M>) {
      if (source_ == AccelerationSource::Hand) return hand_rates(y, dydt, t);
    }
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    rates_at(q, v, t, dydt, derived_accelerations_of());
  }

  /// d[q, v]/dt = [v, a(q, v, t)] alone, for integrators that carry Z apart (as a quadrature).
  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    dydt.template head<n>() = v;
    dydt.template segment<n>(n) = accelerations(q, v, t);
  }

  /// Ż at y = [q, v, ...].
  double energy_flow_rate(const ConstVectorRef& y, double t) const {
    return energy_audit::energy_flow_rate(model_, Coordinates(y.template head<n>()),
                                          Coordinates(y.template segment<n>(n)), t);
  }

  /// The velocities at the state [q, v]: its second half.
  Coordinates velocities(const Coordinates&, const Coordinates& v, double) const { return v; }

  /// q' = v, for schemes that update q and v apart (PartitionedSystem).
  void rates_of_q(const ConstVectorRef&, const ConstVectorRef& v, double, Eigen::Ref<Vector> q_dot) const { q_dot = v; }

  /// v' = a(q, v, t) and Ż, for schemes that update q and v apart (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q, const ConstVectorRef& v, double t, Eigen::Ref<Vector> a,
                  double& z_dot) const {
    const Coordinates q_fixed = q;
    const Coordinates v_fixed = v;
    a = accelerations(q_fixed, v_fixed, t);
    z_dot = carries_energy_flow() ? energy_audit::energy_flow_rate(model_, q_fixed, v_fixed, t) : 0.0;
  }
  /// v' = a(q, v, t) alone, where a scheme has no use for Ż (PartitionedSystem).
  void rates_of_w(const ConstVectorRef& q, const ConstVectorRef& v, double t, Eigen::Ref<Vector> a) const {
    a = accelerations(Coordinates(q), Coordinates(v), t);
  }

  /// dy/dt at (y, t) into dydt, and the sample of y, from one evaluation of the model: what the
  /// accelerations and the energies share (sines and cosines of the same angles) is computed
  /// once. The audit samples every accepted state this way in the next step's first stage.
  EnergySample rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    if constexpr (HasHandAccelerations<M>) {
      if (source_ == AccelerationSource::Hand) return hand_rates_and_sample(y, dydt, t);
    }
    return rates_and_sample_with(y, dydt, t, derived_accelerations_of());
  }

  /// The same, with the named forces' powers at y (RatesSampleWithPowersSystem): the forces the
  /// rates evaluate for Ż and the named ones share their terms.
  SampleWithPowers<named_force_count<M>()> rates_sample_with_powers(const ConstVectorRef& y, Eigen::Ref<Vector> dydt,
                                                                    double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    if constexpr (HasHandAccelerations<M>) {
      if (source_ == AccelerationSource::Hand) return hand_rates_sample_with_powers(y, dydt, t, check_sum);
    }
    return rates_sample_with_powers_with(y, dydt, t, check_sum, derived_accelerations_of());
  }

  EnergySample sample(const ConstVectorRef& y, double t) const {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    return sample_of(y, q, v, t);
  }

  /// H = T + V at y = [q, v, ...] and its gradient over y, [∂T/∂q + ∂V/∂q, ∂T/∂v, 0], into
  /// `gradient` (EnergyGradientSystem): the energy ARKODE's relaxation conserves.
  double energy_and_gradient(const ConstVectorRef& y, Eigen::Ref<Vector> gradient) const
    requires EnergyGradientModel<M>
  {
    return energy_and_gradient_over_velocities(model_, y, gradient);
  }

  /// Whether the accelerations are the model's own, hand-derived ones: only those can be
  /// checked against Lagrange's equations of its T, V and f (derived ones solve them).
  bool checks_equations() const {
    if constexpr (HasHandAccelerations<M>) return source_ == AccelerationSource::Hand;
    return false;
  }

  /// The residual of Lagrange's equations at y = [q, v, ...] with the hand accelerations.
  EquationResidual equation_residual(const ConstVectorRef& y, double t) const
    requires HasHandAccelerations<M>
  {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    return energy_audit::equation_residual(model_, q, v, model_.accelerations(q, v, t), t);
  }

  /// The same, with the accelerations taken from rates dydt = [v, a, ...] already evaluated at y.
  EquationResidual equation_residual_from_rates(const ConstVectorRef& y, const ConstVectorRef& dydt, double t) const
    requires HasHandAccelerations<M>
  {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    return energy_audit::equation_residual(model_, q, v, Coordinates(dydt.template segment<n>(n)), t);
  }

 private:
  /// The sample of y, whose coordinates q and v the caller has copied out.
  EnergySample sample_of(const ConstVectorRef& y, const Coordinates& q, const Coordinates& v,
                         double t) const {
    return this->energy_sample(y, q, v, t);
  }

  /// a(q, v, t) from the model's own accelerations, or derived from T, V and f.
  auto hand_accelerations_of() const {
    return [this](const Coordinates& q, const Coordinates& v, double t) {
      return model_.accelerations(q, v, t);
    };
  }
  auto derived_accelerations_of() const {
    return [this](const Coordinates& q, const Coordinates& v, double t) {
      return derived_accelerations(model_, q, v, t);
    };
  }

  // Flattened (everything they call inlined into one body) so that the compiler sees the hand
  // accelerations, Ż and the energies together and evaluates their common terms once.
  EA_FLATTEN void hand_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    rates_at(q, v, t, dydt, hand_accelerations_of());
  }
  EA_FLATTEN EnergySample hand_rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt,
                                                double t) const {
    return rates_and_sample_with(y, dydt, t, hand_accelerations_of());
  }

  EA_FLATTEN SampleWithPowers<named_force_count<M>()> hand_rates_sample_with_powers(const ConstVectorRef& y,
                                                                                   Eigen::Ref<Vector> dydt, double t,
                                                                                   bool check_sum) const
    requires NamedForcesModel<M>
  {
    return rates_sample_with_powers_with(y, dydt, t, check_sum, hand_accelerations_of());
  }

  template <class Accelerations>
  SampleWithPowers<named_force_count<M>()> rates_sample_with_powers_with(const ConstVectorRef& y,
                                                                         Eigen::Ref<Vector> dydt, double t,
                                                                         bool check_sum,
                                                                         const Accelerations& accelerations_at) const {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model_, q, v, t);  // for Ż and the ledger
    rates_at(q, v, t, dydt, accelerations_at, &d);
    return {sample_of(y, q, v, t), this->powers_with(q, v, t, d.T_t - d.V_t, check_sum)};
  }

  template <class Accelerations>
  EnergySample rates_and_sample_with(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t,
                                     const Accelerations& accelerations_at) const {
    const Coordinates q = y.template head<n>();
    const Coordinates v = y.template segment<n>(n);
    rates_at(q, v, t, dydt, accelerations_at);
    return sample_of(y, q, v, t);
  }

  /// dy/dt from q and v copied out of y: otherwise writing dydt might change them for all the
  /// compiler knows, and it would evaluate the common terms twice. Ż takes ∂T/∂t and ∂V/∂t from
  /// `d` when the caller has them (the audit's ledger needs them too).
  template <class Accelerations>
  void rates_at(const Coordinates& q, const Coordinates& v, double t, Eigen::Ref<Vector> dydt,
                const Accelerations& accelerations_at, const ExplicitTimeDerivatives* d = nullptr) const {
    dydt.template head<n>() = v;
    dydt.template segment<n>(n) = accelerations_at(q, v, t);
    if (carries_energy_flow()) {
      dydt[2 * n] = d != nullptr ? energy_audit::energy_flow_rate(model_, q, v, t, *d)
                                 : energy_audit::energy_flow_rate(model_, q, v, t);
    }
  }

  AccelerationSource source_;
};

}  // namespace energy_audit
