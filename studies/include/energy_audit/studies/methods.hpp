#pragma once
/// \file
/// An integration method as the studies know it: one entry that its family (method_family.hpp)
/// provides, with its name, its place in the family (which stepper or solver runs it) and what the
/// studies ask of it (its order, its stability polynomial, the models and options it takes). The
/// studies offer the fixed-step family (fixed_step_family.hpp); a component offers more families,
/// as the SUNDIALS plugin offers CVODES and IDAS (docs/library.md, the studies library).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <energy_audit/stability_polynomial.hpp>

namespace energy_audit::studies {

struct Method {
  std::string name;
  std::string description;
  std::string family;       ///< the name of the family that runs it
  std::size_t variant = 0;  ///< its place in its family's methods(): which stepper or solver the family runs
  int order = 0;  ///< of the global error in h, for the fixed-step methods (0: an adaptive method)
  /// R(z) of an explicit Runge–Kutta method, from its tableau (the stability map's linear
  /// theory); absent for the other methods.
  std::optional<StabilityPolynomial> stability;
  /// Whether it chooses its own steps to meet tolerances (rtol, atol) rather than taking a fixed step.
  bool chooses_steps = false;
  /// Whether this adaptive method also runs at a fixed step (ARKODE's): its component gives the
  /// variant that does, which chooses no steps and has the order of the method it runs.
  bool takes_fixed_step = false;
  /// Whether it can carry Ż as a quadrature beside the state (ZMode::Quadrature): the solvers
  /// that have quadratures.
  bool carries_quadrature = false;
  /// Whether the choice of the nonlinear iteration (Newton or fixed point) applies.
  bool chooses_iteration = false;
  /// Whether it needs a residual (multiplier) model; the other methods run every such model too.
  bool needs_multipliers = false;
  /// Whether it integrates the residual form of a multiplier model, the one --stabilize ggl sets.
  bool takes_residual_form = false;
  /// Whether it updates velocities and positions apart (a PartitionedSystem): not for the
  /// kinematic models, which have no velocities.
  bool partitioned = false;
  /// Whether it needs a separable model (separable_model.hpp): SPRKStep's symplectic methods.
  bool needs_separable_model = false;
  /// Why the method cannot start on [t0, t1], or an empty string when it can (the adaptive
  /// solvers' limits); null: any interval the studies accept.
  std::string (*interval_problem)(double t0, double t1) = nullptr;

  bool adaptive() const { return chooses_steps; }
  bool runs_only_multiplier_models() const { return needs_multipliers; }
  /// Whether it runs the kinematic models (q' = w(q, t)).
  bool runs_kinematic_models() const { return !needs_multipliers && !partitioned; }
};

/// The native fixed-step methods, in FixedStepMethods' order (the fixed-step family's methods).
const std::vector<Method>& fixed_step_methods();
/// The method a run takes by default: rk4.
const Method& default_method();
/// The methods' names, in the list's order.
std::vector<std::string> method_names(const std::vector<Method>& methods);
/// The names of the methods of the list that do not adapt their step and run any model (not those
/// that need a separable model): compare's default --methods.
std::vector<std::string> fixed_step_method_names(const std::vector<Method>& methods);
/// The names of the methods of the list with a stability polynomial: those a stability map runs.
std::vector<std::string> stability_method_names(const std::vector<Method>& methods);
/// The method of `methods` called `name`; throws SettingsError naming the known ones (`option`
/// names the flag).
const Method& find_method(const std::vector<Method>& methods, const std::string& name,
                          const char* option = "--method");

}  // namespace energy_audit::studies
