#pragma once
/// \file
/// Constraint stabilization for multiplier models, and the names --stabilize (and Python's
/// stabilize) give it.

#include <array>
#include <vector>

#include <energy_audit/studies/named_values.hpp>

namespace energy_audit::studies {

/// How a multiplier model's run keeps its constraints: not at all beyond the saddle point,
/// Baumgarte's feedback 2 alpha psi + beta^2 Phi, or GGL's residual form (idas).
enum class Stabilization { None, Baumgarte, Ggl };

/// Every stabilization by name, in the order messages list them.
inline constexpr std::array<NamedValue<Stabilization>, 3> stabilization_names{{
    {"none", Stabilization::None},
    {"baumgarte", Stabilization::Baumgarte},
    {"ggl", Stabilization::Ggl},
}};

constexpr const char* stabilization_name(Stabilization s) { return name_in(stabilization_names, s); }

/// The (name, value) choices of --stabilize, in the table's order.
inline std::vector<std::pair<std::string, Stabilization>> stabilization_choices() {
  return choices_of<Stabilization>(stabilization_names);
}

}  // namespace energy_audit::studies
