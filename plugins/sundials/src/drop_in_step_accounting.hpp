#pragma once
/// \file
/// The audit of each step a solver takes through the audit's solve calls: the start, a
/// re-initialization and steps taken outside the audit are found from the solver's step count;
/// each accepted step gets Z over it and the sample at its end; Z is kept at every return, for a
/// re-initialization from there.

#include <cstddef>
#include <energy_audit/error.hpp>
#include <string>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>

#include "drop_in_audit_state.hpp"
#include "drop_in_flow_integral.hpp"
#include "drop_in_pending_step.hpp"
#include "drop_in_scratch.hpp"
#include "drop_in_solver_calls.hpp"
#include "drop_in_solver_quadrature.hpp"
#include "energy_audit/sundials/handles.hpp"

namespace energy_audit::sun::detail {

template <SolverCalls Calls>
class DropInStepAccounting : public DropInAuditState {
 public:
  DropInStepAccounting(DropInForm form, double threshold)
      : DropInAuditState(Calls::audit_name, std::move(form), threshold),
        works_returned_(works),
        quadrature_(energy) {}

  Calls calls;  // the solver's functions for the current call

  const char* solve_name() const override { return calls.solve_name; }
  std::string flag_name(int flag) const override { return calls.flag_name(flag); }
  void settle() noexcept override { settle_for_reading(); }

 protected:
  /// What one solve call holds and frees when it ends: the solver quadrature's vector and hold,
  /// and the vector for y' (at a step's end for the equation check, at the quadrature's nodes
  /// for q̇ in Hamilton's form).
  class CallScope {
   public:
    CallScope(DropInStepAccounting& accounting, N_Vector state)
        : accounting_(accounting), quadrature_(accounting.quadrature_, accounting.solver_quadrature, state) {
      if (accounting.energy.checks_equations() || accounting.energy.reads_state_derivative()) {
        derivative_ = clone(state);
        accounting.derivative_ = derivative_.get();
      }
    }
    ~CallScope() { accounting_.derivative_ = nullptr; }
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

   private:
    DropInStepAccounting& accounting_;
    typename DropInSolverQuadrature<Calls>::Call quadrature_;
    NVector derivative_;
  };

  void interpolate(void* memory, double t, N_Vector out, int order = 0) const {
    check_flag(calls, calls.interpolate(memory, t, order, out), calls.interpolate_name, t);
  }

  /// Checks that the solver's state holds what the layout names, in data the audit can read.
  void check_state(N_Vector state) const {
    const sunindextype length =
        state->ops->nvgetlocallength != nullptr ? state->ops->nvgetlocallength(state) : N_VGetLength(state);
    energy.check_state(static_cast<long>(length), Calls::solver_name);
    if (N_VGetArrayPointer(state) == nullptr) {
      throw InvalidArgument(
          "the audit needs an N_Vector whose data N_VGetArrayPointer exposes (serial, OpenMP, pthreads)");
    }
  }

  /// Brings the audit up to the solver before a call: the start, a re-initialization, steps not
  /// seen.
  void synchronize(void* memory, Scratch& scratch) {
    const long steps = calls.steps(memory);
    if (steps == 0 || steps != steps_seen_) settle_from_history();  // the solver's interpolant is gone
    if (steps == 0) {  // a new or re-initialized solver: (re)start at its current time
      pending_.reset();
      start_pending_ = true;
      t_start_ = calls.current_time(memory);
      if (started_ && returned_known_ && t_start_ == t_returned_) {  // restarted where it returned
        Z = Z_returned_;
        works = works_returned_;
      }
      returned_known_ = false;
      steps_seen_ = 0;
      if (solver_quadrature) quadrature_.start(memory, calls, Z, works);
      return;
    }
    if (!started_ && solver_quadrature) {
      throw InvalidArgument(std::string(Calls::audit_name) +
                            ": the solver has taken steps already; Z as its quadrature starts with the solver, "
                            "at its first step or after its re-initialization");
    }
    if (!started_) {  // first call on a solver that has stepped already: start where it stands
      const double t = calls.current_time(memory);
      interpolate(memory, t, scratch.vector());
      record(t, scratch.vector());
      t_audited = t;
      started_ = true;
      start_pending_ = false;
      steps_seen_ = steps;
      return;
    }
    if (steps != steps_seen_) {
      incomplete = true;
      throw Error(std::string(Calls::audit_name) + ": " + std::to_string(steps - steps_seen_) + " " +
                  Calls::solver_name + " step(s) were taken outside " + Calls::audit_name + "::" +
                  calls.solve_name + " and cannot be audited");
    }
  }

