#pragma once
/// \file
/// The protocol between the parts, as C++20 concepts: what the integrators need from a system,
/// what the audit needs to sample it, and what an observer and a stepper are. The fixed-step
/// driver, the steppers, the audit and the SUNDIALS adapters are constrained by these concepts,
/// or ask them which optional members a system or an observer has, so a system that does not fit
/// is refused with the requirement it misses. docs/library.md describes the protocol.
///
/// The systems of the library: LagrangeSystem and MultiplierSystem (y = [q, v, Z]),
/// HamiltonSystem (y = [q, p, Z]) and MaggiSystem (y = [q, u, Z]) are first-order, partitioned,
/// energy-flow and sampled systems; MultiplierSystem is also a residual system. Each is step-aware,
/// bounded and equation-checked when its model asks for it (formulation.hpp).

#include <concepts>

#include "energy_audit/dae_terms.hpp"
#include "energy_audit/energy_sample.hpp"
#include "energy_audit/run_end.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

struct EquationResidual;  // equation_residual.hpp: what an equation-checked system returns

/// y' = F(t, y) over y of size() entries: what every fixed-step method and CVODES integrate.
template <class S>
concept FirstOrderSystem = requires(const S& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) {
  { system.size() } -> std::convertible_to<Index>;
  system(y, dydt, t);
};

/// A first-order system over y = [q, w, (Z)], q of dofs() entries and w of second_half_size(),
/// whose rates split into q' = f(q, w, t) and w' = g(q, w, t): Lagrange's form (w = v, f = v),
/// Hamilton's (w = p) and Maggi's (w = u, the independent velocities). Euler–Cromer and
/// Störmer–Verlet update w and q apart:
///   rates_of_q(q, w, t, q_dot)            q' = f(q, w, t)
///   rates_of_w(q, w, t, w_dot, z_dot)     w' = g(q, w, t), and Ż (0 when Z is not carried)
///   rates_of_w(q, w, t, w_dot)            optional: w' alone, where Ż costs extra work
template <class S>
concept PartitionedSystem =
    FirstOrderSystem<S> &&
    requires(const S& system, const ConstVectorRef& x, Eigen::Ref<Vector> out, double t, double& z_dot) {
      { system.dofs() } -> std::convertible_to<int>;
      { system.second_half_size() } -> std::convertible_to<int>;
      { system.carries_energy_flow() } -> std::convertible_to<bool>;
      system.rates_of_q(x, x, t, out);
      system.rates_of_w(x, x, t, out, z_dot);
    };

/// w' at (q, w, t) into w_dot, for a scheme that has no use for Ż there (Störmer–Verlet's inner
/// stages, SPRKStep's kick): from the system's rates_of_w without Ż where it has one.
template <PartitionedSystem S>
void rates_of_w_alone(const S& system, const ConstVectorRef& q, const ConstVectorRef& w, double t,
                      Eigen::Ref<Vector> w_dot) {
  if constexpr (requires { system.rates_of_w(q, w, t, w_dot); }) {
    system.rates_of_w(q, w, t, w_dot);
  } else {
    double z_dot = 0;
    system.rates_of_w(q, w, t, w_dot, z_dot);
  }
}

/// What the audit samples at a state: its energies, Z and, for multiplier models, λ and the
/// constraint residuals (energy_sample.hpp).
template <class S>
concept SampledSystem = requires(const S& system, const ConstVectorRef& y, double t) {
  { system.sample(y, t) } -> std::same_as<EnergySample>;
};

/// A first-order system whose Z a CVODES quadrature can carry: y = [motion, Z], the rates of
/// the motion alone and Ż alone.
template <class S>
concept EnergyFlowSystem =
    FirstOrderSystem<S> && requires(const S& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) {
      { system.carries_energy_flow() } -> std::convertible_to<bool>;
      system.motion_rates(y, dydt, t);
      { system.energy_flow_rate(y, t) } -> std::convertible_to<double>;
    };

/// A multiplier system in residual form, for IDAS: M, r, G, ψ, Ġv + ġ, Φ and the power at a
/// state (dae_terms.hpp), over y = [q, v, (Z)].
template <class S>
concept ResidualSystem = requires(const S& system, const ConstVectorRef& q, double t) {
  { system.dofs() } -> std::convertible_to<int>;
  { system.constraint_count() } -> std::convertible_to<int>;
  { system.holonomic() } -> std::convertible_to<bool>;
  { system.size() } -> std::convertible_to<Index>;
  { system.carries_energy_flow() } -> std::convertible_to<bool>;
  { system.dae_terms(q, q, t) } -> std::same_as<DaeTerms>;
};

