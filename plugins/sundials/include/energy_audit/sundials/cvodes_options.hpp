#pragma once
/// \file
/// How the CVODES adapter integrates.

#include <vector>

namespace energy_audit::sun {

/// Where Ż is carried: appended to the state (it then takes part in error control), or as a
/// CVODES quadrature (CVodeQuadInit).
enum class ZMode { State, Quadrature };

enum class Multistep { Bdf, Adams };
enum class NonlinearIteration { Newton, FixedPoint };

struct CvodesOptions {
  Multistep method = Multistep::Bdf;
  NonlinearIteration iteration = NonlinearIteration::Newton;  ///< Newton uses a dense linear solver
  double rtol = 1e-8;
  double atol = 1e-10;
  long max_steps = 100000;     ///< internal steps for the whole run (CVODE is stepped one step at a time)
  double initial_step = 0;     ///< 0: CVODE's estimate
  double max_step = 0;         ///< 0: unbounded
  ZMode z_mode = ZMode::State;
  bool quadrature_error_control = true;  ///< CVodeSetQuadErrCon, Quadrature mode only
  /// Times in (t0, t1) at which the right-hand side jumps: CVODES stops at each and restarts
  /// from the state it reached (solver_pieces.hpp).
  std::vector<double> breakpoints{};
};

}  // namespace energy_audit::sun
