/* A stand-in for the ARKODE drop-in's C interface with no audit behind it, for the test that an
 * example program prints the same with the audit as without it: compiled against this header
 * (found before the real one) and linked with SUNDIALS alone, the example's "energy audit" lines
 * do what the program did before they were added. ea_arkode_audit_evolve is plain ARKodeEvolve,
 * the summary prints nothing, and the program's exit status is 0. Only the functions that the
 * SPRKStep examples (examples/drop_in_arkode/kepler_sprkstep.c, damped_sprkstep.c) call are here. */
#ifndef ENERGY_AUDIT_TESTS_UNAUDITED_ARKODE_DROP_IN_H
#define ENERGY_AUDIT_TESTS_UNAUDITED_ARKODE_DROP_IN_H

#include <stdio.h>

#include <arkode/arkode.h>

typedef struct EaArkodeAudit EaArkodeAudit;

static inline EaArkodeAudit *ea_arkode_audit_create(int dofs, double (*kinetic)(const double *, const double *,
                                                                               double, void *),
                                                    double (*potential)(const double *, double, void *),
                                                    double (*power)(const double *, const double *, double,
                                                                    void *),
                                                    void *user_data, double threshold) {
  (void)dofs; (void)kinetic; (void)potential; (void)power; (void)user_data; (void)threshold;
  return NULL;
}

static inline EaArkodeAudit *ea_arkode_audit_create_hamiltonian(
    int dofs, double (*hamiltonian)(const double *, const double *, double, void *),
    double (*hamiltonian_rate)(const double *, const double *, double, void *),
    void (*forces)(const double *, const double *, double, double *, void *), void *user_data, double threshold) {
  (void)dofs; (void)hamiltonian; (void)hamiltonian_rate; (void)forces; (void)user_data; (void)threshold;
  return NULL;
}

static inline int ea_arkode_audit_set_layout(EaArkodeAudit *audit, long length, long q_first, long v_first,
                                             long stride) {
  (void)audit; (void)length; (void)q_first; (void)v_first; (void)stride;
  return 0;
}

static inline int ea_arkode_audit_evolve(EaArkodeAudit *audit, void *arkode_mem, sunrealtype tout, N_Vector yout,
                                         sunrealtype *tret, int itask) {
  (void)audit;
  return ARKodeEvolve(arkode_mem, tout, yout, tret, itask);
}

static inline void ea_arkode_audit_print_summary(const EaArkodeAudit *audit, FILE *out) {
  (void)audit; (void)out;
}

static inline int ea_arkode_audit_passed(const EaArkodeAudit *audit) {
  (void)audit;
  return 1;
}

static inline void ea_arkode_audit_free(EaArkodeAudit *audit) { (void)audit; }

#endif
