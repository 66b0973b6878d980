#pragma once
// A crane trajectory as another tool would write its samples for `energy-audit audit-trajectory`.

#include <string>

enum class CraneEquations { Correct, OneSignFlipped };

/// Samples every 0.01 s over [0, 5] s of the crane computed with rk4 (h = 1e-4) from its
/// hand-derived accelerations (eq. 19; OneSignFlipped: crane-wrong's), as CSV: t, x1, phi, their
/// velocities and their accelerations, 17 digits.
std::string crane_samples_csv(CraneEquations equations);
