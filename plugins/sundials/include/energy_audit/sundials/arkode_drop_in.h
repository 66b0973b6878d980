/* The drop-in audit for an existing ARKODE program written in C (C99): the C interface of
 * energy_audit::sun::ArkodeAudit (arkode_drop_in.hpp). The program supplies T(q, v, t), V(q, t)
 * and the power v^T f of its non-potential forces as C functions that receive the program's own
 * user_data pointer, keeps its stepper setup, right-hand sides and output loop, and calls
 * ea_arkode_audit_erkstep_evolve(...) where it called ERKStepEvolve(...)
 * (ea_arkode_audit_arkstep_evolve for ARKStepEvolve; on SUNDIALS 7 ea_arkode_audit_evolve for
 * ARKodeEvolve):
 *
 *     EaArkodeAudit *audit = ea_arkode_audit_create(3, T, V, P, &data, 1e-3);
 *     ...
 *     retval = ea_arkode_audit_erkstep_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL);
 *     ...
 *     ea_arkode_audit_print_summary(audit, stdout);
 *     passed = ea_arkode_audit_passed(audit);
 *     ea_arkode_audit_free(audit);
 *
 * Errors come back as return codes (EA_ARKODE_AUDIT_*), with a one-line message from
 * ea_arkode_audit_last_error(); no C++ exception leaves these functions. The audit itself is that
 * of arkode_drop_in.hpp: every accepted internal step, the solution bit for bit unchanged.
 * Link EnergyAudit::arkode, a C++ library: find_package(EnergyAudit COMPONENTS arkode) has CMake
 * link a C project with the C++ driver (docs/drop-in.md, C-only projects); without CMake, add
 * -lstdc++.
 *
 * Every name here starts with ea_, Ea or EA_, none that SUNDIALS' examples #define. */
#ifndef ENERGY_AUDIT_SUNDIALS_ARKODE_DROP_IN_H
#define ENERGY_AUDIT_SUNDIALS_ARKODE_DROP_IN_H

#include <stdio.h>

#include <sundials/sundials_config.h>
#include <sundials/sundials_nvector.h>
#include <sundials/sundials_types.h>

#include "energy_audit/sundials/drop_in_energy_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The audit of one ARKODE integrator; opaque. */
typedef struct EaArkodeAudit EaArkodeAudit;

/* Return codes besides ARKODE's own flags. */
#define EA_ARKODE_AUDIT_SUCCESS EA_AUDIT_SUCCESS
#define EA_ARKODE_AUDIT_INVALID_ARGUMENT EA_AUDIT_INVALID_ARGUMENT /* a bad argument; the message says which */
#define EA_ARKODE_AUDIT_FAILED EA_AUDIT_FAILED /* the audit could not audit a step; the message says why */

/* A new audit of an integrator over y = [q, v, ...] with `dofs` coordinates. `kinetic` and
 * `potential` are required; `power` may be NULL (no non-potential forces). `threshold`: the verdict passes
 * when delta_C <= threshold (seed 000's 1e-3). Returns NULL only when memory runs out. A handle
 * created with bad arguments (dofs <= 0, T or V missing, a threshold negative or not finite)
 * says why in ea_arkode_audit_last_error() and returns EA_ARKODE_AUDIT_INVALID_ARGUMENT from
 * every call; free it as any other. */
EaArkodeAudit *ea_arkode_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                      EaPowerFn power, void *user_data, double threshold);

/* A new audit of a program in Hamilton's variables (drop_in_hamiltonian.hpp): `dofs` coordinates
 * q and momenta p, y = [q, p, ...] unless a layout says otherwise. `hamiltonian` is required;
 * `hamiltonian_rate` (dH/dt) and `forces` (Q) may be NULL. With forces, q' is read from the
 * solver's derivative of the state at each node of Z's quadrature. Errors as for
 * ea_arkode_audit_create. */
EaArkodeAudit *ea_arkode_audit_create_hamiltonian(int dofs, EaHamiltonianFn hamiltonian, EaHamiltonianFn hamiltonian_rate,
                                    EaGeneralizedForcesFn forces, void *user_data, double threshold);

/* A new audit of the whole-state form (drop_in_state_energy.hpp): E(y, t) of the solver's whole
 * state, required; its rate dE/dt and the power P of everything E does not hold may be NULL.
 * C = E + Z with Z' = -dE/dt - P. Errors as for ea_arkode_audit_create. */
EaArkodeAudit *ea_arkode_audit_create_whole_state(EaStateEnergyFn energy, EaStateEnergyFn energy_rate, EaStateEnergyFn power,
                                    void *user_data, double threshold);

/* Where q and v (or p) lie in the state (drop_in_layout.hpp), before the first solve call: the
 * i-th coordinate at y[q_first + i stride], the i-th velocity at y[v_first + i stride];
 * `length` is the state's number of entries (on MPI ranks, the rank's), 0 for not checked.
 * Interleaved bodies y = [x1, v1, x2, v2, ...]: q_first 0, v_first 1, stride 2. Entries not
 * named are not read. A layout that does not fit (an index negative, past `length` or past the
 * state, or named twice) makes this call, and every solve call after it, return
 * EA_AUDIT_INVALID_ARGUMENT with a message naming the index. */
int ea_arkode_audit_set_layout(EaArkodeAudit *audit, long length, long q_first, long v_first, long stride);
/* The same with the n indices of the coordinates and of the velocities listed (0-based). */
int ea_arkode_audit_set_layout_indices(EaArkodeAudit *audit, long length, const long *coordinates, const long *velocities);


