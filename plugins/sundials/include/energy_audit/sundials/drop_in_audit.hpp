#pragma once
/// \file
/// What the drop-in audits (CvodeAudit, IdaAudit, ArkodeAudit) share: the findings of the audit
/// and its summary. Each of them adds its solver's solve calls.
///
/// This header includes only standard headers and the plugin's own, and it names nothing that
/// SUNDIALS' examples commonly #define, so it may be included after such macros.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_hamiltonian.hpp"
#include "energy_audit/sundials/drop_in_layout.hpp"
#include "energy_audit/sundials/drop_in_state_energy.hpp"
#include "energy_audit/sundials/drop_in_step.hpp"

namespace energy_audit::sun {

namespace detail {
class DropInAuditState;
struct DropInForm;
}

/// The base of the drop-in audits: it holds the audit's state, created by the derived audit for
/// its solver. Move-only; holds no SUNDIALS object between calls.
class DropInAudit {
 public:
  /// δ_C = sup |C − C(t0)| / sup max(|E|, |T|, |V|) over every audited step (0 before any).
  double relative_drift() const;
  /// "error" once a solve call returned a failure flag; "incomplete" before the first audited
  /// step, after a step that could not be audited, or when diagnosis() found a missing rate;
  /// otherwise "pass" when δ_C ≤ threshold (and the equations' relative residual ≤ its
  /// threshold, when they are checked), else "fail".
  const char* verdict() const;
  /// verdict() is "pass".
  bool passed() const;
  /// Empty, or one line naming a missing energy rate: at the first audited states, T (V) given
  /// without ∂T/∂t (∂V/∂t) is evaluated at t and t + 1e-6 max(1, |t|) s with q and v fixed; a
  /// change beyond round-off means the model is rheonomic and Z would miss the power of that
  /// dependence (a drift of δ_C that is not the solution's), so the verdict is "incomplete".
  /// A dependence on t that starts only after the first 4 audited states is not seen. The line
  /// also names a T declared quadratic in v (DropInEnergies::kinetic_energy_is_quadratic) that
  /// has a T1 or a T0 at one of those states (the verdict is then "incomplete" as well).
  std::string diagnosis() const;
  long audited_steps() const;  ///< accepted steps audited (the initial state not counted)
  double threshold() const;
  double max_abs_drift() const;  ///< sup |C − C(t0)| [J]
  /// The audited step (1 the first, 0 the start) at whose end |C − C(t0)| first exceeded
  /// threshold × (sup max(|E|, |T|, |V|) so far), and its time; −1 and NaN while it has not
  /// (docs/mathematics.md, when the drift appears). A run whose δ_C fails has one.
  long first_step_above_threshold() const;
  double time_first_above_threshold() const;
  /// The end of the audited step over which |C − C(t0)| rose fastest per unit time; NaN while
  /// it has not risen.
  double time_of_fastest_growth() const;
  double energy_scale() const;     ///< sup max(|E|, |T|, |V|) [J]
  double initial_control() const;  ///< C(t0) [J]
  DropInStep last_step() const;    ///< the energies at the last audited step (or at t0)
  /// W_k of each named power term (DropInEnergies::named_powers), in their order [J]: with
  /// nonpotential_power's work W_0, Z = ∫ (∂T/∂t − ∂V/∂t) dt − W_0 − Σ W_k.
  std::vector<double> named_works() const;
  int dofs() const;

  /// Reads the solver's state through `layout` (DropInLayout: where q and v, or q and p, and the
  /// multipliers lie; other entries are not read) instead of y = [q, v, ...]; before the first
  /// solve call. Throws energy_audit::InvalidArgument, naming the index, for lists that are not n
  /// long, a negative index or one named twice, after the first solve call, and in the
  /// whole-state form (which reads y whole). The first solve call checks the layout against the
  /// solver's state (its length, every index inside it).
  void use_layout(const DropInLayout& layout);

  /// Prints "energy audit: delta_C = 1.234e-09 (threshold 1.0e-03, 1234 steps audited): pass"
  /// and a second line with sup |C − C(t0)| and the energy scale; when δ_C fails, a line with the
  /// step and time at which |C − C(t0)| first exceeded the threshold and where it grew fastest.
  void print_summary(FILE* out) const;

 protected:
  /// `audit_name` ("CvodeAudit") names the audit in messages; the derived audit makes its state
  /// (hold), which checks the energies.
  explicit DropInAudit(const char* audit_name);
  DropInAudit(DropInAudit&&) noexcept;
  DropInAudit& operator=(DropInAudit&&) noexcept;
  DropInAudit(const DropInAudit&) = delete;
  DropInAudit& operator=(const DropInAudit&) = delete;
  ~DropInAudit();

  /// The equation check (DropInEnergies::equation_residual), for the audits whose solver holds v̇
  /// at a step's end: sup ‖M a − r‖∞ / sup of the terms' size over the audited steps; 0 when not
  /// checked.
  double equation_residual() const;
  long equation_checked_steps() const;  ///< 0 when the equations are not checked
  double equation_threshold() const;
  /// Before the first solve call (`solve_call` names it in the message); InvalidArgument if
  /// negative or not finite.
  void change_equation_threshold(double threshold, const char* solve_call);

  /// Takes the state made for the derived audit's solver.
  void hold(std::unique_ptr<detail::DropInAuditState> state);
  /// The state; energy_audit::Error once the audit was moved from.
  detail::DropInAuditState& state() const;
  /// The state with what the results include completed (DropInAuditState::settle), for reading.
  detail::DropInAuditState& findings() const;
  /// The state as the derived audit made it.
  template <class State>
  State& state_as() const {
    return static_cast<State&>(state());
  }

 private:
  const char* audit_name_;
  std::unique_ptr<detail::DropInAuditState> state_;
};

}  // namespace energy_audit::sun
