/* A stand-in for the CVODE drop-in's C interface with no audit behind it, for the test that an
 * example program prints the same with the audit as without it: compiled against this header
 * (found before the real one) and linked with SUNDIALS alone, the example's "energy audit" lines
 * do what the program did before they were added. ea_cvode_audit is plain CVode, the summary
 * prints nothing, and the program's exit status is 0. Only the functions that the interleaved
 * chain example (examples/drop_in_cvode/chain_interleaved_cvode.c) calls are here. */
#ifndef ENERGY_AUDIT_TESTS_UNAUDITED_CVODE_DROP_IN_H
#define ENERGY_AUDIT_TESTS_UNAUDITED_CVODE_DROP_IN_H

#include <stdio.h>

#include <cvodes/cvodes.h>

typedef struct EaCvodeAudit EaCvodeAudit;

static inline EaCvodeAudit *ea_cvode_audit_create(int dofs, double (*kinetic)(const double *, const double *,
                                                                             double, void *),
                                                  double (*potential)(const double *, double, void *),
                                                  double (*power)(const double *, const double *, double, void *),
                                                  void *user_data, double threshold) {
  (void)dofs; (void)kinetic; (void)potential; (void)power; (void)user_data; (void)threshold;
  return NULL;
}

static inline int ea_cvode_audit_set_layout(EaCvodeAudit *audit, long length, long q_first, long v_first,
                                            long stride) {
  (void)audit; (void)length; (void)q_first; (void)v_first; (void)stride;
  return 0;
}

static inline int ea_cvode_audit(EaCvodeAudit *audit, void *cvode_mem, sunrealtype tout, N_Vector yout,
                                 sunrealtype *tret, int itask) {
  (void)audit;
  return CVode(cvode_mem, tout, yout, tret, itask);
}

static inline void ea_cvode_audit_print_summary(const EaCvodeAudit *audit, FILE *out) {
  (void)audit; (void)out;
}

static inline int ea_cvode_audit_passed(const EaCvodeAudit *audit) {
  (void)audit;
  return 1;
}

static inline void ea_cvode_audit_free(EaCvodeAudit *audit) { (void)audit; }

#endif