/* For a rheonomic model: dT/dt at fixed q, v and dV/dt at fixed q (either may be NULL), before
 * the first evolve call. */
int ea_arkode_audit_set_energy_rates(EaArkodeAudit *audit, EaPowerFn kinetic_rate,
                                     EaPotentialRateFn potential_rate);

/* T is a quadratic form in v (T = 1/2 v^T M(q, t) v, no terms of degree 1 or 0 in v), before the
 * first evolve call: T is then evaluated once per audited state instead of three times for its split
 * by degree in v, and split all the same at the first 4 states to check the claim
 * (drop_in_energy_functions.hpp, kinetic_energy_is_quadratic). */
int ea_arkode_audit_declare_quadratic_kinetic_energy(EaArkodeAudit *audit);

/* For a program whose state is spread over MPI ranks (N_VNew_Parallel), before the first
 * evolve call: each rank's functions give its share of T, V and the powers over its own
 * coordinates and velocities (dofs: this rank's count), and `sum` adds the shares across the
 * ranks: ea_arkode_audit_set_share_sum(audit, ea_sum_over_ranks, &comm) with drop_in_mpi.h. */
int ea_arkode_audit_set_share_sum(EaArkodeAudit *audit, EaShareSumFn sum, void *context);

/* A named power term v^T f_k [W] of the work ledger, before the first evolve call: the
 * power given at creation and the named terms together are the non-potential forces' power, Z
 * subtracts each, and the audit integrates each term's work W_k = int v^T f_k dt by the same
 * Gauss-Legendre rule as Z. `name` is copied; the summary prints "work W_NAME = ...". */
int ea_arkode_audit_add_named_power(EaArkodeAudit *audit, const char *name, EaPowerFn power);
/* The number of named power terms, and W_k of the k-th (in the order added) into *work [J]. */
int ea_arkode_audit_named_power_count(const EaArkodeAudit *audit);
int ea_arkode_audit_named_work(const EaArkodeAudit *audit, int k, double *work);

/* In place of ERKStepEvolve(arkode_mem, tout, yout, tret, itask): the same arguments, the same
 * return value and the same solution; every accepted step is audited. Returns
 * EA_ARKODE_AUDIT_FAILED when a step could not be audited (the state of yout is then ARKODE's),
 * and EA_ARKODE_AUDIT_INVALID_ARGUMENT for a handle created with bad arguments or a state shorter
 * than 2 dofs. */
int ea_arkode_audit_erkstep_evolve(EaArkodeAudit *audit, void *arkode_mem, sunrealtype tout, N_Vector yout,
                                   sunrealtype *tret, int itask);
/* The same in place of ARKStepEvolve. */
int ea_arkode_audit_arkstep_evolve(EaArkodeAudit *audit, void *arkode_mem, sunrealtype tout, N_Vector yout,
                                   sunrealtype *tret, int itask);
#if SUNDIALS_VERSION_MAJOR >= 7
/* The same in place of ARKodeEvolve (SUNDIALS 7, any ARKODE stepper). */
int ea_arkode_audit_evolve(EaArkodeAudit *audit, void *arkode_mem, sunrealtype tout, N_Vector yout,
                           sunrealtype *tret, int itask);
#endif

/* delta_C = sup |C - C(t0)| / sup max(|E|, |T|, |V|) over the audited steps. */
double ea_arkode_audit_relative_drift(const EaArkodeAudit *audit);
/* "pass", "fail", "incomplete" or "error" (see arkode_drop_in.hpp). */
const char *ea_arkode_audit_verdict(const EaArkodeAudit *audit);
/* 1 when the verdict is "pass", else 0. */
int ea_arkode_audit_passed(const EaArkodeAudit *audit);
/* Accepted steps audited (the initial state not counted). */
long ea_arkode_audit_steps(const EaArkodeAudit *audit);
/* The audited step (1 the first, 0 the start) at whose end |C - C(t0)| first exceeded threshold
 * times the energy scale seen so far, -1 while it has not; and its time, NaN while it has not. */
long ea_arkode_audit_first_step_above_threshold(const EaArkodeAudit *audit);
double ea_arkode_audit_time_first_above_threshold(const EaArkodeAudit *audit);

/* The energies at the last audited step (drop_in_energy_functions.h). */
typedef EaAuditEnergies EaArkodeAuditEnergies;
/* Writes them to *energies; EA_ARKODE_AUDIT_SUCCESS or an error code. */
int ea_arkode_audit_last_energies(const EaArkodeAudit *audit, EaArkodeAuditEnergies *energies);

/* "" or one line naming a missing energy rate (arkode_drop_in.hpp's diagnosis()); valid until the
 * next call on the handle. */
const char *ea_arkode_audit_diagnosis(EaArkodeAudit *audit);
/* The message of the last error, "" when there was none. */
const char *ea_arkode_audit_last_error(const EaArkodeAudit *audit);
/* Prints "energy audit: delta_C = ... (threshold ..., N steps audited): verdict" and its details. */
void ea_arkode_audit_print_summary(const EaArkodeAudit *audit, FILE *out);
/* The same summary on stdout, flushed before it returns: for callers that have no FILE * of C's
 * stdout, such as a Fortran program (energy_audit_arkode_drop_in.f90), whose own output must not be
 * overtaken by what C still buffers. */
void ea_arkode_audit_print_summary_stdout(const EaArkodeAudit *audit);
/* Frees the handle; NULL is allowed. */
void ea_arkode_audit_free(EaArkodeAudit *audit);

#ifdef __cplusplus
}
#endif

#endif /* ENERGY_AUDIT_SUNDIALS_ARKODE_DROP_IN_H */
