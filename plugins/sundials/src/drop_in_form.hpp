#pragma once
/// \file
/// The energies a program gave its drop-in audit, in one of the three forms: Lagrange's
/// (DropInEnergies over q and v), Hamilton's (DropInHamiltonian over q and p) or the whole
/// state's (DropInStateEnergy over y).

#include <variant>

#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_hamiltonian.hpp"
#include "energy_audit/sundials/drop_in_state_energy.hpp"

namespace energy_audit::sun::detail {

struct DropInForm {
  int dofs = 0;  ///< n coordinates; 0 for the whole-state form, which has none
  std::variant<DropInEnergies, DropInHamiltonian, DropInStateEnergy> energies;
};

}  // namespace energy_audit::sun::detail
