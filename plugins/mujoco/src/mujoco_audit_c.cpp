// The C interface of the MuJoCo audit (mujoco_audit.h): each call catches what the C++ audit
// throws and keeps its line.
#include "energy_audit/mujoco/mujoco_audit.h"

#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "energy_audit/mujoco/mujoco_audit.hpp"

struct ea_mujoco_audit {
  energy_audit::mujoco::MujocoAudit audit;
  std::vector<energy_audit::mujoco::LedgerEntry> ledger;  ///< as read last, so that names stay valid
  std::string last_error;
};

namespace {

thread_local std::string create_error;

template <class Call>
int guarded(ea_mujoco_audit* audit, Call&& call) {
  if (audit == nullptr) return -1;
  try {
    call();
    audit->last_error.clear();
    return 0;
  } catch (const std::exception& error) {
    audit->last_error = error.what();
  } catch (...) {
    audit->last_error = "unknown error";
  }
  return -1;
}

template <class Value, class Read>
Value read_or(const ea_mujoco_audit* audit, Value fallback, Read&& read) {
  if (audit == nullptr) return fallback;
  try {
    return read();
  } catch (...) {
    return fallback;
  }
}

}  // namespace

extern "C" {

ea_mujoco_audit_options ea_mujoco_audit_default_options(void) {
  const energy_audit::mujoco::MujocoAuditOptions defaults;
  return {defaults.threshold, defaults.count_passive_callback ? 1 : 0};
}

ea_mujoco_audit* ea_mujoco_audit_create(const mjModel* m, const mjData* d, const ea_mujoco_audit_options* given) {
  try {
    energy_audit::mujoco::MujocoAuditOptions options;
    if (given != nullptr) {
      options.threshold = given->threshold;
      options.count_passive_callback = given->count_passive_callback != 0;
    }
    auto* audit = new ea_mujoco_audit{energy_audit::mujoco::MujocoAudit(m, d, options), {}, {}};
    create_error.clear();
    return audit;
  } catch (const std::exception& error) {
    create_error = error.what();
  } catch (...) {
    create_error = "unknown error";
  }
  return nullptr;
}

int ea_mujoco_audit_step(ea_mujoco_audit* audit, const mjModel* m, mjData* d) {
  return guarded(audit, [&] {
    audit->audit.step(m, d);
  });
}

int ea_mujoco_audit_after_step(ea_mujoco_audit* audit, const mjModel* m, const mjData* d) {
  return guarded(audit, [&] {
    audit->audit.after_step(m, d);
  });
}

int ea_mujoco_audit_finish(ea_mujoco_audit* audit, const mjModel* m, const mjData* d) {
  return guarded(audit, [&] { audit->audit.finish(m, d); });
}

const char* ea_mujoco_audit_verdict(const ea_mujoco_audit* audit) {
  return read_or<const char*>(audit, "incomplete", [&] { return audit->audit.verdict(); });
}

int ea_mujoco_audit_passed(const ea_mujoco_audit* audit) {
  return read_or(audit, 0, [&] { return audit->audit.passed() ? 1 : 0; });
}

double ea_mujoco_audit_relative_drift(const ea_mujoco_audit* audit) {
  return read_or(audit, std::numeric_limits<double>::quiet_NaN(), [&] { return audit->audit.relative_drift(); });
}

double ea_mujoco_audit_time_first_above_threshold(const ea_mujoco_audit* audit) {
  return read_or(audit, std::numeric_limits<double>::quiet_NaN(),
                 [&] { return audit->audit.time_first_above_threshold(); });
}

int ea_mujoco_audit_ledger_size(const ea_mujoco_audit* audit) {
  return read_or(audit, 0, [&] { return static_cast<int>(audit->audit.ledger().size()); });
}

const char* ea_mujoco_audit_ledger_name(const ea_mujoco_audit* audit, int entry) {
  auto* mutable_audit = const_cast<ea_mujoco_audit*>(audit);
  return read_or<const char*>(audit, nullptr, [&]() -> const char* {
    mutable_audit->ledger = audit->audit.ledger();
    if (entry < 0 || entry >= static_cast<int>(audit->ledger.size())) return nullptr;
    return audit->ledger[static_cast<std::size_t>(entry)].name.c_str();
  });
}

double ea_mujoco_audit_ledger_work(const ea_mujoco_audit* audit, int entry) {
  return read_or(audit, std::numeric_limits<double>::quiet_NaN(), [&] {
    const auto ledger = audit->audit.ledger();
    if (entry < 0 || entry >= static_cast<int>(ledger.size())) return std::numeric_limits<double>::quiet_NaN();
    return ledger[static_cast<std::size_t>(entry)].work;
  });
}

double ea_mujoco_audit_unexplained_work(const ea_mujoco_audit* audit) {
  return read_or(audit, std::numeric_limits<double>::quiet_NaN(), [&] { return audit->audit.unexplained_work(); });
}

void ea_mujoco_audit_print_summary_stdout(const ea_mujoco_audit* audit) {
  if (audit == nullptr) return;
  std::fflush(stdout);
  try {
    audit->audit.print_summary(stdout);
  } catch (...) {
  }
  std::fflush(stdout);
}

const char* ea_mujoco_audit_last_error(const ea_mujoco_audit* audit) {
  return audit == nullptr ? create_error.c_str() : audit->last_error.c_str();
}

void ea_mujoco_audit_free(ea_mujoco_audit** audit) {
  if (audit == nullptr) return;
  delete *audit;
  *audit = nullptr;
}

}  // extern "C"
