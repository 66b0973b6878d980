#pragma once
/// \file
/// The energies a drop-in audit saw at its last audited step. No name that SUNDIALS' examples
/// commonly #define.

namespace energy_audit::sun {

/// The energies at the last audited step (named in words: T0, T1, ... are common macros).
struct DropInStep {
  double t = 0;
  double kinetic = 0;      ///< T [J]
  double kinetic2 = 0;     ///< T2, the part of T of degree 2 in v [J]
  double kinetic1 = 0;     ///< T1, degree 1 [J]
  double kinetic0 = 0;     ///< T0, degree 0 [J]
  double potential = 0;    ///< V [J]
  double jacobi = 0;       ///< H = T2 − T0 + V [J]
  double energy_flow = 0;  ///< Z since the first audited time [J]
  double control = 0;      ///< C = H + Z [J]
};

}  // namespace energy_audit::sun