  /// One plain solve call that takes at most one step, audited if it took one.
  int audited_call(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, int itask,
                   Scratch& scratch) {
    settle_before_call(memory, tout, itask, scratch);
    const int flag = calls.solve(memory, tout, out, tret, itask);
    if (quadrature_.failed()) {  // an energy function threw inside the solver
      incomplete = true;
      quadrature_.rethrow_failure();
    }
    const long steps = calls.steps(memory);
    if (steps == steps_seen_) return flag;
    const long taken = steps - steps_seen_;
    steps_seen_ = steps;
    if (taken != 1) {
      incomplete = true;
      throw Error(std::string(Calls::audit_name) + ": one " + calls.solve_name + " call took " +
                  std::to_string(taken) + " steps; only one can be audited");
    }
    // A call that returned at t_n gave y(t_n) in out.y: the interpolant there is that state, at
    // the cost of an interpolation (a pass over the whole state).
    const bool returned_step_end = flag >= 0 && *tret == calls.current_time(memory);
    try {
      audit_step(memory, scratch, returned_step_end ? N_VGetArrayPointer(out.y) : nullptr);
    } catch (...) {
      incomplete = true;
      throw;
    }
    return flag;
  }

  /// Keeps the first failure flag, or Z at the time the solver returned (an output time before
  /// t_n, say), from which the program may re-initialize the solver.
  void note_return(void* memory, int flag, double t, Scratch& scratch) {
    if (flag < 0) {
      if (failure_flag == 0) failure_flag = flag;
      return;
    }
    returned_known_ = false;
    if (!started_ || start_pending_ || pending_.pending()) return;  // held: Z continues at t_n
    const double h = calls.last_step(memory);
    if (t == t_audited) {
      Z_returned_ = Z;
      works_returned_ = works;
    } else if (h != 0 && (t - (t_audited - h)) / h >= 0 && (t_audited - t) / h >= 0) {
      if (solver_quadrature) {
        Z_returned_ = quadrature_.at(memory, calls, t, works_returned_);
      } else {
        Z_returned_ = Z - flow_over(memory, t, t_audited, scratch);
        for (std::size_t k = 0; k < works.size(); ++k) works_returned_[k] = works[k] - flow_.works()[k];
      }
    } else {
      return;
    }
    t_returned_ = t;
    returned_known_ = true;
  }

 private:
  /// ∫ Ż dt from a to b, both in the last step, on the solver's interpolant (flow_.works(): the
  /// named works over it).
  double flow_over(void* memory, double a, double b, Scratch& scratch) {
    const auto at = [this, memory](double t, N_Vector y, int order) { interpolate(memory, t, y, order); };
    N_Vector y_rate = energy.reads_state_derivative() ? derivative_ : nullptr;
    return flow_.over(a, b, scratch.vector(), y_rate, at, energy);
  }

  /// Audits the step just accepted, [t_n − h, t_n]: Z over it, then the sample at t_n, read from
  /// `step_end` when the solve call returned y(t_n) there (null: from the interpolant, as for a
  /// call that returned at a root before t_n). `may_hold`: the step may be held
  /// (drop_in_pending_step.hpp).
  void audit_step(void* memory, Scratch& scratch, const double* step_end, bool may_hold = true) {
    const double t_end = calls.current_time(memory);
    const double h = calls.last_step(memory);
    const bool first = start_pending_;
    if (start_pending_) {  // y(t0) from the first step's interpolant (interpolation needs h ≠ 0)
      interpolate(memory, t_start_, scratch.vector());
      record(t_start_, scratch.vector());
      keep_history(memory, t_start_, N_VGetArrayPointer(scratch.vector()), scratch, false);
      // With Z as the quadrature the scratch is not needed again at each step's end: the peak
      // memory of the call stays that of the program.
      if (solver_quadrature) scratch.release();
      start_pending_ = false;
      started_ = true;
    }
    if (may_hold && !first && hold(memory, t_end, h, step_end)) return;
    if (solver_quadrature) {
      Z = quadrature_.at(memory, calls, t_end, works);
    } else {
      Z += flow_over(memory, t_end - h, t_end, scratch);
      for (std::size_t k = 0; k < works.size(); ++k) works[k] += flow_.works()[k];
    }
    const double* state = step_end;
    if (state == nullptr) {
      interpolate(memory, t_end, scratch.vector());
      state = N_VGetArrayPointer(scratch.vector());
    }
    record(t_end, state);
    if (derivative_ != nullptr) check_equations(memory, t_end, state, derivative_);
    t_audited = t_end;
    ++audited;
    keep_history(memory, t_end, state, scratch, true);
  }

