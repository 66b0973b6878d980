#pragma once
/// \file
/// ARKODE's explicit Butcher tables by name, as the SUNDIALS found has them: the names
/// ERKStepSetTableName takes ("ARKODE_DORMAND_PRINCE_7_4_5"), each with its order and the order
/// of its embedded method, and the table ERKStep takes by default at order 4 (ERKSTEP_DEFAULT_4:
/// ARKODE_ZONNEVELD_5_3_4 in SUNDIALS 6, ARKODE_SOFRONIOU_SPALETTA_5_3_4 in SUNDIALS 7).

#include <string>
#include <string_view>
#include <vector>

namespace energy_audit::sun {

struct ErkTable {
  std::string name;        ///< ARKODE's name of the table
  int order = 0;           ///< of the method's global error in h
  int embedded_order = 0;  ///< of the embedded method that adaptive steps need; 0: none
};

/// The explicit tables of the SUNDIALS found, in ARKODE's numbering (ARKODE_ERKTableID).
const std::vector<ErkTable>& erk_tables();
/// ERKStep's default table of order 4.
const ErkTable& default_erk_table();
/// The table called `name`, or nullptr when the SUNDIALS found has none of that name.
const ErkTable* find_erk_table(std::string_view name);
/// The names of erk_tables(), separated by ", " (for messages).
std::string erk_table_names();

}  // namespace energy_audit::sun
