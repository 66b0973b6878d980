#pragma once
/// \file
/// The drop-in audit for an existing IDA (IDAS) program over y = [q, v, λ], residual
/// F(t, y, ẏ) = 0: the program supplies T(q, v, t), V(q, t), the power vᵀf of its non-potential
/// forces and, where its constraints are rheonomic, the power vᵀGᵀλ of the constraint forces;
/// it keeps its own solver setup, residual, user_data, output loop and macros, and replaces
/// `IDASolve(` by `audit.IDASolve(`.
///
///     energy_audit::sun::DropInEnergies energies{T, V};
///     energies.constraint_power = Pc;                 // Pc(q, v, lambda, t) = vᵀGᵀλ
///     energy_audit::sun::IdaAudit audit(2, energies);
///     ...
///     retval = audit.IDASolve(mem, tout, &tret, yy, yp, IDA_NORMAL);   // instead of IDASolve(...)
///     ...
///     audit.print_summary(stdout);
///     return audit.passed() ? 0 : 1;
///
/// The audit is that of cvode_drop_in.hpp on IDA's interpolant (IDAGetDky): every accepted
/// internal step, Z (Ż = ∂T/∂t − ∂V/∂t − vᵀf − vᵀGᵀλ) by 4-point Gauss–Legendre quadrature over
/// each step, C = H + Z judged by δ_C. A program in C uses ida_drop_in.h. Link
/// EnergyAudit::idas (it brings SUNDIALS' IDAS, which has IDA's whole interface).
///
/// This header includes only standard and SUNDIALS headers, and it names nothing that SUNDIALS'
/// examples commonly #define, so it may be included after such macros.

#include <idas/idas.h>
#include <sundials/sundials_types.h>

#include <type_traits>

#include "energy_audit/sundials/drop_in_audit.hpp"
#include "energy_audit/sundials/drop_in_energy_functions.hpp"

namespace energy_audit::sun {

static_assert(std::is_same_v<sunrealtype, double>,
              "the drop-in audit needs SUNDIALS built with double precision");

/// Watches one IDA solver through its IDASolve calls. Move-only; holds no SUNDIALS object
/// between calls, so it may outlive the solver, its vectors and its SUNContext. What it found is
/// read through DropInAudit's functions (relative_drift(), verdict(), print_summary(), ...).
class IdaAudit : public DropInAudit {
 public:
  /// `dofs` = n > 0 coordinates; the solver's state holds [q, v] first, then (for
  /// constraint_power) the multipliers, unless a layout says where they are (use_layout). Throws
  /// energy_audit::InvalidArgument (a std::runtime_error) for dofs ≤ 0, a missing T or V, an
  /// equation_residual (the equations of a DAE hold multipliers it does not see), or a threshold
  /// that is negative or not finite.
  IdaAudit(int dofs, DropInEnergies energies, double threshold = 1e-3);
  /// The audit of a program in Hamilton's variables (DropInHamiltonian): n = `dofs` coordinates
  /// and n momenta, y = [q, p, ...] or as a layout names them (use_layout). Throws as the
  /// constructor does, for a missing H.
  static IdaAudit hamiltonian(int dofs, DropInHamiltonian energies, double threshold = 1e-3);
  /// The audit of the whole-state form (DropInStateEnergy): E(y, t), ∂E/∂t and P(y, t) of the
  /// solver's state y, read whole. Throws as the constructor does, for a missing E.
  static IdaAudit whole_state(DropInStateEnergy energies, double threshold = 1e-3);

  /// Drop-in for SUNDIALS' IDASolve: same arguments, same return value, same solution. IDA_NORMAL
  /// is carried out as IDA_ONE_STEP calls up to tout, each accepted step audited, then one
  /// IDA_NORMAL call that only interpolates at tout (IDASolve does not step once tout was
  /// passed). The steps, the flags, tret, yret and ypret are those of a plain
  /// IDASolve(..., IDA_NORMAL) call, bit for bit, returns at a stop time (IDASetStopTime)
  /// included; the audit calls no residual. Differences from a plain IDASolve call:
  ///   - IDASetMaxNumSteps' per-call limit is not reached (every internal call takes one step),
  ///     so IDA_TOO_MUCH_WORK is not returned;
  ///   - with root functions (IDARootInit), a root is searched for over the whole step rather
  ///     than up to tout: the roots come in the same order relative to the output times, but a
  ///     root's computed time, and y and y' there (from IDAGetDky), may differ within IDA's
  ///     root tolerance;
  ///   - when an internal step ends exactly at tout (not at a stop time), y and y' are IDA's
  ///     values at the step's end rather than its interpolation there, which may differ in the
  ///     last bits.
  /// Cost: T (three times, for its split), V and Ż at four Gauss nodes and the step's end per
  /// step, and Ż at four more nodes for each return before the last step's end.
  ///
  /// The audit starts at the solver's current time on the first call (y(t0) is read from the
  /// first step's interpolant, so IDACalcIC's corrections are seen). After IDAReInit it
  /// continues as CvodeAudit::CVode does after CVodeReInit. Steps taken by plain IDASolve calls
  /// on an audited solver cannot be audited: the next call throws energy_audit::Error. An
  /// exception from one of the energy functions propagates from this call, after IDA has
  /// returned and with the solver as IDA left it; the audit is then incomplete.
  int IDASolve(void* ida_mem, sunrealtype tout, sunrealtype* tret, N_Vector yret, N_Vector ypret, int itask);
 private:
  IdaAudit(detail::DropInForm form, double threshold);
};

}  // namespace energy_audit::sun
