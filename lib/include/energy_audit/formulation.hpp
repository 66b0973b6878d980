#pragma once
/// \file
/// What the four forms of a model share: LagrangeSystem and HamiltonSystem for a model without
/// constraints, MultiplierSystem and MaggiSystem for a multiplier model. Each form is a class
/// derived from Formulation (and a multiplier form from ConstrainedFormulation) that gives only
/// what differs between the forms: its state y = [q, w, (Z)] (w is v, p or u), its rates and its
/// energies,
///
///     int second_half_size() const;                                  // entries of w
///     Coordinates velocities(q, w, t) const;                         // v at the state
///     void rates_of_q(q, w, t, q_dot) const;                         // q̇ = v
///     void rates_of_w(q, w, t, w_dot, z_dot) const;
///     operator(), motion_rates, energy_flow_rate, initial_state, and sample (plain forms)
///
/// and the base passes every optional member of the model on, once, so that every form that
/// admits a member honours it alike (docs/library.md, the formulations):
///   - begin_step(t, h) (step_aware.hpp): told the fixed step about to be taken;
///   - divergence_bound (lagrange_model.hpp): bounds q and the velocities v = q̇, whatever w is;
///   - scleronomic: checked against the model's energies when the form is built;
///   - multiplier models: reported_multiplier_sign, and equation_error (equation_error.hpp),
///     which the multiplier forms integrate and the equation check then sees;
///   - extra_outputs and breakpoints are read through model() and rates_of_q (extra_outputs_at),
///     so every form has them;
///   - named forces (named_forces.hpp): the power of each at a state, for the audit's work ledger,
///     taken with the sample (sample_with_powers) so that the velocities are computed once.
/// Lagrange's and Hamilton's forms derive their equations from T, V and f (or take the model's
/// hand accelerations) and have no place for an equation_error: they refuse such a model
/// (FormWithoutEquationError) rather than integrate it without its error.
///
/// The base is a static one (the form is its template argument): every call is resolved at
/// compile time and can be inlined into the integrators, which are templates over the form.

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "energy_audit/constraint_terms.hpp"
#include "energy_audit/declaration_check.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_sample.hpp"
#include "energy_audit/energy_terms.hpp"
#include "energy_audit/equation_error.hpp"
#include "energy_audit/equation_residual.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/multiplier_model.hpp"
#include "energy_audit/named_forces.hpp"
#include "energy_audit/step_aware.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// Whether Z is carried. Off gives y = [q, w] with nothing appended, to measure the audit's cost.
enum class EnergyFlow { Carried, Off };

/// The state y = [q, v, Z(t0) = 0], or [q, v] without Z.
template <int n>
Vector state_vector(const VectorN<double, n>& q, const VectorN<double, n>& v, bool with_energy_flow) {
  Vector y = Vector::Zero(2 * n + (with_energy_flow ? 1 : 0));
  y.template head<n>() = q;  // fixed-size segments: GCC 12 misreads dynamic ones here as overreads
  y.template segment<n>(n) = v;
  return y;
}

/// A model that Lagrange's and Hamilton's forms integrate as it is: one without an
/// equation_error, which only the multiplier forms add to their equations.
template <class M>
concept FormWithoutEquationError = LagrangeModel<M> && !HasEquationError<M>;

/// The reported sign of the multipliers: a model may set `static constexpr double
/// reported_multiplier_sign = -1` when its source reports −λ.
template <class M>
constexpr double reported_multiplier_sign() {
  if constexpr (requires { M::reported_multiplier_sign; }) {
    return M::reported_multiplier_sign;
  } else {
    return 1.0;
  }
}

/// The members every form shares, for the form Form (the derived class) of model M.
template <class Form, LagrangeModel M>
class Formulation {
 public:
  static constexpr int n = M::dofs;
  using Coordinates = VectorN<double, n>;

  const M& model() const { return model_; }
  int dofs() const { return n; }
  bool carries_energy_flow() const { return flow_ == EnergyFlow::Carried; }
  /// q, w, and Z when it is carried.
  Index size() const { return n + form().second_half_size() + (carries_energy_flow() ? 1 : 0); }

