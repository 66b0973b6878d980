#pragma once
/// \file
/// Quantities a model reports beside its energies (a conserved momentum, support forces, natural
/// frequencies), as an optional pair of members:
///
///     static constexpr std::array<std::string_view, K> extra_output_names();
///     std::array<double, K> extra_outputs(const Coordinates<double>& q, const Coordinates<double>& v,
///                                         double t) const;
///
/// They are functions of the state (q, v, t) only. The integrators and the audit never call them;
/// extra_outputs_at evaluates them at a state of any of the library's systems, whose second half
/// w may be v, p (Hamilton's form) or u (Maggi's).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// K of a model that declares extra_output_names().
template <class M>
inline constexpr std::size_t declared_extra_output_count = std::tuple_size_v<decltype(M::extra_output_names())>;

/// A model with K ≥ 1 extra outputs: their names, and their values at (q, v, t).
template <class M>
concept HasExtraOutputs =
    LagrangeModel<M> && requires { M::extra_output_names(); } &&  // before K is asked for
    requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
      requires declared_extra_output_count<M> >= 1;
      { M::extra_output_names() } -> std::same_as<std::array<std::string_view, declared_extra_output_count<M>>>;
      { model.extra_outputs(q, q, t) } -> std::same_as<std::array<double, declared_extra_output_count<M>>>;
    };

/// K of a model with extra outputs, 0 for one without.
template <class M>
inline constexpr std::size_t extra_output_count = [] {
  if constexpr (HasExtraOutputs<M>) {
    return declared_extra_output_count<M>;
  } else {
    return std::size_t{0};
  }
}();

/// The extra outputs of the model of `system` at the state (q, w, t), w the state's second half:
/// the velocities are v = q̇ = rates_of_q(q, w, t), so in Hamilton's and Maggi's forms they come
/// from the system as its integrators see them.
template <PartitionedSystem System>
  requires HasExtraOutputs<std::remove_cvref_t<decltype(std::declval<const System&>().model())>>
auto extra_outputs_at(const System& system, const ConstVectorRef& q, const ConstVectorRef& w, double t) {
  using M = std::remove_cvref_t<decltype(system.model())>;
  VectorN<double, M::dofs> v;  // fixed size: GCC 12 misreads a dynamic one written here as an overflow
  system.rates_of_q(q, w, t, v);
  const VectorN<double, M::dofs> q_fixed = q;
  return system.model().extra_outputs(q_fixed, v, t);
}

}  // namespace energy_audit
