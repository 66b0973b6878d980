#pragma once
/// \file
/// What SUNDIALS counted during a run.

namespace energy_audit::sun {

struct SolverCounters {
  long steps = 0;
  long rhs_evaluations = 0;           ///< by the integrator (residual evaluations for IDAS)
  long jacobian_rhs_evaluations = 0;  ///< by the difference-quotient Jacobian
  long jacobian_evaluations = 0;
  long nonlinear_iterations = 0;
  long nonlinear_convergence_failures = 0;
  long error_test_failures = 0;
  long quadrature_rhs_evaluations = 0;
};

}  // namespace energy_audit::sun