  /// Tells a StepAwareModel the fixed step [t, t + h] about to be taken (step_aware.hpp).
  void begin_step(double t, double h) const
    requires StepAwareModel<M>
  {
    model_.begin_step(t, h);
  }

  /// Whether every entry of q and of the velocities v = q̇ at y is within the model's
  /// divergence_bound in magnitude: the bound is on v in every form, not on p or u.
  bool within_divergence_bound(const ConstVectorRef& y, double t) const
    requires HasDivergenceBound<M>
  {
    const Coordinates q = y.template head<n>();
    const Coordinates v = form().velocities(q, y.segment(n, form().second_half_size()), t);
    return q.cwiseAbs().maxCoeff() <= M::divergence_bound && v.cwiseAbs().maxCoeff() <= M::divergence_bound;
  }

  /// The model's force names (named_forces.hpp), for the audit's work ledger.
  std::vector<std::string> force_names() const
    requires NamedForcesModel<M>
  {
    return force_names_of<M>();
  }

  /// The power of each named force and ∂T/∂t − ∂V/∂t at y = [q, w, ...] (Z not read), with the
  /// velocities v of the form's state; with check_sum, first checks that the named forces sum to
  /// forces() there (InvalidArgument otherwise).
  NamedForcePowers<named_force_count<M>()> named_force_powers(const ConstVectorRef& y, double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    const Coordinates q = y.template head<n>();
    return powers_at(q, form().velocities(q, y.segment(n, form().second_half_size()), t), t, check_sum);
  }

  /// The sample of y = [q, w, ...] and the power of each named force with ∂T/∂t − ∂V/∂t there,
  /// the velocities v of the form's state computed once for both; with check_sum, first checks
  /// that the named forces sum to forces() there (InvalidArgument otherwise).
  SampleWithPowers<named_force_count<M>()> sample_with_powers(const ConstVectorRef& y, double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    const Coordinates q = y.template head<n>();
    const Coordinates v = form().velocities(q, y.segment(n, form().second_half_size()), t);
    return {energy_sample(y, q, v, t), powers_at(q, v, t, check_sum)};
  }

 protected:
  /// Checks what the model declares about itself (declaration_check.hpp); throws InvalidArgument.
  Formulation(M model, EnergyFlow flow) : model_(std::move(model)), flow_(flow) { check_declarations(model_); }

  const Form& form() const { return static_cast<const Form&>(*this); }

  /// The sample of y = [q, w, (Z)] whose coordinates and velocities are q and v: the energies
  /// at (q, v, t) and Z (0 when it is not carried).
  EnergySample energy_sample(const ConstVectorRef& y, const Coordinates& q, const Coordinates& v, double t) const {
    const int w = form().second_half_size();
    return {t, y.head(n), y.segment(n, w), energy_terms(model_, q, v, t), carries_energy_flow() ? y[n + w] : 0.0};
  }

  /// The power of each named force and ∂T/∂t − ∂V/∂t at (q, v, t); with check_sum, first checks
  /// that the named forces sum to forces() there.
  NamedForcePowers<named_force_count<M>()> powers_at(const Coordinates& q, const Coordinates& v, double t,
                                                     bool check_sum) const
    requires NamedForcesModel<M>
  {
    const ExplicitTimeDerivatives d = explicit_time_derivatives(model_, q, v, t);
    return powers_with(q, v, t, d.T_t - d.V_t, check_sum);
  }
  /// The same with ∂T/∂t − ∂V/∂t at (q, v, t) already taken, as the rates' Ż takes it.
  NamedForcePowers<named_force_count<M>()> powers_with(const Coordinates& q, const Coordinates& v, double t,
                                                       double explicit_time_power, bool check_sum) const
    requires NamedForcesModel<M>
  {
    if (check_sum) [[unlikely]] check_forces_sum(q, v, t);
    return {energy_audit::named_force_powers(model_, q, v, t), explicit_time_power};
  }

  /// check_named_forces_sum, kept out of the flattened rates (it runs at two states of a run).
  [[gnu::noinline]] void check_forces_sum(const Coordinates& q, const Coordinates& v, double t) const {
    check_named_forces_sum(model_, q, v, t);
  }

  M model_;
  EnergyFlow flow_;
};

