#pragma once
/// \file
/// The names --phase (and Python's phase) give a PiecePhase (step_aware.hpp): how a fixed step
/// samples an excitation given in pieces.

#include <array>
#include <vector>

#include <energy_audit/step_aware.hpp>

#include <energy_audit/studies/named_values.hpp>

namespace energy_audit::studies {

/// Every piece phase by name, in the order messages list them.
inline constexpr std::array<NamedValue<PiecePhase>, 2> phase_names{{
    {"right", PiecePhase::Right},
    {"midpoint", PiecePhase::Midpoint},
}};

constexpr const char* phase_name(PiecePhase phase) { return name_in(phase_names, phase); }

/// The (name, value) choices of --phase, in the table's order.
inline std::vector<std::pair<std::string, PiecePhase>> phase_choices() {
  return choices_of<PiecePhase>(phase_names);
}

}  // namespace energy_audit::studies
