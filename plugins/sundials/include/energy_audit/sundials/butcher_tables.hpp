#pragma once
/// \file
/// ARKODE's Butcher tables by name, as the SUNDIALS found has them: ERKStep's explicit tables
/// ("ARKODE_DORMAND_PRINCE_7_4_5"), ARKStep's diagonally implicit ones ("ARKODE_TRBDF2_3_3_2")
/// and, from SUNDIALS 7, SPRKStep's symplectic partitioned methods ("ARKODE_SPRK_MCLACHLAN_4_4",
/// its default), each with the order, the embedded order and the smallest weight b_i that
/// ARKODE's loaded table has (an SPRK method has no embedded method and no weights b_i). Each
/// stepper's default of order 4: ERKSTEP_DEFAULT_4 (ARKODE_ZONNEVELD_5_3_4 in SUNDIALS 6,
/// ARKODE_SOFRONIOU_SPALETTA_5_3_4 in SUNDIALS 7), ARKSTEP_DEFAULT_DIRK_4 (ARKODE_SDIRK_5_3_4 in
/// SUNDIALS 6, ARKODE_ESDIRK436L2SA_6_3_4 in SUNDIALS 7) and SPRKSTEP_DEFAULT_4.
///
/// Relaxation (ARKODE from 6.6) takes a table of order >= 2 whose weights b_i are all >= 0.
/// The relaxation default of a kind is its stepper's default where that one qualifies, else the
/// table of the highest order that qualifies and has an embedded method (ties: the higher
/// embedded order, then ARKODE's numbering): ERKStep's default qualifies; every DIRK table of
/// order 3 or more has a negative weight, and the relaxation default is of order 2.

#include <sundials/sundials_config.h>

#include <string>
#include <string_view>
#include <vector>

namespace energy_audit::sun {

/// Which of ARKODE's table families: ERKStep's explicit, ARKStep's diagonally implicit, or
/// SPRKStep's symplectic partitioned methods (none below SUNDIALS 7: arkode_has_sprk).
enum class TableKind { Explicit, DiagonallyImplicit, Symplectic };

/// Whether the ARKODE found offers SPRKStep through ARKODE's own functions (SUNDIALS 7): what
/// arkode-sprk needs (SPRKStep's 6.6–6.x interface of its own is not used).
#define EA_ARKODE_HAS_SPRK (SUNDIALS_VERSION_MAJOR >= 7)
inline constexpr bool arkode_has_sprk = EA_ARKODE_HAS_SPRK;
/// Why SPRK methods cannot be had with the SUNDIALS found; empty where they can.
const char* arkode_sprk_problem();
/// "ERK", "DIRK" or "SPRK", for messages.
const char* table_kind_name(TableKind kind);

struct ArkodeTable {
  std::string name;           ///< ARKODE's name of the table
  int id = 0;                 ///< ARKODE's number (ARKODE_ERKTableID, ARKODE_DIRKTableID)
  int order = 0;              ///< of the method's global error in h
  int embedded_order = 0;     ///< of the embedded method that adaptive steps need; 0: none
  double smallest_weight = 0; ///< min b_i
  int smallest_weight_stage = 1;  ///< i of min b_i, from 1
};

/// The tables of `kind` of the SUNDIALS found, in ARKODE's numbering.
const std::vector<ArkodeTable>& arkode_tables(TableKind kind);
/// The stepper's default table of order 4 (throws Error for SPRK where arkode_has_sprk is false).
const ArkodeTable& default_table(TableKind kind);
/// The table of `kind` called `name`, or nullptr when the SUNDIALS found has none of that name.
const ArkodeTable* find_table(TableKind kind, std::string_view name);
/// The names of arkode_tables(kind), separated by ", " (for messages).
std::string table_names(TableKind kind);

/// Why relaxation cannot take `table` (a negative weight, naming it; order 1); empty if it can.
std::string relaxation_problem(const ArkodeTable& table);
/// The tables of `kind` that relaxation takes, by name, separated by ", " (for messages).
std::string relaxable_table_names(TableKind kind);
/// The table a relaxed run takes when none is named (the file's comment says which).
const ArkodeTable& relaxation_default_table(TableKind kind);

/// The table a run takes: the one called `name` (nullptr if there is none), or with `name` empty
/// the relaxation default when `relax`, the stepper's default otherwise.
const ArkodeTable* chosen_table(TableKind kind, std::string_view name, bool relax);

}  // namespace energy_audit::sun