/// The members the multiplier forms share besides Formulation's. The form gives
///
///     Rates rates(const Coordinates& q, w, double t) const;
///     void store_rates(const Rates& r, Eigen::Ref<Vector> dydt) const;  // dy/dt from the rates
///
/// with members v (velocities), a (accelerations), lambda (with the sign of M a = r + Gᵀλ),
/// explicit_time_power (∂T/∂t − ∂V/∂t, which Ż holds) and constraints (ConstraintTerms at
/// (q, v, t)), from which the sample, the constraint drift and
/// the equation check are made here.
template <class Form, MultiplierModel M>
class ConstrainedFormulation : public Formulation<Form, M> {
  using Base = Formulation<Form, M>;

 public:
  using Base::n;
  using typename Base::Coordinates;
  static constexpr int m = M::constraints;

  int constraint_count() const { return m; }
  static constexpr bool holonomic() { return HolonomicConstraints<M>; }

  /// A model with an equation_error is integrated with other equations than Lagrange's of its T,
  /// V and f: its accelerations and multipliers are then checked against those, as hand-derived
  /// accelerations are (EquationCheckedSystem). Derived equations need no check.
  bool checks_equations() const { return HasEquationError<M>; }

  /// The residual of M a = r + Gᵀλ, with r from Lagrange's terms alone, at y = [q, w, ...].
  EquationResidual equation_residual(const ConstVectorRef& y, double t) const {
    const Coordinates q = y.template head<n>();
    const auto r = rates_at(q, y, t);
    return energy_audit::equation_residual(this->model_, q, r.v, r.a, r.lambda, t);
  }
  EquationResidual equation_residual_from_rates(const ConstVectorRef& y, const ConstVectorRef& /*dydt*/,
                                                double t) const {
    return equation_residual(y, t);  // λ is not among the rates
  }

  /// The energies at (q, v), the multipliers in the model's sign, and the constraint drift ‖Φ‖
  /// (NaN for kinematic constraints) and ‖ψ‖.
  EnergySample sample(const ConstVectorRef& y, double t) const {
    const Coordinates q = y.template head<n>();
    return sample_from(y, q, rates_at(q, y, t), t);
  }

  /// dy/dt at (y, t) into dydt and the sample of y, from one evaluation of the form's rates
  /// (RatesAndSampleSystem): the audit samples every accepted state this way.
  EnergySample rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const {
    const Coordinates q = y.template head<n>();
    const auto r = rates_at(q, y, t);
    this->form().store_rates(r, dydt);
    return sample_from(y, q, r, t);
  }

  /// The sample and the named forces' powers at the rates' velocities (NamedForcesSystem).
  SampleWithPowers<named_force_count<M>()> sample_with_powers(const ConstVectorRef& y, double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    const Coordinates q = y.template head<n>();
    const auto r = rates_at(q, y, t);
    return {sample_from(y, q, r, t), this->powers_with(q, r.v, t, r.explicit_time_power, check_sum)};
  }

  /// The rates, the sample and the powers from one evaluation (RatesSampleWithPowersSystem).
  SampleWithPowers<named_force_count<M>()> rates_sample_with_powers(const ConstVectorRef& y, Eigen::Ref<Vector> dydt,
                                                                    double t, bool check_sum) const
    requires NamedForcesModel<M>
  {
    const Coordinates q = y.template head<n>();
    const auto r = rates_at(q, y, t);
    this->form().store_rates(r, dydt);
    return {sample_from(y, q, r, t), this->powers_with(q, r.v, t, r.explicit_time_power, check_sum)};
  }

 protected:
  using Base::Base;

 private:
  /// The form's rates at y = [q, w, ...], q copied out of y.
  auto rates_at(const Coordinates& q, const ConstVectorRef& y, double t) const {
    return this->form().rates(q, y.segment(n, this->form().second_half_size()), t);
  }

  template <class Rates>
  EnergySample sample_from(const ConstVectorRef& y, const Coordinates& q, const Rates& r, double t) const {
    EnergySample s = this->energy_sample(y, q, r.v, t);
    s.multipliers = reported_multiplier_sign<M>() * r.lambda;
    s.constraint_drift =
        ConstraintDrift{HolonomicConstraints<M> ? r.constraints.Phi.norm() : std::nan(""), r.constraints.psi.norm()};
    return s;
  }
};

}  // namespace energy_audit
