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

#include <type_traits>

#include "energy_audit/sundials/drop_in_audit.hpp"
#include "energy_audit/sundials/drop_in_energy_functions.hpp"

namespace energy_audit::sun {

static_assert(std::is_same_v<sunrealtype, double>,
              "the drop-in audit needs SUNDIALS built with double precision");

/// Watches one ARKODE integrator through its evolve calls. Move-only; holds no SUNDIALS object
/// between calls, so it may outlive the integrator, its vectors and its SUNContext. What it found
/// is read through DropInAudit's functions (relative_drift(), verdict(), print_summary(), ...).
class ArkodeAudit : public DropInAudit {
 public:
  /// `dofs` = n > 0 coordinates; the state must have at least 2n entries, [q, v] first, unless a
  /// layout says where they are (use_layout). Throws energy_audit::InvalidArgument (a
  /// std::runtime_error) for dofs ≤ 0, a missing T or V, a constraint_power (an ARKODE state has
  /// no multipliers), or a threshold that is negative or not finite.
  ArkodeAudit(int dofs, DropInEnergies energies, double threshold = 1e-3);
  /// The audit of a program in Hamilton's variables (DropInHamiltonian): n = `dofs` coordinates
  /// and n momenta, y = [q, p, ...] or as a layout names them (use_layout). Throws as the
  /// constructor does, for a missing H.
  static ArkodeAudit hamiltonian(int dofs, DropInHamiltonian energies, double threshold = 1e-3);
  /// The audit of the whole-state form (DropInStateEnergy): E(y, t), ∂E/∂t and P(y, t) of the
  /// solver's state y, read whole. Throws as the constructor does, for a missing E.
  static ArkodeAudit whole_state(DropInStateEnergy energies, double threshold = 1e-3);

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

  /// With DropInEnergies::equation_residual: sup ‖M a − r‖∞ / sup of the terms' size over the
  /// audited steps, where a is the v̇ part of the derivative of ARKODE's interpolant at each
  /// step's end (k = 1: the right-hand side there, for the Hermite interpolant); 0 when not checked.
  using DropInAudit::equation_residual;
  using DropInAudit::equation_checked_steps;  ///< 0 when the equations are not checked
  using DropInAudit::equation_threshold;
  /// The pass threshold of equation_residual(); InvalidArgument if negative or not finite.
  void set_equation_threshold(double threshold);
 private:
  ArkodeAudit(detail::DropInForm form, double threshold);
};

}  // namespace energy_audit::sun
