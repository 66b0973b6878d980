#pragma once
/// \file
/// Z and the named works as the solver's own quadrature (QuadratureCalls: CVODES' CVodeQuadInit)
/// instead of by Gauss–Legendre on its interpolant: the solver integrates this rank's shares of Ż
/// and of each named power from 0 at its (re)start, one evaluation per step.

#include <cstddef>
#include <energy_audit/error.hpp>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>

#include "drop_in_energy_evaluation.hpp"
#include "drop_in_solver_calls.hpp"
#include "energy_audit/sundials/handles.hpp"

namespace energy_audit::sun::detail {

template <SolverCalls Calls>
class DropInSolverQuadrature {
 public:
  explicit DropInSolverQuadrature(DropInEnergyEvaluation& energy) : energy_(energy) {}
  DropInSolverQuadrature(const DropInSolverQuadrature&) = delete;
  DropInSolverQuadrature& operator=(const DropInSolverQuadrature&) = delete;

  /// One solve call's hold on the quadrature: while it lives, the solver's quadrature right-hand
  /// side on this thread evaluates this audit's energies, into a vector made for the call when
  /// `in_use` (none is kept between calls).
  class Call {
   public:
    Call(DropInSolverQuadrature& quadrature, bool in_use, N_Vector state) : quadrature_(quadrature) {
      if (in_use) {
        const auto length = static_cast<sunindextype>(1 + quadrature.energy_.named_power_count());
        vector_ = NVector(N_VNew_Serial(length, state->sunctx));
        if (!vector_) throw Error("N_VNew_Serial could not make the audit's quadrature vector");
        quadrature.vector_ = vector_.get();
      }
      previous_ = integrating;
      integrating = &quadrature;
    }
    ~Call() {
      integrating = previous_;
      quadrature_.vector_ = nullptr;
    }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

   private:
    DropInSolverQuadrature& quadrature_;
    NVector vector_;
    DropInSolverQuadrature* previous_ = nullptr;
  };

  /// Starts the solver's quadrature at 0 where Z and the works stand now: at the solver's start
  /// or re-initialization.
  void start(void* memory, const Calls& calls, double Z, const std::vector<double>& works) {
    if constexpr (QuadratureCalls<Calls>) {
      if (energy_.reads_state_derivative()) {
        throw InvalidArgument(std::string(Calls::audit_name) +
                              ": Z as the solver's quadrature has no derivative of the state, and Hamilton's form "
                              "with generalized forces reads q' from it; give coordinate_rates (dH/dp)");
      }
      Z_origin_ = Z;
      works_origin_ = works;
      N_VConst(0.0, vector_);
      if (Calls::has_quadrature(memory)) {
        if (memory != memory_) {
          throw InvalidArgument(std::string(Calls::audit_name) +
                                ": the program integrates quadratures of its own; Z as the solver's quadrature "
                                "needs it to itself");
        }
        check_flag(calls, Calls::restart_quadrature(memory, vector_), "CVodeQuadReInit", calls.current_time(memory));
      } else {
        const int flag = Calls::start_quadrature(memory, &DropInSolverQuadrature::rates, vector_);
        check_flag(calls, flag, "CVodeQuadInit", calls.current_time(memory));
        memory_ = memory;
      }
    } else {
      (void)memory, (void)calls, (void)Z, (void)works;
      throw InvalidArgument(std::string(Calls::audit_name) + ": " + Calls::solver_name +
                            " has no quadratures; Z is integrated on its interpolant");
    }
  }

  /// Z at t in the last step; the works there go to `works_at_t`.
  double at(void* memory, const Calls& calls, double t, std::vector<double>& works_at_t) {
    if constexpr (QuadratureCalls<Calls>) {
      check_flag(calls, Calls::quadrature_at(memory, t, vector_), Calls::quadrature_name, t);
      const double* values = N_VGetArrayPointer(vector_);
      const std::size_t terms = energy_.named_power_count();
      values_.assign(values, values + 1 + terms);
      energy_.sum_shares(values_.data(), static_cast<int>(values_.size()));
      double named = 0;
      for (std::size_t k = 0; k < terms; ++k) {
        named += values_[1 + k];
        works_at_t[k] = works_origin_[k] + values_[1 + k];
      }
      return Z_origin_ + (values_[0] - named);
    } else {
      (void)memory, (void)calls, (void)t, (void)works_at_t;
      return Z_origin_;  // not reached: start refuses such a solver
    }
  }

  /// Rethrows the exception that an energy function threw inside the solver, if one did.
  void rethrow_failure() {
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }
  bool failed() const { return static_cast<bool>(failure_); }

 private:
  /// The solver's quadrature right-hand side: this rank's shares of Ż and of each named power at
  /// the state y. No exception leaves it: one is kept for the audit to rethrow, and the solver
  /// stops with a failed quadrature.
  static int rates(sunrealtype t, N_Vector y, N_Vector rates_out, void*) {
    DropInSolverQuadrature* self = integrating;
    if (self == nullptr) {  // a plain solve call: its steps are not audited (the next audited call says so)
      N_VConst(0.0, rates_out);
      return 0;
    }
    try {
      const double* data = N_VGetArrayPointer(y);
      double* out = N_VGetArrayPointer(rates_out);
      out[0] = self->energy_.flow_rate(data, nullptr, t);
      for (std::size_t k = 0; k < self->energy_.named_power_count(); ++k) {
        out[1 + k] = self->energy_.named_power(k, data, t);
      }
      return 0;
    } catch (...) {
      self->failure_ = std::current_exception();
      return -1;
    }
  }

  DropInEnergyEvaluation& energy_;
  void* memory_ = nullptr;  // the solver whose quadrature this audit started
  double Z_origin_ = 0;     // Z and the works where the quadrature started from 0
  std::vector<double> works_origin_, values_;
  N_Vector vector_ = nullptr;  // the quadrature's value, during one call
  std::exception_ptr failure_;
  // The audit whose solve call is under way on this thread, which the right-hand side serves.
  static inline thread_local DropInSolverQuadrature* integrating = nullptr;
};

}  // namespace energy_audit::sun::detail
