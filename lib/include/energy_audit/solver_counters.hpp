#pragma once
/// \file
/// What an adaptive solver counted during a run: the plain record the SUNDIALS adapters fill and
/// the studies report, kept at the bottom so that neither depends on the other for it.

namespace energy_audit {

/// What ARKODE's relaxation counted (the SUNDIALS plugin's ArkodeOptions::relax).
struct RelaxationCounters {
  long energy_evaluations = 0;    ///< of H
  long gradient_evaluations = 0;  ///< of ∂H/∂y
  long failures = 0;              ///< steps whose relaxation failed, retried with a smaller step
  long solver_iterations = 0;     ///< of the nonlinear solve for the relaxation factor

  RelaxationCounters& operator+=(const RelaxationCounters& other) {
    energy_evaluations += other.energy_evaluations;
    gradient_evaluations += other.gradient_evaluations;
    failures += other.failures;
    solver_iterations += other.solver_iterations;
    return *this;
  }
};

struct SolverCounters {
  long steps = 0;
  long rhs_evaluations = 0;           ///< by the integrator (residual evaluations for IDAS)
  long jacobian_rhs_evaluations = 0;  ///< by the difference-quotient Jacobian
  long jacobian_evaluations = 0;
  long nonlinear_iterations = 0;
  long nonlinear_convergence_failures = 0;
  long error_test_failures = 0;
  long quadrature_rhs_evaluations = 0;
  bool relaxed = false;  ///< whether ARKODE relaxed the steps: only then is `relaxation` counted
  RelaxationCounters relaxation{};

  /// Adds the counts of another run, e.g. of the piece before a restart.
  SolverCounters& operator+=(const SolverCounters& other) {
    steps += other.steps;
    rhs_evaluations += other.rhs_evaluations;
    jacobian_rhs_evaluations += other.jacobian_rhs_evaluations;
    jacobian_evaluations += other.jacobian_evaluations;
    nonlinear_iterations += other.nonlinear_iterations;
    nonlinear_convergence_failures += other.nonlinear_convergence_failures;
    error_test_failures += other.error_test_failures;
    quadrature_rhs_evaluations += other.quadrature_rhs_evaluations;
    relaxed = relaxed || other.relaxed;
    relaxation += other.relaxation;
    return *this;
  }
};

}  // namespace energy_audit
