#pragma once
/// \file
/// How the ARKODE adapter integrates (integrate_arkode.hpp).

#include <string>
#include <vector>

#include "energy_audit/sundials/butcher_tables.hpp"

namespace energy_audit::sun {

/// ERKStep (explicit Runge–Kutta, a Butcher table by name), ARKStep with the whole right-hand
/// side implicit (a diagonally implicit Butcher table by name, Newton with a dense linear solver
/// and a difference-quotient Jacobian), or SPRKStep (a symplectic partitioned Runge–Kutta method
/// by name, at a fixed step, for a separable model: separable_model.hpp; SUNDIALS 7).
enum class ArkodeStepper { Erk, Dirk, Sprk };

/// The kind of Butcher table `stepper` takes (butcher_tables.hpp).
constexpr TableKind table_kind(ArkodeStepper stepper) {
  switch (stepper) {
    case ArkodeStepper::Erk: return TableKind::Explicit;
    case ArkodeStepper::Dirk: return TableKind::DiagonallyImplicit;
    case ArkodeStepper::Sprk: return TableKind::Symplectic;
  }
  return TableKind::Explicit;
}

struct ArkodeOptions {
  ArkodeStepper stepper = ArkodeStepper::Erk;
  /// The stepper's Butcher table, by ARKODE's name, of its table_kind (butcher_tables.hpp);
  /// empty: the stepper's default of order 4, or with `relax` the relaxation default
  /// (relaxation_default_table: ERKStep's default; for ARKStep a DIRK table of order 2).
  std::string table{};
  double rtol = 1e-8;
  double atol = 1e-10;
  /// > 0: every step this long (ARKODE's fixed-step mode, the tolerances unused), the last one
  /// cut to end at t1 or at a breakpoint; 0: adaptive steps (SPRKStep has none: it needs a step).
  double fixed_step = 0;
  long max_steps = 100000;  ///< internal steps for the whole run (ARKODE is stepped one step at a time)
  double initial_step = 0;  ///< adaptive steps: 0 for ARKODE's estimate
  double max_step = 0;      ///< adaptive steps: 0 for unbounded
  /// Times in (t0, t1) at which the right-hand side jumps: ARKODE stops at each and restarts
  /// from the state it reached (solver_pieces.hpp).
  std::vector<double> breakpoints{};
  /// Relaxation (SUNDIALS >= 6.6; a table of order >= 2 without a negative weight b_i, which
  /// every DIRK table of order 3 or more has): each step is scaled so that the system's energy
  /// H(y) changes by what the step's own stages estimate for it (nothing, for a conservative system), with H
  /// and its gradient from the system (EnergyGradientSystem, system_concepts.hpp).
  bool relax = false;
};

}  // namespace energy_audit::sun
