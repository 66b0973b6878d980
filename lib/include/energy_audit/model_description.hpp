#pragma once
/// \file
/// What a model says about itself besides its physics: names of coordinates, parameters and
/// initial values, default initial state and interval. Programs that pick a model by name
/// (the command line) need it; the integrators and the audit do not.

#include <array>
#include <concepts>
#include <ranges>
#include <string_view>

#include "energy_audit/lagrange_model.hpp"

namespace energy_audit {

/// The values a named member accepts.
enum class Domain { Any, NonNegative, Positive };

constexpr bool within_domain(Domain domain, double value) {
  switch (domain) {
    case Domain::NonNegative: return value >= 0;
    case Domain::Positive: return value > 0;
    case Domain::Any: break;
  }
  return true;
}

constexpr const char* domain_text(Domain domain) {
  switch (domain) {
    case Domain::NonNegative: return ">= 0";
    case Domain::Positive: return "> 0";
    case Domain::Any: break;
  }
  return "a number";
}

/// A double member of model M reachable by name: a parameter, or an initial value.
template <class M>
struct NamedMember {
  std::string_view name;
  double M::*member;
  std::string_view description;  ///< with its unit: "trolley mass [kg]"
  Domain domain = Domain::Any;   ///< masses and lengths: Positive
};

struct Interval {
  double t0 = 0;
  double t_end = 0;
};

template <int n>
struct InitialState {
  VectorN<double, n> q;
  VectorN<double, n> v;
};

/// A Lagrange model with
///   static constexpr std::array<std::string_view, dofs> coordinate_names();
///   static constexpr std::array<NamedMember<M>, P> parameters();       // physical parameters
///   static constexpr std::array<NamedMember<M>, K> initial_values();   // what --init may set
///   InitialState<dofs> initial_state() const;                          // from those values
///   static constexpr Interval interval;
/// and optionally `void prepare()` (PreparedModel below).
template <class M>
concept DescribedModel =
    LagrangeModel<M> && requires(const M& model) {
      { M::coordinate_names() } -> std::convertible_to<std::array<std::string_view, M::dofs>>;
      { M::parameters() } -> std::ranges::range;
      { M::initial_values() } -> std::ranges::range;
      { model.initial_state() } -> std::convertible_to<InitialState<M::dofs>>;
      { M::interval } -> std::convertible_to<Interval>;
    };

/// A model with `void prepare()`: what depends on both its parameters and its initial values
/// (crane3d: its start, a static equilibrium, and the zero level of V there) is computed there.
/// Programs that set a model's members by name (the command line, after --set and --init) call
/// it before initial_state() and the energies.
template <class M>
concept PreparedModel = requires(M& model) { model.prepare(); };

}  // namespace energy_audit
