/* The MuJoCo audit for C programs: a watcher of the program's own mj_step loop (the C++ class
 * energy_audit::mujoco::MujocoAudit, mujoco_audit.hpp). Each function that can fail returns 0 on
 * success and -1 on failure, with one line in ea_mujoco_audit_last_error; none lets a C++
 * exception out. docs/mujoco.md shows a complete program. */
#ifndef ENERGY_AUDIT_MUJOCO_AUDIT_H
#define ENERGY_AUDIT_MUJOCO_AUDIT_H

#include <mujoco/mujoco.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ea_mujoco_audit ea_mujoco_audit;

/* The audit's options; ea_mujoco_audit_default_options() gives the defaults. */
typedef struct ea_mujoco_audit_options {
  double threshold;           /* pass when delta_C <= threshold (default 1e-3) */
  int count_passive_callback; /* count a passive callback's force (mjcb_passive) as work (default 0) */
} ea_mujoco_audit_options;
ea_mujoco_audit_options ea_mujoco_audit_default_options(void);

/* Starts at the state d holds now; options NULL: the defaults. NULL on failure, with the
 * reason in ea_mujoco_audit_last_error(NULL). */
ea_mujoco_audit* ea_mujoco_audit_create(const mjModel* m, const mjData* d, const ea_mujoco_audit_options* options);
/* In place of mj_step(m, d). */
int ea_mujoco_audit_step(ea_mujoco_audit* audit, const mjModel* m, mjData* d);
/* After the program's own mj_step(m, d). */
int ea_mujoco_audit_after_step(ea_mujoco_audit* audit, const mjModel* m, const mjData* d);
/* Evaluates the last state and ends the run; the verdict is "incomplete" until then. */
int ea_mujoco_audit_finish(ea_mujoco_audit* audit, const mjModel* m, const mjData* d);

/* "pass", "fail", "diverged" or "incomplete". */
const char* ea_mujoco_audit_verdict(const ea_mujoco_audit* audit);
int ea_mujoco_audit_passed(const ea_mujoco_audit* audit);
double ea_mujoco_audit_relative_drift(const ea_mujoco_audit* audit);
/* When |C - C(t0)| first exceeded the threshold; NaN while it has not. */
double ea_mujoco_audit_time_first_above_threshold(const ea_mujoco_audit* audit);
/* The ledger: its entries' count, and each entry's name and work [J]. A name stays valid until
 * the next call of ea_mujoco_audit_ledger_name on the audit, or its free; NULL for an entry out of
 * range. */
int ea_mujoco_audit_ledger_size(const ea_mujoco_audit* audit);
const char* ea_mujoco_audit_ledger_name(const ea_mujoco_audit* audit, int entry);
double ea_mujoco_audit_ledger_work(const ea_mujoco_audit* audit, int entry);
/* C(end) - C(t0): the work the ledger leaves unexplained [J]. */
double ea_mujoco_audit_unexplained_work(const ea_mujoco_audit* audit);
/* The summary (verdict, delta_C, ledger, diagnosis) on stdout, after a flush of stdout. */
void ea_mujoco_audit_print_summary_stdout(const ea_mujoco_audit* audit);
/* The last failure's line ("" if none); with NULL, that of the last failed create. */
const char* ea_mujoco_audit_last_error(const ea_mujoco_audit* audit);
/* Frees the audit and sets *audit to NULL. */
void ea_mujoco_audit_free(ea_mujoco_audit** audit);

#ifdef __cplusplus
}
#endif

#endif
