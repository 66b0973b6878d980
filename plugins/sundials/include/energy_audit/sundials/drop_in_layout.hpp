#pragma once
/// \file
/// Where a program's coordinates, velocities (or momenta) and multipliers lie in its solver's
/// state. Standard headers only, and no name that SUNDIALS' examples commonly #define.

#include <vector>

namespace energy_audit::sun {

/// Where q, v and λ lie in y, the solver's state (on MPI ranks, in the rank's own data): the
/// i-th coordinate is y[coordinates[i]], the i-th velocity y[velocities[i]] (the i-th momentum
/// for a program in Hamilton's variables, DropInHamiltonian), the j-th multiplier
/// y[multipliers[j]] (IDA programs with constraint_power only). Entries of y in none of the lists
/// are not read: states of a thermal, electrical or controller part, whose power on the
/// mechanical part, if any, is the program's nonpotential_power. `length` is the number of
/// entries of y, checked against the program's N_Vector at the first solve call (0: not
/// checked). The audit checks the layout at its first solve call: every index in [0, length) of
/// the vector, no index twice, n coordinates and n velocities.
///
/// Without a layout the audit reads y = [q, v, λ...]: q = y[0..n), v = y[n..2n), λ = y[2n..).
struct DropInLayout {
  long length = 0;
  std::vector<long> coordinates;
  std::vector<long> velocities;
  std::vector<long> multipliers = {};

  /// n coordinates at q_first, q_first + stride, ... and n velocities at v_first, v_first +
  /// stride, ...: [q, v] after other states (stride 1, offsets), or one body after another,
  /// y = [x1, v1, x2, v2, ...] (q_first 0, v_first 1, stride 2).
  static DropInLayout strided(long length, int dofs, long q_first, long v_first, long stride) {
    DropInLayout layout{length, {}, {}};
    for (int i = 0; i < dofs; ++i) {
      layout.coordinates.push_back(q_first + i * stride);
      layout.velocities.push_back(v_first + i * stride);
    }
    return layout;
  }

  /// The same layout with `count` multipliers at first, first + 1, ...
  DropInLayout with_multipliers(long first, long count) const {
    DropInLayout layout = *this;
    layout.multipliers.clear();
    for (long j = 0; j < count; ++j) layout.multipliers.push_back(first + j);
    return layout;
  }
};

}  // namespace energy_audit::sun
