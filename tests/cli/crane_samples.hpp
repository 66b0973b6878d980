#pragma once
// A crane trajectory as another tool would write its samples for `energy-audit audit-trajectory`.

#include <array>
#include <string>

enum class CraneEquations { Correct, OneSignFlipped };

/// Samples every 0.01 s over [0, 5] s of the crane computed with rk4 (h = 1e-4) from its
/// hand-derived accelerations (eq. 19; OneSignFlipped: crane-wrong's), as CSV: t, x1, phi, their
/// velocities and their accelerations, 17 digits.
std::string crane_samples_csv(CraneEquations equations);

/// The crane's hand-derived accelerations (eq. 19) at t, q = (x1, phi), v = (x1_dot, phi_dot).
std::array<double, 2> crane_accelerations(double t, const std::array<double, 2>& q, const std::array<double, 2>& v);
