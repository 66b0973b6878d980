#pragma once
/// \file
/// A family of integration methods, defined by the component that provides them: the studies'
/// fixed-step methods (fixed_step_family.hpp), CVODES and IDAS in the SUNDIALS plugin. A family
/// is a type with
///   - `name`: the family's name, which its methods carry (Method::family);
///   - `methods()`: its entries (methods.hpp), each with its place in the family (Method::variant);
///   - `template <class System> static void run(RunOutcome&, const System&, Vector& y,
///      const RunSettings&)`: one run of its method settings.method on a mechanical system, watched
///      by outcome.audit when there is one (run_integrator.hpp); it may throw, run_system records
///      the failure;
///   - optionally `template <class Model, class Observer> static void run_kinematic(
///      KinematicOutcome&, const KinematicSystem<Model>&, Vector& q, Observer&,
///      const KinematicSettings&, StopRequest&)`: one run of a kinematic model (kinematic_run.hpp).
///   - optionally the checks of the options only some of its methods take, which the front ends
///     call through MethodFamilies: `unavailable(name)` (why a method it knows of is not offered
///     by this build), `at_fixed_step`, `check_table`, `check_relax`, `table_help`, `relax_help`
///     (method_families.hpp).
/// A family that offers no method in this build (a solver the build lacks) declares
/// `using offers_no_methods = void;`: it answers for the methods it knows of and runs nothing.
/// The runs are compiled for each system type: no virtual call per right-hand side.

#include <concepts>
#include <string_view>
#include <vector>

#include <energy_audit/studies/methods.hpp>

namespace energy_audit::studies {

template <class F>
concept MethodFamily = requires {
  { F::name } -> std::convertible_to<std::string_view>;
  { F::methods() } -> std::same_as<const std::vector<Method>&>;
};

template <class F>
concept OffersNoMethods = requires { typename F::offers_no_methods; };

/// Whether `method` is one of family F's.
template <MethodFamily F>
bool belongs_to(const Method& method) {
  return method.family == std::string_view(F::name);
}

}  // namespace energy_audit::studies
