#pragma once
/// \file
/// The energies of a program's model as the drop-in audits (cvode_drop_in.hpp, ida_drop_in.hpp)
/// take them: plain functions over the arrays of the solver's state. Standard headers only, and
/// no name that SUNDIALS' examples commonly #define.

#include <functional>
#include <string>
#include <vector>

namespace energy_audit::sun {

/// A named power term vᵀf_k(q, v, t) [W] of the work ledger (docs/drop-in.md, the work ledger).
struct DropInNamedPower {
  std::string name;
  std::function<double(const double* q, const double* v, double t)> power;
};

/// The energies of the program's model, as plain functions over arrays of its n coordinates q
/// and n velocities v (y = [q, v, ...]: q = y[0..n), v = y[n..2n)). Only T and V are required;
/// the optional members have default initializers, so `{T, V, P}` compiles clean under -Wextra.
struct DropInEnergies {
  /// T(q, v, t) [J]
  std::function<double(const double* q, const double* v, double t)> kinetic_energy;
  /// V(q, t) [J]
  std::function<double(const double* q, double t)> potential_energy;
  /// vᵀf(q, v, t), the power of the non-potential forces [W]; empty: 0
  std::function<double(const double* q, const double* v, double t)> nonpotential_power = {};
  /// ∂T/∂t at fixed q and v [W]; empty: 0 (T does not depend on t explicitly)
  std::function<double(const double* q, const double* v, double t)> kinetic_energy_rate = {};
  /// ∂V/∂t at fixed q [W]; empty: 0
  std::function<double(const double* q, double t)> potential_energy_rate = {};
  /// The residual of Lagrange's equations of T, V and f at accelerations a: writes ‖M a − r‖∞ to
  /// out[0] and the size of the equations' terms to out[1] (energies_from_model sets it from the
  /// model's templates). Empty: the program's equations are not checked. CVODE programs only.
  std::function<void(const double* q, const double* v, const double* a, double t, double* out)> equation_residual = {};
  /// vᵀGᵀλ, the power of the constraint forces of kinematic constraints G v + g = 0 with
  /// multipliers λ = y[2n..) (M v̇ = ... + Gᵀλ) [W]; on the constraints it equals −gᵀλ, zero
  /// for scleronomic ones. Empty: 0. IDA programs only (their state holds λ).
  std::function<double(const double* q, const double* v, const double* multipliers, double t)> constraint_power = {};
  /// For a state spread over MPI ranks (SUNDIALS' N_VNew_Parallel): sums `count` values across
  /// the ranks in place (drop_in_mpi.hpp's sum_over_ranks). Each rank then gives the audit its
  /// own n coordinates and velocities (y's local data = [q, v]) and its functions return its
  /// share of T, V and the powers; the audit sums the shares, so every rank sees the whole
  /// model's C. Every rank must give the same optional functions. Empty: one process holds the
  /// whole state. Not with equation_residual, whose norms do not add.
  std::function<void(double* values, int count)> sum_shares = {};
  /// Named power terms of the non-potential forces beside nonpotential_power: Ż subtracts each,
  /// so the forces' total power is nonpotential_power plus their sum, and the audit integrates
  /// each one's work W_k = ∫ vᵀf_k dt by the same Gauss–Legendre rule as Z. Empty: none.
  std::vector<DropInNamedPower> named_powers = {};
  /// T is a quadratic form in v, T = ½ vᵀM(q, t) v (T1 = T0 = 0; a model in coordinates that do
  /// not move with time or a frame): the audit then evaluates T once per audited state instead of
  /// three times, T(q, v), T(q, −v) and T(q, 0), for its split by degree in v. At the first 4
  /// audited states it splits T all the same; a T1 or T0 beyond round-off there is named by the
  /// audit's diagnosis() (the verdict is then "incomplete") and T is split from then on.
  bool kinetic_energy_is_quadratic = false;
};

/// The default pass threshold of CvodeAudit::equation_residual(). The v̇ that CVODE holds at a
/// step's end solves the program's equations only to the tolerance of its nonlinear solver, so
/// the relative residual of correct equations can reach that tolerance rather than round-off
/// (tests/plugins/drop_in/cvode_audit_test.cpp prints it), while a wrong term weighs 1e-2 to 1 of
/// the equations' size.
inline constexpr double drop_in_equation_threshold = 1e-4;

}  // namespace energy_audit::sun
