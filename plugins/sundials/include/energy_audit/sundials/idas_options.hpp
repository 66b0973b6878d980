#pragma once
/// \file
/// How the IDAS adapter integrates a multiplier model.

#include <optional>

#include <energy_audit/multiplier_system.hpp>

#include "energy_audit/sundials/cvodes_options.hpp"

namespace energy_audit::sun {

/// The residual form written for IDAS.
enum class DaeForm {
  Index1,  ///< acceleration level: G v̇ + Ġ v + ġ = 0, λ algebraic (optionally Baumgarte)
  Ggl,     ///< stabilized index 2 (Gear–Gupta–Leimkuhler): q̇ = v + Gᵀμ, ψ = 0, Φ = 0; holonomic only
};

struct IdasOptions {
  DaeForm form = DaeForm::Index1;
  std::optional<Baumgarte> baumgarte;  ///< Index1 only
  double rtol = 1e-8;
  double atol = 1e-10;
  long max_steps = 100000;  ///< internal steps for the whole run
  double initial_step = 0;  ///< 0: IDA's estimate
  double max_step = 0;      ///< 0: unbounded
  ZMode z_mode = ZMode::State;           ///< Z as a residual component or an IDAS quadrature
  bool quadrature_error_control = true;  ///< IDASetQuadErrCon, Quadrature mode only
  /// Times in (t0, t1) at which the residual jumps: IDAS stops at each and restarts from the
  /// state it reached, with consistent derivatives computed there (solver_pieces.hpp).
  std::vector<double> breakpoints{};
};

}  // namespace energy_audit::sun
