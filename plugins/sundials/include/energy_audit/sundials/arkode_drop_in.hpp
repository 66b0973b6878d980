#pragma once
/// \file
/// The drop-in audit for an existing ARKODE program over y = [q, v] (ERKStep or ARKStep; on
/// SUNDIALS 7 any ARKODE stepper through ARKodeEvolve): the program supplies T(q, v, t), V(q, t)
/// and the power vᵀf of its non-potential forces, keeps its own stepper setup, right-hand sides,
/// user_data, output loop and macros, and replaces `ERKStepEvolve(` by `audit.ERKStepEvolve(`
/// (`ARKStepEvolve(` by `audit.ARKStepEvolve(`, `ARKodeEvolve(` by `audit.ARKodeEvolve(`).
///
///     energy_audit::sun::ArkodeAudit audit(3, {T, V, P});                  // P(q, v, t) = vᵀf
///     ...
///     retval = audit.ERKStepEvolve(arkode_mem, tout, y, &t, ARK_NORMAL);   // instead of ERKStepEvolve(...)
///     ...
///     audit.print_summary(stdout);
///     return audit.passed() ? 0 : 1;
///
/// The audit is that of CvodeAudit (cvode_drop_in.hpp): every accepted internal step, Z over
/// each step by 4-point Gauss–Legendre quadrature on ARKODE's own interpolant (ERKStepGetDky,
/// ARKStepGetDky, ARKodeGetDky), C = H + Z judged by δ_C. A program in C uses arkode_drop_in.h.
///
/// This header includes only standard and SUNDIALS headers, and it names nothing that SUNDIALS'
/// examples commonly #define, so it may be included after such macros.

#include <arkode/arkode.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_nvector.h>
#include <sundials/sundials_types.h>

#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_step.hpp"

namespace energy_audit::sun {

static_assert(std::is_same_v<sunrealtype, double>,
              "the drop-in audit needs SUNDIALS built with double precision");

/// Watches one ARKODE integrator through its evolve calls. Move-only; holds no SUNDIALS object
/// between calls, so it may outlive the integrator, its vectors and its SUNContext.
class ArkodeAudit {
 public:
  /// `dofs` = n > 0 coordinates; the state must have at least 2n entries, [q, v] first. Throws
  /// energy_audit::InvalidArgument (a std::runtime_error) for dofs ≤ 0, a missing T or V, a
  /// constraint_power (an ARKODE state has no multipliers), or a threshold that is negative or
  /// not finite.
  ArkodeAudit(int dofs, DropInEnergies energies, double threshold = 1e-3);
  ArkodeAudit(ArkodeAudit&&) noexcept;
  ArkodeAudit& operator=(ArkodeAudit&&) noexcept;
  ArkodeAudit(const ArkodeAudit&) = delete;
  ArkodeAudit& operator=(const ArkodeAudit&) = delete;
  ~ArkodeAudit();

  /// Drop-in for ERKStepEvolve: same arguments, same return value, same solution. ARK_NORMAL is
  /// carried out as ARK_ONE_STEP calls up to tout, each accepted step audited, then one
  /// ARK_NORMAL call that only interpolates at tout (ARKODE does not step once tout was passed).
  /// The steps, the flags, tret and yout are those of a plain call, bit for bit, returns at a
  /// stop time (ERKStepSetStopTime) included. The differences from a plain call are those of
  /// CvodeAudit::CVode (the per-call step limit is not reached, so ARK_TOO_MUCH_WORK is not
  /// returned; a root is searched for over the whole step), and one more: ARKODE's Hermite
  /// interpolant of degree 4 or 5 (the default with a method of order 5 or more) evaluates the
  /// right-hand side at each interpolation, so with such a method the program's count of
  /// right-hand side evaluations includes the audit's; with the default 4th-order method (degree
  /// 3) and the Lagrange interpolant the audit calls no right-hand side. On SUNDIALS 7, whose
  /// interpolant evaluates f(t_n, y_n) on demand, a call that ends with the audit's interpolation
  /// may evaluate it before the next step would: the count may be one higher at the end of a run.
  ///
  /// The audit starts at the integrator's current time on the first call, restarts after
  /// ERKStepReInit as CvodeAudit does after CVodeReInit, and refuses (energy_audit::Error) steps
  /// taken by plain evolve calls on an audited integrator. An exception from one of the energy
  /// functions propagates from this call, after ARKODE has returned and with the integrator as
  /// ARKODE left it; the audit is then incomplete and does not pass.
  int ERKStepEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask);
  /// The same for ARKStepEvolve (an explicit, implicit or IMEX ARKStep integrator).
  int ARKStepEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask);
#if SUNDIALS_VERSION_MAJOR >= 7
  /// The same for ARKodeEvolve (SUNDIALS 7: any ARKODE stepper, SPRKStep included).
  int ARKodeEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask);
#endif

  /// δ_C = sup |C − C(t0)| / sup max(|E|, |T|, |V|) over every audited step (0 before any).
  double relative_drift() const;
  /// "error", "incomplete", "pass" or "fail", as CvodeAudit::verdict().
  const char* verdict() const;
  /// With DropInEnergies::equation_residual: sup ‖M a − r‖∞ / sup of the terms' size over the
  /// audited steps, where a is the v̇ part of the derivative of ARKODE's interpolant at each
  /// step's end (k = 1: the right-hand side there, for the Hermite interpolant); 0 when not checked.
  double equation_residual() const;
  long equation_checked_steps() const;  ///< 0 when the equations are not checked
  double equation_threshold() const;
  /// The pass threshold of equation_residual(); InvalidArgument if negative or not finite.
  void set_equation_threshold(double threshold);
  /// verdict() is "pass".
  bool passed() const;
  /// Empty, or one line naming a missing energy rate (CvodeAudit::diagnosis()).
  std::string diagnosis() const;
  long audited_steps() const;  ///< accepted steps audited (the initial state not counted)
  double threshold() const;
  double max_abs_drift() const;  ///< sup |C − C(t0)| [J]
  /// The audited step (1 the first, 0 the start) at whose end |C − C(t0)| first exceeded the
  /// threshold times the energy scale so far, and its time; −1 and NaN while it has not.
  long first_step_above_threshold() const;
  double time_first_above_threshold() const;
  /// The end of the audited step over which |C − C(t0)| rose fastest per unit time; NaN while
  /// it has not risen.
  double time_of_fastest_growth() const;
  double energy_scale() const;     ///< sup max(|E|, |T|, |V|) [J]
  double initial_control() const;  ///< C(t0) [J]
  DropInStep last_step() const;    ///< the energies at the last audited step (or at t0)
  /// W_k of each named power term (DropInEnergies::named_powers), in their order [J].
  std::vector<double> named_works() const;
  int dofs() const;

  /// Prints the summary lines of CvodeAudit::print_summary.
  void print_summary(FILE* out) const;

 private:
  struct State;
  State& state() const;
  std::unique_ptr<State> state_;
};

}  // namespace energy_audit::sun