/// A sampled system that gives its rates at (y, t) and the sample of y from one evaluation, what
/// the two share computed once (LagrangeSystem): the audit samples each state that way in the
/// first stage of the step that leaves it.
template <class S>
concept RatesAndSampleSystem = requires(const S& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) {
  { system.rates_and_sample(y, dydt, t) } -> std::same_as<EnergySample>;
};

/// A system whose equations of motion the audit checks (audit.hpp's AuditObserver): when
/// checks_equations(), the residual of Lagrange's equations (with multipliers: M a = r + Gᵀλ) at
/// y, with its own accelerations, or with those in rates dydt already evaluated at y. The forms of
/// a model with hand-derived accelerations or with an equation_error are such systems.
template <class S>
concept EquationCheckedSystem = requires(const S& system, const ConstVectorRef& y, double t) {
  { system.checks_equations() } -> std::convertible_to<bool>;
  { system.equation_residual(y, t) } -> std::same_as<EquationResidual>;
  { system.equation_residual_from_rates(y, y, t) } -> std::same_as<EquationResidual>;
};

/// A system whose energy H(y) = T + V is a function of its state alone (no t: a scleronomic
/// model's Lagrange, Hamilton or multiplier form), with its gradient over y (Z's entry 0):
/// energy_and_gradient(y, gradient) returns H and writes ∂H/∂y. ARKODE's relaxation takes it as
/// the conserved function ξ (integrate_arkode.hpp).
template <class S>
concept EnergyGradientSystem = requires(const S& system, const ConstVectorRef& y, Eigen::Ref<Vector> gradient) {
  { system.energy_and_gradient(y, gradient) } -> std::convertible_to<double>;
};

/// A system that bounds its state (a model's divergence_bound, lagrange_model.hpp): a fixed-step
/// run ends as diverged after the first step that leaves within_divergence_bound(y, t) false, as
/// after one that leaves y non-finite (integrate_const.hpp).
template <class S>
concept BoundedSystem = requires(const S& system, const ConstVectorRef& y, double t) {
  { system.within_divergence_bound(y, t) } -> std::convertible_to<bool>;
};

/// A system whose right-hand side depends on the fixed step it is evaluated in (a step-aware
/// model's, step_aware.hpp): the fixed-step driver calls begin_step(t, h) before each step
/// [t, t + h]; adaptive solvers never do.
template <class S>
concept StepAwareSystem = requires(const S& system, double t, double h) { system.begin_step(t, h); };

/// Sees the initial state and every accepted step, (y, t) in order. It may also have the
/// members of the observer concepts below (run_observer.hpp, integrate_const.hpp).
template <class O>
concept StateObserver = requires(O& observer, const ConstVectorRef& y, double t) { observer(y, t); };

/// An observer told the interval [t0, t1] a run is meant to cover, before its first state.
template <class O>
concept RunBeginObserver = requires(O& observer, double t) { observer.begin_run(t, t); };

/// An observer told once how a run ended and the time of its last observed state.
template <class O>
concept RunEndObserver = requires(O& observer, RunEnd end, double t) { observer.end_run(end, t); };

/// An observer asked after each state whether the run left the finite range in a way only it
/// sees (the audit: an energy, so C, not finite); true ends the run as RunEnd::Diverged.
template <class O>
concept DivergenceObserver = requires(const O& observer) {
  { observer.left_finite_range() } -> std::convertible_to<bool>;
};

/// The first stage F(t, y) of a step, evaluated by an observer that watches y meanwhile
/// (AuditObserver::evaluate_and_observe), handed to the stepper as its first stage.
template <class Observer>
struct ObservedFirstStage {
  Observer& observer;
  void operator()(const Vector& y, Vector& dydt, double t) const { observer.evaluate_and_observe(y, dydt, t); }
};

/// A stepper that takes its first stage from ObservedFirstStage, and an observer that offers
/// it: together they sample every state with the evaluation the next step makes anyway.
template <class Stepper, class System, class Observer>
concept ObservesFirstStage = requires(Stepper& stepper, const System& system, Vector& y, Observer& observer) {
  observer.evaluate_and_observe(y, y, 0.0);
  stepper.do_step(system, y, 0.0, 0.0, ObservedFirstStage<Observer>{observer});
};

/// Advances y from t to t + h on `system`; the caller owns t. do_step may return whether the new
/// y is finite (bool); integrate_const then skips its own check. evaluations_per_step() counts
/// the right-hand-side evaluations of the last step (a constant for explicit Runge–Kutta).
template <class S, class System>
concept FixedStepStepper = requires(S& stepper, const System& system, Vector& y, double t) {
  { stepper.evaluations_per_step() } -> std::convertible_to<int>;
  stepper.do_step(system, y, t, t);
};

}  // namespace energy_audit
