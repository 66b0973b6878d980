/* A MuJoCo program's own simulation loop in C, audited: the lines marked "energy audit" are all
 * it adds. It loads MODEL.xml, starts from keyframe 0 when the model has one, steps for SECONDS
 * (default 5) with the model's integrator at its timestep (or TIMESTEP), and prints the audit's
 * summary: delta_C, the work of each force, what the ledger leaves unexplained.
 * Exit status: 0 when the audit passes, 1 when it does not (or MuJoCo fails), 2 for bad usage. */
#include <stdio.h>
#include <stdlib.h>

#include <mujoco/mujoco.h>

#include <energy_audit/mujoco/mujoco_audit.h> /* energy audit */

/* A positive finite number from text, or -1. */
static double positive(const char* text) {
  char* end = NULL;
  const double value = strtod(text, &end);
  return (end != text && *end == '\0' && value > 0 && value < 1e300) ? value : -1;
}

int main(int argc, char** argv) {
  char error[1000] = "";
  double seconds = 5;
  mjModel* m;
  mjData* d;
  ea_mujoco_audit* audit; /* energy audit */
  int passed;

  if (argc < 2 || argc > 4 || (argc > 2 && (seconds = positive(argv[2])) < 0) ||
      (argc > 3 && positive(argv[3]) < 0)) {
    fprintf(stderr, "usage: %s MODEL.xml [SECONDS] [TIMESTEP]  (SECONDS, TIMESTEP positive numbers)\n", argv[0]);
    return 2;
  }
  m = mj_loadXML(argv[1], NULL, error, sizeof error);
  if (m == NULL) {
    fprintf(stderr, "%s: %s\n", argv[1], error);
    return 1;
  }
  if (argc > 3) m->opt.timestep = positive(argv[3]);
  d = mj_makeData(m);
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);

  audit = ea_mujoco_audit_create(m, d, NULL); /* energy audit: from the state d holds */
  if (audit == NULL) {
    fprintf(stderr, "energy audit: %s\n", ea_mujoco_audit_last_error(NULL));
    return 1;
  }
  while (d->time < seconds) {
    mj_step(m, d);
    if (ea_mujoco_audit_after_step(audit, m, d) != 0) { /* energy audit: after each step */
      fprintf(stderr, "energy audit: %s\n", ea_mujoco_audit_last_error(audit));
      break;
    }
  }
  ea_mujoco_audit_finish(audit, m, d);        /* energy audit: the last state */
  ea_mujoco_audit_print_summary_stdout(audit); /* energy audit */
  passed = ea_mujoco_audit_passed(audit);      /* energy audit */
  ea_mujoco_audit_free(&audit);                /* energy audit */

  mj_deleteData(d);
  mj_deleteModel(m);
  return passed ? 0 : 1;
}