  /// Lagrange's equations at the step's end, with the v̇ the solver holds there.
  void check_equations(void* memory, double t, const double* y, N_Vector scratch) {
    if (!energy.checks_equations()) return;
    interpolate(memory, t, scratch, 1);
    double out[2] = {0, 0};
    energy.equation_residual(y, N_VGetArrayPointer(scratch), t, out);
    audit.record_equation_residual({out[0], out[1]});
  }

  bool started_ = false;  // the first sample has been recorded
  // The solver stands at t_start_ with no step taken: its state is read after the first step.
  bool start_pending_ = false;
  double t_start_ = 0;
  long steps_seen_ = 0;  // the solver's step count after the last call
  // Z and the works at the time the solver last returned, for a re-initialization from there.
  bool returned_known_ = false;
  double t_returned_ = 0, Z_returned_ = 0;
  std::vector<double> works_returned_;
  N_Vector derivative_ = nullptr;  // y' for the equation check and Hamilton's q̇, during one call
  DropInFlowIntegral flow_;
  DropInSolverQuadrature<Calls> quadrature_;

  // A step whose solve call returned y(t_n) is held (drop_in_pending_step.hpp) where the solver's
  // interpolation may evaluate f(t_n, y_n): until the solver's next step or its interpolation
  // inside the step evaluates it, or, when the results are read first or the interpolant is
  // gone, integrated from the states the audit holds.

  /// Whether the audit keeps the states at the step ends to integrate a held step: where the
  /// solver's interpolation may evaluate f, with Z by Gauss–Legendre, on one rank (on several,
  /// the sums over the ranks would run when one rank alone reads a result).
  bool keeps_history() const {
    return interpolation_may_evaluate_rhs<Calls> && !solver_quadrature && !energy.shares_state() &&
           !energy.reads_state_derivative();
  }

  /// Holds the step [t_end − h, t_end] when the call returned y(t_end) and the history has the
  /// step's start.
  bool hold(void* memory, double t_end, double h, const double* step_end) {
    if (step_end == nullptr || !keeps_history() || !pending_.can_hold()) return false;
    pending_.hold(memory, calls.solve_name, t_end, h, step_end, state_length_);
    t_audited = t_end;
    return true;
  }

  /// y at a step end (or the start) the audit integrated with the solver, and at a step end f,
  /// from the interpolant, whose f(t_n, y_n) the step's quadrature has made current.
  void keep_history(void* memory, double t, const double* y, Scratch& scratch, bool step_end) {
    if (!keeps_history()) return;
    state_length_ = static_cast<std::size_t>(N_VGetLength(scratch.vector()));
    if (pending_.pending() && y == pending_.state().data()) {
      pending_.release();
    } else {
      pending_.keep_state(t, y, state_length_);
    }
    if (!step_end) return;
    interpolate(memory, t, scratch.vector(), 1);
    pending_.keep_derivative(N_VGetArrayPointer(scratch.vector()));
  }

 protected:
  /// Before a solve call: the held step on the solver's interpolant when the solver will evaluate
  /// f(t_n, y_n) anyway, as it steps (one-step mode) or interpolates at tout inside the step.
  void settle_before_call(void* memory, double tout, int itask, Scratch& scratch) {
    if (!pending_.pending()) return;
    const double t_end = pending_.t_end(), h = pending_.step();
    if (itask != Calls::one_step && !((tout - (t_end - h)) / h > 0 && (t_end - tout) / h > 0)) return;
    if (!pending_.held_by(memory, calls.solve_name, calls.steps(memory) == steps_seen_, calls.current_time(memory),
                          calls.last_step(memory))) {
      settle_from_history();
      return;
    }
    try {
      audit_step(memory, scratch, pending_.state().data(), false);
    } catch (...) {
      incomplete = true;
      pending_.reset();
      throw;
    }
  }

 private:
  /// The held step from the history (DropInPendingStep::flow_from_history); its equations are
  /// not checked (v̇ at t_n would be the polynomial's).
  void settle_from_history() {
    if (!pending_.pending()) return;
    try {
      std::vector<double> step_works;
      Z += pending_.flow_from_history(energy, step_works);
      for (std::size_t k = 0; k < works.size(); ++k) works[k] += step_works[k];
      record(pending_.t_end(), pending_.state().data());
    } catch (...) {  // an energy function threw: the step goes unaudited
      incomplete = true;
      pending_.reset();
      throw;
    }
    ++audited;
    pending_.release();
  }

  /// For the results read: the held step without the solver, which the program may have freed.
  void settle_for_reading() noexcept {
    try {
      settle_from_history();
    } catch (...) {  // recorded as incomplete
    }
  }

  DropInPendingStep pending_;
  std::size_t state_length_ = 0;  // the state's entries, for a held copy
};

}  // namespace energy_audit::sun::detail
