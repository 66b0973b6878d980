#pragma once
/// \file
/// The names --z-as and --iteration (Python's z_as and iteration) give the adaptive settings'
/// choices (adaptive_settings.hpp): one table each, which both front ends and the records use.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include <energy_audit/studies/adaptive_settings.hpp>
#include <energy_audit/studies/named_values.hpp>

namespace energy_audit::studies {

inline constexpr std::array<NamedValue<ZMode>, 2> z_mode_names{{
    {"state", ZMode::State},
    {"quadrature", ZMode::Quadrature},
}};

constexpr const char* z_mode_name(ZMode mode) { return name_in(z_mode_names, mode); }

/// The (name, value) choices of --z-as, in the table's order.
inline std::vector<std::pair<std::string, ZMode>> z_mode_choices() { return choices_of<ZMode>(z_mode_names); }

inline constexpr std::array<NamedValue<NonlinearIteration>, 2> iteration_names{{
    {"newton", NonlinearIteration::Newton},
    {"fixed-point", NonlinearIteration::FixedPoint},
}};

/// The (name, value) choices of --iteration, in the table's order.
inline std::vector<std::pair<std::string, NonlinearIteration>> iteration_choices() {
  return choices_of<NonlinearIteration>(iteration_names);
}

}  // namespace energy_audit::studies
