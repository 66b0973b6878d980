#pragma once
/// \file
/// A Lagrange model that names its non-conservative forces (docs/mathematics.md, the work
/// ledger): an optional member beside forces(),
///
///     static constexpr std::array<std::string_view, K> force_names();
///     std::array<VectorN<double, dofs>, K> named_forces(q, v, t) const;  // over double
///
/// whose K generalized-force vectors sum to forces(q, v, t). The audit's work ledger integrates
/// the work W_k = ∫ vᵀ f_k dt of each.

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "energy_audit/energy_sample.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// A model whose force_names() and named_forces(q, v, t) are as above: K names, K vectors.
template <class M>
concept NamedForcesModel =
    LagrangeModel<M> &&
    requires(const M& model, const VectorN<double, M::dofs>& q, double t) {
      { M::force_names() } -> std::convertible_to<std::array<std::string_view, std::tuple_size_v<decltype(M::force_names())>>>;
      { model.named_forces(q, q, t)[0] } -> std::convertible_to<VectorN<double, M::dofs>>;
      requires std::tuple_size_v<decltype(model.named_forces(q, q, t))> ==
                   std::tuple_size_v<decltype(M::force_names())>;
    };

/// The number of forces a model names: 0 for one that names none.
template <LagrangeModel M>
constexpr std::size_t named_force_count() {
  if constexpr (NamedForcesModel<M>) {
    return M::force_names().size();
  } else {
    return 0;
  }
}

/// The power vᵀ f_k of each named force at (q, v, t) [W]; empty for a model that names none.
template <LagrangeModel M>
std::array<double, named_force_count<M>()> named_force_powers(const M& model, const VectorN<double, M::dofs>& q,
                                                             const VectorN<double, M::dofs>& v, double t) {
  std::array<double, named_force_count<M>()> powers{};
  if constexpr (NamedForcesModel<M>) {
    const auto forces = model.named_forces(q, v, t);
    for (std::size_t k = 0; k < powers.size(); ++k) powers[k] = v.dot(VectorN<double, M::dofs>(forces[k]));
  }
  return powers;
}

/// At one state: the power vᵀ f_k of each of the K named forces and ∂T/∂t − ∂V/∂t [W].
template <std::size_t K>
struct NamedForcePowers {
  std::array<double, K> forces{};
  double explicit_time = 0;
};

/// The force names of model M, as a ledger holds them (none for a model that names none).
template <LagrangeModel M>
std::vector<std::string> force_names_of() {
  std::vector<std::string> names;
  if constexpr (NamedForcesModel<M>) {
    for (const auto name : M::force_names()) names.emplace_back(name);
  }
  return names;
}

/// One accepted state of a system whose model names its forces: its sample and the forces'
/// powers there, both from one evaluation of the velocities (in Hamilton's and Maggi's forms v
/// is computed from p or u).
template <std::size_t K>
struct SampleWithPowers {
  EnergySample sample;
  NamedForcePowers<K> powers;
};

/// A first-order system whose model names its forces: the audit's observer feeds its work
/// ledger at every accepted step (audit.hpp) from sample_with_powers(y, t, check_sum), which
/// gives the sample too. check_sum asks for check_named_forces_sum at y.
template <class S>
concept NamedForcesSystem = requires(const S& system, const ConstVectorRef& y, double t) {
  { system.force_names() } -> std::same_as<std::vector<std::string>>;
  { system.sample_with_powers(y, t, true).sample } -> std::convertible_to<const EnergySample&>;
  { system.sample_with_powers(y, t, true).powers.forces.size() } -> std::convertible_to<std::size_t>;
  { system.sample_with_powers(y, t, true).powers.explicit_time } -> std::convertible_to<double>;
};

/// A NamedForcesSystem that also gives its rates at (y, t) from the same evaluation as the sample
/// and the powers (rates_sample_with_powers(y, dydt, t, check_sum)): the audit takes each state
/// that way in the first stage of the step that leaves it.
template <class S>
concept RatesSampleWithPowersSystem =
    NamedForcesSystem<S> && requires(const S& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) {
      { system.rates_sample_with_powers(y, dydt, t, true).sample } -> std::convertible_to<const EnergySample&>;
    };

/// Throws InvalidArgument, naming the coordinate and the values, when the named forces at
/// (q, v, t) do not sum to forces(q, v, t) within round-off (64 ulp of the largest term).
template <LagrangeModel M>
void check_named_forces_sum(const M& model, const VectorN<double, M::dofs>& q, const VectorN<double, M::dofs>& v,
                            double t) {
  if constexpr (NamedForcesModel<M>) {
    const VectorN<double, M::dofs> total = model.forces(q, v, t);
    const auto forces = model.named_forces(q, v, t);
    for (int i = 0; i < M::dofs; ++i) {
      double sum = 0, scale = std::abs(total[i]);
      for (const auto& force : forces) {
        sum += force[i];
        scale = std::max(scale, std::abs(force[i]));
      }
      const double tolerance = 64 * std::numeric_limits<double>::epsilon() * scale;
      if (!(std::abs(sum - total[i]) <= tolerance)) {
        throw InvalidArgument("the named forces do not sum to forces(): in coordinate " + std::to_string(i) +
                              " at t = " + to_text(t) + " their sum is " + to_text(sum) + ", forces() gives " +
                              to_text(total[i]));
      }
    }
  }
}

}  // namespace energy_audit
