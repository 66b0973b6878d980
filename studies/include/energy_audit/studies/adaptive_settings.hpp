#pragma once
/// \file
/// What a run of an adaptive method is asked for: its tolerances, its bounds on the steps and
/// where it carries Ż. The settings are the studies' own; each adaptive family (the SUNDIALS
/// plugin's CVODES, IDAS and ARKODE families) turns them into its solver's options.

namespace energy_audit::studies {

/// Where Ż is carried: appended to the state (it then takes part in error control), or as a
/// quadrature beside it, for the solvers that have quadratures (Method::carries_quadrature).
enum class ZMode { State, Quadrature };

/// The nonlinear iteration of an implicit method that lets the user choose it
/// (Method::chooses_iteration): Newton with a dense linear solver, or fixed point.
enum class NonlinearIteration { Newton, FixedPoint };

struct AdaptiveSettings {
  NonlinearIteration iteration = NonlinearIteration::Newton;
  double rtol = 1e-8;
  double atol = 1e-10;
  long max_steps = 100000;  ///< internal steps for the whole run
  double initial_step = 0;  ///< 0: the solver's estimate
  double max_step = 0;      ///< 0: unbounded
  ZMode z_mode = ZMode::State;
  bool quadrature_error_control = true;  ///< Ż's quadrature under error control (ZMode::Quadrature)
};

}  // namespace energy_audit::studies
