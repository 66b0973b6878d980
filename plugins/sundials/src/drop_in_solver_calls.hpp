#pragma once
/// \file
/// One SUNDIALS solver's functions as the drop-in audit reaches them (SolverCalls), and those of a
/// solver that integrates quadratures of its own (QuadratureCalls).

#include <concepts>
#include <string>

#include <nvector/nvector_serial.h>

#include "energy_audit/sundials/solver_error.hpp"

namespace energy_audit::sun::detail {

/// Where a solve call writes its solution: y, and for IDA also y'.
struct SolverOutput {
  N_Vector y = nullptr;
  N_Vector yp = nullptr;  ///< null for CVODE
};

/// One SUNDIALS solver's functions as the drop-in audit uses them. `interpolate` writes the k-th
/// derivative of the last step's interpolant at t; `output` writes the solution at t as the
/// solver's normal mode would return it. The functions and the names of the solve and
/// interpolation functions are reached through an object, so that one solver with several
/// steppers (ARKODE's ERKStep and ARKStep) may choose them per call; the flags are constants.
template <class Calls>
concept SolverCalls = requires(const Calls calls, void* memory, sunrealtype t, int k, N_Vector v,
                               SolverOutput out, sunrealtype* tret) {
  { calls.solve(memory, t, out, tret, k) } -> std::same_as<int>;
  { calls.steps(memory) } -> std::same_as<long>;
  { calls.current_time(memory) } -> std::same_as<double>;
  { calls.last_step(memory) } -> std::same_as<double>;
  { calls.interpolate(memory, t, k, v) } -> std::same_as<int>;
  { calls.output(memory, t, out) } -> std::same_as<int>;
  { calls.set_stop_time(memory, t) } -> std::same_as<int>;
  { calls.flag_name(k) } -> std::same_as<std::string>;
  { Calls::normal } -> std::convertible_to<int>;
  { Calls::one_step } -> std::convertible_to<int>;
  { Calls::success } -> std::convertible_to<int>;
  { Calls::root_return } -> std::convertible_to<int>;
  { Calls::tstop_return } -> std::convertible_to<int>;
  { Calls::ill_input } -> std::convertible_to<int>;
  { Calls::audit_name } -> std::convertible_to<const char*>;       // "CvodeAudit"
  { calls.solve_name } -> std::convertible_to<const char*>;        // "CVode"
  { Calls::solver_name } -> std::convertible_to<const char*>;      // "CVODE"
  { calls.interpolate_name } -> std::convertible_to<const char*>;  // "CVodeGetDky"
};

/// The right-hand side of a solver's quadrature (CVODES' CVQuadRhsFn).
using QuadratureRhs = int (*)(sunrealtype t, N_Vector y, N_Vector rates, void* user_data);

/// A solver that integrates quadratures of its own (CVODES): Z may be one of them, integrated
/// with the solver's steps from one evaluation of Ż per step. `has_quadrature` says whether the
/// solver has a quadrature set up; `quadrature_at` writes its value at t in the last step.
template <class Calls>
concept QuadratureCalls =
    SolverCalls<Calls> && requires(void* memory, QuadratureRhs rhs, sunrealtype t, N_Vector v) {
  { Calls::has_quadrature(memory) } -> std::same_as<bool>;
  { Calls::start_quadrature(memory, rhs, v) } -> std::same_as<int>;
  { Calls::restart_quadrature(memory, v) } -> std::same_as<int>;
  { Calls::quadrature_at(memory, t, v) } -> std::same_as<int>;
  { Calls::quadrature_name } -> std::convertible_to<const char*>;  // "CVodeGetQuadDky"
};

/// Throws SolverError for a failure flag that `function` returned at t.
template <SolverCalls Calls>
void check_flag(const Calls& calls, int flag, const char* function, double t) {
  if (flag < 0) throw SolverError(function, flag, calls.flag_name(flag), {}, t);
}

}  // namespace energy_audit::sun::detail
