#include "energy_audit/sundials/butcher_tables.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>
#include <arkode/arkode_erkstep.h>
#if EA_ARKODE_HAS_SPRK
#include <arkode/arkode_sprk.h>
#include <arkode/arkode_sprkstep.h>
#endif

#include <array>
#include <cstdio>
#include <energy_audit/error.hpp>
#include <memory>
#include <span>
#include <utility>

namespace energy_audit::sun {
namespace {

// The names of ARKODE's tables in its numbering (ARKODE_ERKTableID, ARKODE_DIRKTableID), which
// SUNDIALS only appends to: a SUNDIALS has the first ARKODE_MAX_*_NUM - ARKODE_MIN_*_NUM + 1 of
// them (tables newer than these lists are left out).
constexpr std::array<const char*, 27> explicit_names{"ARKODE_HEUN_EULER_2_1_2",
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
constexpr std::array<const char*, 27> diagonally_implicit_names{"ARKODE_SDIRK_2_1_2",
                                                                "ARKODE_BILLINGTON_3_3_2",
                                                                "ARKODE_TRBDF2_3_3_2",
                                                                "ARKODE_KVAERNO_4_2_3",
                                                                "ARKODE_ARK324L2SA_DIRK_4_2_3",
                                                                "ARKODE_CASH_5_2_4",
                                                                "ARKODE_CASH_5_3_4",
                                                                "ARKODE_SDIRK_5_3_4",
                                                                "ARKODE_KVAERNO_5_3_4",
                                                                "ARKODE_ARK436L2SA_DIRK_6_3_4",
                                                                "ARKODE_KVAERNO_7_4_5",
                                                                "ARKODE_ARK548L2SA_DIRK_8_4_5",
                                                                "ARKODE_ARK437L2SA_DIRK_7_3_4",
                                                                "ARKODE_ARK548L2SAb_DIRK_8_4_5",
                                                                "ARKODE_ESDIRK324L2SA_4_2_3",
                                                                "ARKODE_ESDIRK325L2SA_5_2_3",
                                                                "ARKODE_ESDIRK32I5L2SA_5_2_3",
                                                                "ARKODE_ESDIRK436L2SA_6_3_4",
                                                                "ARKODE_ESDIRK43I6L2SA_6_3_4",
                                                                "ARKODE_QESDIRK436L2SA_6_3_4",
                                                                "ARKODE_ESDIRK437L2SA_7_3_4",
                                                                "ARKODE_ESDIRK547L2SA_7_4_5",
                                                                "ARKODE_ESDIRK547L2SA2_7_4_5",
                                                                "ARKODE_ARK2_DIRK_3_1_2",
                                                                "ARKODE_BACKWARD_EULER_1_1",
                                                                "ARKODE_IMPLICIT_MIDPOINT_1_2",
                                                                "ARKODE_IMPLICIT_TRAPEZOIDAL_2_2"};
// SPRKStep's methods (ARKODE_SPRKMethodID), from SUNDIALS 7 on here.
constexpr std::array<const char*, 12> symplectic_names{"ARKODE_SPRK_EULER_1_1",
                                                       "ARKODE_SPRK_LEAPFROG_2_2",
                                                       "ARKODE_SPRK_PSEUDO_LEAPFROG_2_2",
                                                       "ARKODE_SPRK_RUTH_3_3",
                                                       "ARKODE_SPRK_MCLACHLAN_2_2",
                                                       "ARKODE_SPRK_MCLACHLAN_3_3",
                                                       "ARKODE_SPRK_CANDY_ROZMUS_4_4",
                                                       "ARKODE_SPRK_MCLACHLAN_4_4",
                                                       "ARKODE_SPRK_MCLACHLAN_5_6",
                                                       "ARKODE_SPRK_YOSHIDA_6_8",
                                                       "ARKODE_SPRK_SUZUKI_UMENO_8_16",
                                                       "ARKODE_SPRK_SOFRONIOU_10_36"};
static_assert(ARKODE_MIN_ERK_NUM == 0 && ERKSTEP_DEFAULT_4 >= 0 &&
                  static_cast<std::size_t>(ERKSTEP_DEFAULT_4) < explicit_names.size(),
              "ERKStep's default table of order 4 is one of explicit_names");
static_assert(ARKSTEP_DEFAULT_DIRK_4 >= ARKODE_MIN_DIRK_NUM &&
                  static_cast<std::size_t>(ARKSTEP_DEFAULT_DIRK_4 - ARKODE_MIN_DIRK_NUM) <
                      diagonally_implicit_names.size(),
              "ARKStep's default DIRK table of order 4 is one of diagonally_implicit_names");

struct TableDeleter {
  void operator()(ARKodeButcherTable table) const { ARKodeButcherTable_Free(table); }
};

/// How to load the tables of one kind.
struct KindSource {
  std::span<const char* const> names;
  int first_id, last_id, default_id;
  ARKodeButcherTable (*load)(int id);
};

KindSource source_of(TableKind kind) {
  if (kind == TableKind::Explicit) {
    return {explicit_names, ARKODE_MIN_ERK_NUM, ARKODE_MAX_ERK_NUM, ERKSTEP_DEFAULT_4,
            [](int id) { return ARKodeButcherTable_LoadERK(static_cast<ARKODE_ERKTableID>(id)); }};
  }
  return {diagonally_implicit_names, ARKODE_MIN_DIRK_NUM, ARKODE_MAX_DIRK_NUM, ARKSTEP_DEFAULT_DIRK_4,
          [](int id) { return ARKodeButcherTable_LoadDIRK(static_cast<ARKODE_DIRKTableID>(id)); }};
}

/// The SPRK methods of the SUNDIALS found (none below SUNDIALS 7), SPRKStep's default first of
/// order 4.
std::vector<ArkodeTable> load_symplectic(std::size_t& default_index) {
  std::vector<ArkodeTable> list;
#if EA_ARKODE_HAS_SPRK
  for (int id = ARKODE_MIN_SPRK_NUM;
       id <= ARKODE_MAX_SPRK_NUM && id - ARKODE_MIN_SPRK_NUM < static_cast<int>(symplectic_names.size()); ++id) {
    const char* name = symplectic_names[static_cast<std::size_t>(id - ARKODE_MIN_SPRK_NUM)];
    const ARKodeSPRKTable table = ARKodeSPRKTable_Load(static_cast<ARKODE_SPRKMethodID>(id));
    if (!table) throw energy_audit::Error(std::string("ARKODE does not load its SPRK method ") + name);
    const int order = table->q;
    ARKodeSPRKTable_Free(table);
    if (id == SPRKSTEP_DEFAULT_4) default_index = list.size();
    list.push_back(ArkodeTable{name, id, order, 0, 0.0, 1});
  }
#else
  (void)symplectic_names;
  default_index = 0;
#endif
  return list;
}

bool relaxable(const ArkodeTable& table) { return table.order >= 2 && table.smallest_weight >= 0; }

struct Tables {
  std::vector<ArkodeTable> list;
  std::size_t default_index = 0;
  std::size_t relaxation_default_index = 0;
};

Tables load(TableKind kind) {
  Tables t;
  if (kind == TableKind::Symplectic) {  // no relaxation: its default is never used
    t.list = load_symplectic(t.default_index);
    t.relaxation_default_index = t.default_index;
    return t;
  }
  const KindSource source = source_of(kind);
  for (int id = source.first_id;
       id <= source.last_id && id - source.first_id < static_cast<int>(source.names.size()); ++id) {
    const char* name = source.names[static_cast<std::size_t>(id - source.first_id)];
    // By number: a name this SUNDIALS does not know would have it print an error.
    const std::unique_ptr<ARKodeButcherTableMem, TableDeleter> table(source.load(id));
    if (!table) throw energy_audit::Error(std::string("ARKODE does not load its table ") + name);
    ArkodeTable entry{name, id, table->q, table->d ? table->p : 0, table->b[0], 1};
    for (int stage = 1; stage < table->stages; ++stage) {
      if (table->b[stage] < entry.smallest_weight) {
        entry.smallest_weight = table->b[stage];
        entry.smallest_weight_stage = stage + 1;
      }
    }
    if (id == source.default_id) t.default_index = t.list.size();
    t.list.push_back(std::move(entry));
  }
  t.relaxation_default_index = t.default_index;
  if (!relaxable(t.list[t.default_index])) {
    const auto better = [](const ArkodeTable& a, const ArkodeTable& b) {  // a before b
      return a.order != b.order ? a.order > b.order : a.embedded_order > b.embedded_order;
    };
    const ArkodeTable* best = nullptr;
    for (const ArkodeTable& table : t.list) {  // the first of equals in ARKODE's numbering
      if (relaxable(table) && table.embedded_order > 0 && (!best || better(table, *best))) best = &table;
    }
    if (!best) throw energy_audit::Error("ARKODE has no table with an embedded method that relaxation takes");
    t.relaxation_default_index = static_cast<std::size_t>(best - t.list.data());
  }
  return t;
}

const Tables& tables(TableKind kind) {
  static const Tables explicit_tables = load(TableKind::Explicit);
  static const Tables diagonally_implicit_tables = load(TableKind::DiagonallyImplicit);
  static const Tables symplectic_tables = load(TableKind::Symplectic);
  switch (kind) {
    case TableKind::Explicit: return explicit_tables;
    case TableKind::DiagonallyImplicit: return diagonally_implicit_tables;
    case TableKind::Symplectic: return symplectic_tables;
  }
  return explicit_tables;
}

/// The list's entry at `index`; throws Error for SPRK where this SUNDIALS has none.
const ArkodeTable& entry(TableKind kind, std::size_t index) {
  const std::vector<ArkodeTable>& list = tables(kind).list;
  if (list.empty()) throw energy_audit::Error(arkode_sprk_problem());
  return list[index];
}

}  // namespace

const char* arkode_sprk_problem() {
  return arkode_has_sprk ? ""
                         : "SPRKStep needs SUNDIALS 7.0 or later (reached through ARKodeEvolve); found " SUNDIALS_VERSION;
}

const char* table_kind_name(TableKind kind) {
  switch (kind) {
    case TableKind::Explicit: return "ERK";
    case TableKind::DiagonallyImplicit: return "DIRK";
    case TableKind::Symplectic: return "SPRK";
  }
  return "";
}

const std::vector<ArkodeTable>& arkode_tables(TableKind kind) { return tables(kind).list; }

const ArkodeTable& default_table(TableKind kind) { return entry(kind, tables(kind).default_index); }

const ArkodeTable* find_table(TableKind kind, std::string_view name) {
  for (const ArkodeTable& table : arkode_tables(kind)) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

std::string table_names(TableKind kind) {
  std::string names;
  for (const ArkodeTable& table : arkode_tables(kind)) names += (names.empty() ? "" : ", ") + table.name;
  return names;
}

std::string relaxation_problem(const ArkodeTable& table) {
  if (table.order < 2)
    return table.name + " is of order " + std::to_string(table.order) + ", relaxation needs 2 or more";
  if (table.smallest_weight < 0) {
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.6g", table.smallest_weight);
    return table.name + " has a negative weight b_" + std::to_string(table.smallest_weight_stage) + " = " +
           weight + ", relaxation needs every b_i >= 0";
  }
  return {};
}

std::string relaxable_table_names(TableKind kind) {
  std::string names;
  for (const ArkodeTable& table : arkode_tables(kind)) {
    if (relaxable(table)) names += (names.empty() ? "" : ", ") + table.name;
  }
  return names;
}

const ArkodeTable& relaxation_default_table(TableKind kind) {
  return entry(kind, tables(kind).relaxation_default_index);
}

const ArkodeTable* chosen_table(TableKind kind, std::string_view name, bool relax) {
  if (!name.empty()) return find_table(kind, name);
  return relax ? &relaxation_default_table(kind) : &default_table(kind);
}

}  // namespace energy_audit::sun
