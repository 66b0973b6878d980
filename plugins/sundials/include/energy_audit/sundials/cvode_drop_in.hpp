#pragma once
/// \file
/// The drop-in audit for an existing CVODE program over y = [q, v]: the program supplies
/// T(q, v, t), V(q, t) and the power vᵀf of its non-potential forces, keeps its own solver setup,
/// right-hand side, user_data, output loop and macros, and replaces `CVode(` by `audit.CVode(`.
///
///     energy_audit::sun::CvodeAudit audit(2, {T, V, P});           // P(q, v, t) = vᵀf
///     ...
///     retval = audit.CVode(cvode_mem, tout, y, &t, CV_NORMAL);   // instead of CVode(...)
///     ...
///     audit.print_summary(stdout);
///     return audit.passed() ? 0 : 1;
///
/// Parameters the program keeps in its user-data struct reach the energy functions through a
/// lambda capture, `[&data](const double* q, const double* v, double t) { ... data.m ... }`; a
/// program in C uses cvode_drop_in.h, whose functions take the user_data pointer.
///
/// The audit sees every accepted internal step. Z (Ż = ∂T/∂t − ∂V/∂t − vᵀf, Z = 0 at the first
/// audited time) is integrated over each step [t_n − h_n, t_n] by 4-point Gauss–Legendre
/// quadrature on CVODE's own interpolant (CVodeGetDky), and C = H + Z, H = T2 − T0 + V with T
/// split by degree in v, is judged as by energy_audit::Audit: δ_C = sup |C − C(t0)| / sup
/// max(|E|, |T|, |V|) ≤ threshold.
///
/// This header includes only standard and SUNDIALS headers, and it names nothing that SUNDIALS'
/// examples commonly #define (T0, T1, TOUT, NEQ, RTOL, ATOL, Y1, ZERO, ONE, NOUT, Ith, IJth, PI,
/// GRAV, SIN, ...), so it may be included after such macros.

#include <cvodes/cvodes.h>
#include <sundials/sundials_types.h>

#include <type_traits>

#include "energy_audit/sundials/drop_in_audit.hpp"
#include "energy_audit/sundials/drop_in_energy_functions.hpp"

namespace energy_audit::sun {

static_assert(std::is_same_v<sunrealtype, double>,
              "the drop-in audit needs SUNDIALS built with double precision");

/// Watches one CVODE solver through its CVode calls. Move-only; holds no SUNDIALS object
/// between calls, so it may outlive the solver, its vectors and its SUNContext. What it found is
/// read through DropInAudit's functions (relative_drift(), verdict(), print_summary(), ...).
class CvodeAudit : public DropInAudit {
 public:
  /// `dofs` = n > 0 coordinates; the solver's state must have at least 2n entries, [q, v] first,
  /// unless a layout says where they are (use_layout).
  /// Throws energy_audit::InvalidArgument (a std::runtime_error) for dofs ≤ 0, a missing T or
  /// V, or a threshold that is negative or not finite.
  CvodeAudit(int dofs, DropInEnergies energies, double threshold = 1e-3);
  /// The audit of a program in Hamilton's variables (DropInHamiltonian): n = `dofs` coordinates
  /// and n momenta, y = [q, p, ...] or as a layout names them (use_layout). Throws as the
  /// constructor does, for a missing H.
  static CvodeAudit hamiltonian(int dofs, DropInHamiltonian energies, double threshold = 1e-3);
  /// The audit of the whole-state form (DropInStateEnergy): E(y, t), ∂E/∂t and P(y, t) of the
  /// solver's state y, read whole. Throws as the constructor does, for a missing E.
  static CvodeAudit whole_state(DropInStateEnergy energies, double threshold = 1e-3);

  /// Drop-in for SUNDIALS' CVode: same arguments, same return value, same solution. CV_NORMAL is
  /// carried out as CV_ONE_STEP calls up to tout, each accepted step audited, then one CV_NORMAL
  /// call that only interpolates at tout (CVode does not step once tout was passed). The steps,
  /// the flags, tret and yout are those of a plain CVode(..., CV_NORMAL) call, bit for bit,
  /// returns at a stop time (CVodeSetStopTime) included; the audit calls no right-hand side.
  /// Differences from a plain CVode call:
  ///   - CVodeSetMaxNumSteps' per-call limit is not reached (every internal call takes one step),
  ///     so CV_TOO_MUCH_WORK is not returned;
  ///   - with root functions (CVodeRootInit), a root is searched for over the whole step rather
  ///     than up to tout: the roots come in the same order relative to the output times (a root
  ///     found past tout is returned on the next call), but a root's computed time, and y there,
  ///     may differ within CVODE's root tolerance;
  ///   - near a stop time, CVodeGetCurrentStep may report after a return the step already
  ///     shortened to end at the stop time (CV_NORMAL shortens it on the next call; the step
  ///     taken is the same).
  /// Cost: T (three times, for its split), V and Ż at four Gauss nodes and the step's end per
  /// step, and Ż at four more nodes for each return before the last step's end; with
  /// integrate_flow_as_quadrature, T three times and V per step, and Ż once inside CVODE; T once
  /// instead of three times when it is declared quadratic in v (after the first 4 states).
  ///
  /// The audit starts at the solver's current time on the first call (at t0 if no step was taken
  /// yet: y(t0) is then read from the first step's interpolant). After CVodeReInit it continues
  /// from the new state, with Z at the restart time if that is where CVode last returned (or the
  /// last step's end), else with Z of the last step: a jump that the energies do not explain
  /// shows in δ_C. Steps taken by plain CVode calls on an audited solver cannot be audited: the
  /// next call throws energy_audit::Error. An exception from one of the energy functions
  /// propagates from this call, after CVODE has returned and with the solver as CVODE left it;
  /// the audit is then incomplete and does not pass.
  int CVode(void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask);

  /// With DropInEnergies::equation_residual: sup ‖M a − r‖∞ / sup of the terms' size over the
  /// audited steps, where a is the v̇ part of the derivative CVODE holds at each step's end
  /// (CVodeGetDky, k = 1), consistent with the program's right-hand side to the tolerance of
  /// CVODE's nonlinear solver; 0 when not checked.
  using DropInAudit::equation_residual;
  using DropInAudit::equation_checked_steps;  ///< 0 when the equations are not checked
  using DropInAudit::equation_threshold;
  /// The pass threshold of equation_residual(); InvalidArgument if negative or not finite.
  void set_equation_threshold(double threshold);
  /// Integrates Z (and the named works) as CVODES' own quadrature (CVodeQuadInit, outside its
  /// error test, so the steps and the solution stay the program's) instead of by Gauss–Legendre on
  /// CVODE's interpolant: Ż once per step at the corrected state instead of the state interpolated
  /// at four nodes, which on a large state with a cheap right-hand side is most of the audit's
  /// cost. Z then carries the error of CVODE's own method on Ż, of the order of the solution's
  /// (docs/drop-in.md, Z as CVODES' quadrature). Before the first CVode call; the audit must then
  /// start with the solver (before its first step or after CVodeReInit) and the program may not
  /// use quadratures of its own (InvalidArgument from CVode otherwise). An exception from an energy
  /// function inside CVODE makes CVode fail (CV_QRHSFUNC_FAIL) and propagates from this call.
  void integrate_flow_as_quadrature();
  bool integrates_flow_as_quadrature() const;
 private:
  CvodeAudit(detail::DropInForm form, double threshold);
};

}  // namespace energy_audit::sun
