#include "energy_audit/sundials/erk_tables.hpp"

#include <arkode/arkode_butcher_erk.h>
#include <arkode/arkode_erkstep.h>

#include <array>
#include <energy_audit/error.hpp>
#include <memory>

namespace energy_audit::sun {
namespace {

// The names of ARKODE's explicit tables in its numbering (ARKODE_ERKTableID), which SUNDIALS
// only appends to: a SUNDIALS has the first ARKODE_MAX_ERK_NUM + 1 of them (tables newer than
// this list are left out).
constexpr std::array<const char*, 28> known_names{"ARKODE_HEUN_EULER_2_1_2",
                                                  "ARKODE_BOGACKI_SHAMPINE_4_2_3",
                                                  "ARKODE_ARK324L2SA_ERK_4_2_3",
                                                  "ARKODE_ZONNEVELD_5_3_4",
                                                  "ARKODE_ARK436L2SA_ERK_6_3_4",
                                                  "ARKODE_SAYFY_ABURUB_6_3_4",
                                                  "ARKODE_CASH_KARP_6_4_5",
                                                  "ARKODE_FEHLBERG_6_4_5",
                                                  "ARKODE_DORMAND_PRINCE_7_4_5",
                                                  "ARKODE_ARK548L2SA_ERK_8_4_5",
                                                  "ARKODE_VERNER_8_5_6",
                                                  "ARKODE_FEHLBERG_13_7_8",
                                                  "ARKODE_KNOTH_WOLKE_3_3",
                                                  "ARKODE_ARK437L2SA_ERK_7_3_4",
                                                  "ARKODE_ARK548L2SAb_ERK_8_4_5",
                                                  "ARKODE_ARK2_ERK_3_1_2",
                                                  "ARKODE_SOFRONIOU_SPALETTA_5_3_4",
                                                  "ARKODE_SHU_OSHER_3_2_3",
                                                  "ARKODE_VERNER_9_5_6",
                                                  "ARKODE_VERNER_10_6_7",
                                                  "ARKODE_VERNER_13_7_8",
                                                  "ARKODE_VERNER_16_8_9",
                                                  "ARKODE_FORWARD_EULER_1_1",
                                                  "ARKODE_RALSTON_EULER_2_1_2",
                                                  "ARKODE_EXPLICIT_MIDPOINT_EULER_2_1_2",
                                                  "ARKODE_RALSTON_3_1_2",
                                                  "ARKODE_TSITOURAS_7_4_5"};
static_assert(ARKODE_MIN_ERK_NUM == 0 && ERKSTEP_DEFAULT_4 >= 0 &&
                  static_cast<std::size_t>(ERKSTEP_DEFAULT_4) < known_names.size(),
              "ERKStep's default table of order 4 is one of known_names");

struct TableDeleter {
  void operator()(ARKodeButcherTable table) const { ARKodeButcherTable_Free(table); }
};

struct Tables {
  std::vector<ErkTable> list;
  std::size_t default_index = 0;
};

const Tables& tables() {
  static const Tables all = [] {
    Tables t;
    for (int id = ARKODE_MIN_ERK_NUM; id <= ARKODE_MAX_ERK_NUM && id < static_cast<int>(known_names.size());
         ++id) {
      // By number: a name this SUNDIALS does not know would have it print an error.
      const std::unique_ptr<ARKodeButcherTableMem, TableDeleter> table(
          ARKodeButcherTable_LoadERK(static_cast<ARKODE_ERKTableID>(id)));
      if (!table)
        throw energy_audit::Error(std::string("ARKODE does not load its table ") +
                                  known_names[static_cast<std::size_t>(id)]);
      if (id == ERKSTEP_DEFAULT_4) t.default_index = t.list.size();
      t.list.push_back({known_names[static_cast<std::size_t>(id)], table->q, table->d ? table->p : 0});
    }
    return t;
  }();
  return all;
}

}  // namespace

const std::vector<ErkTable>& erk_tables() { return tables().list; }

const ErkTable& default_erk_table() { return tables().list[tables().default_index]; }

const ErkTable* find_erk_table(std::string_view name) {
  for (const ErkTable& table : erk_tables()) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

std::string erk_table_names() {
  std::string names;
  for (const ErkTable& table : erk_tables()) {
    if (!names.empty()) names += ", ";
    names += table.name;
  }
  return names;
}

}  // namespace energy_audit::sun
