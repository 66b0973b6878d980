#pragma once
/// \file
/// The program's solve call (CVode, IDASolve, ERKStepEvolve, ...) as the drop-in audit carries it
/// out: a normal-mode call becomes one-step calls up to tout, each accepted step audited, then one
/// normal-mode call that only interpolates at tout (no solver steps once tout was passed), so the
/// steps and the solution are those of the plain call.

#include <nvector/nvector_serial.h>

#include "drop_in_scratch.hpp"
#include "drop_in_solver_calls.hpp"
#include "drop_in_step_accounting.hpp"

namespace energy_audit::sun::detail {

/// The whole state of one solver's drop-in audit, held by DropInAudit.
template <SolverCalls Calls>
class DropInSolveEmulation : public DropInStepAccounting<Calls> {
 public:
  using DropInStepAccounting<Calls>::DropInStepAccounting;
  using DropInStepAccounting<Calls>::calls;

  /// The program's solve call, audited; the arguments were checked by the caller.
  int solve(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, int itask) {
    this->check_state(out.y);
    Scratch scratch(out.y);
    const typename DropInStepAccounting<Calls>::CallScope call_scope(*this, out.y);
    // A new or re-initialized solver (no steps) has no root pending: cleared before the restart,
    // which may throw (Z as the solver's quadrature).
    if (calls.steps(memory) == 0) root_pending_ = false;
    this->synchronize(memory, scratch);
    int flag = 0;
    if (root_pending_) {
      if (itask == Calls::normal && (t_root_ - tout) * calls.last_step(memory) > 0) {
        flag = output(memory, tout, out, tret, Calls::success);
      } else {
        root_pending_ = false;
        flag = output(memory, t_root_, out, tret, Calls::root_return);
      }
    } else if (itask == Calls::one_step) {
      flag = this->audited_call(memory, tout, out, tret, Calls::one_step, scratch);
    } else {
      flag = normal(memory, tout, out, tret, scratch);
    }
    this->note_return(memory, flag, *tret, scratch);
    return flag;
  }

 private:
  /// The solution at t from the last step's interpolant as the solve call's output.
  int output(void* memory, double t, SolverOutput out, sunrealtype* tret, int flag) {
    if (calls.output(memory, t, out) < 0) return Calls::ill_input;  // as the solver for a tout behind
    *tret = t;
    return flag;
  }

  int normal(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, Scratch& scratch) {
    for (;;) {
      if (calls.steps(memory) > 0 && (calls.current_time(memory) - tout) * calls.last_step(memory) >= 0) {
        break;  // tout reached: the normal mode only interpolates
      }
      const int flag = this->audited_call(memory, tout, out, tret, Calls::one_step, scratch);
      if (flag < 0) return flag;
      const double h = calls.last_step(memory);
      if (flag == Calls::root_return) {
        if ((*tret - tout) * h <= 0) return flag;
        // The one-step mode found the root beyond tout; the normal mode returns tout first, the
        // root next.
        root_pending_ = true;
        t_root_ = *tret;
        return output(memory, tout, out, tret, Calls::success);
      }
      if (flag == Calls::tstop_return) {
        if ((calls.current_time(memory) - tout) * h < 0) return flag;
        // tout reached at the stop time: the one-step mode returned at the stop time and forgot
        // it, where the normal mode (of CVODE and ARKODE 6, and of IDA before 7) returns tout
        // first and keeps the stop time set. With the stop time set again, the normal-mode call
        // below returns as the plain call would, in either order.
        const int rearm = calls.set_stop_time(memory, *tret);
        if (rearm < 0) return rearm;
        break;
      }
    }
    return this->audited_call(memory, tout, out, tret, Calls::normal, scratch);
  }

  // A root that the one-step mode found beyond tout, returned on the next call as the normal
  // mode would.
  bool root_pending_ = false;
  double t_root_ = 0;
};

}  // namespace energy_audit::sun::detail
