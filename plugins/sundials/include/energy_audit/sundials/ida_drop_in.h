/* The drop-in audit for an existing IDA (IDAS) program written in C (C99): the C interface of
 * energy_audit::sun::IdaAudit (ida_drop_in.hpp). The program supplies T(q, v, t), V(q, t), the
 * power v^T f of its non-potential forces and, for rheonomic constraints, the power
 * v^T G^T lambda of its constraint forces, as C functions that receive the program's own
 * user_data pointer, keeps its solver setup, residual and output loop, and calls
 * ea_ida_audit(...) where it called IDASolve(...):
 *
 *     EaIdaAudit *audit = ea_ida_audit_create(2, T, V, NULL, &data, 1e-3);
 *     ea_ida_audit_set_constraint_power(audit, Pc);
 *     ...
 *     retval = ea_ida_audit(audit, mem, tout, &tret, yy, yp, IDA_NORMAL);   (instead of IDASolve)
 *     ...
 *     ea_ida_audit_print_summary(audit, stdout);
 *     passed = ea_ida_audit_passed(audit);
 *     ea_ida_audit_free(audit);
 *
 * Errors come back as return codes (EA_IDA_AUDIT_*), with a one-line message from
 * ea_ida_audit_last_error(); no C++ exception leaves these functions. The audit itself is that
 * of ida_drop_in.hpp: every accepted internal step, the solution bit for bit unchanged.
 * Link EnergyAudit::idas, a C++ library: find_package(EnergyAudit COMPONENTS idas) has CMake
 * link a C project with the C++ driver (docs/drop-in.md, C-only projects); without CMake, add
 * -lstdc++.
 *
 * Every name here starts with ea_, Ea or EA_, none that SUNDIALS' examples #define. */
#ifndef ENERGY_AUDIT_SUNDIALS_IDA_DROP_IN_H
#define ENERGY_AUDIT_SUNDIALS_IDA_DROP_IN_H

#include <stdio.h>

#include <sundials/sundials_nvector.h>
#include <sundials/sundials_types.h>

#include "energy_audit/sundials/drop_in_energy_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The audit of one IDA solver; opaque. */
typedef struct EaIdaAudit EaIdaAudit;

/* Return codes besides IDA's own flags. */
#define EA_IDA_AUDIT_SUCCESS EA_AUDIT_SUCCESS
#define EA_IDA_AUDIT_INVALID_ARGUMENT EA_AUDIT_INVALID_ARGUMENT /* a bad argument; the message says which */
#define EA_IDA_AUDIT_FAILED EA_AUDIT_FAILED /* the audit could not audit a step; the message says why */

/* A new audit of a solver over y = [q, v, lambda] with `dofs` coordinates. `kinetic` and
 * `potential` are required; `power` may be NULL (no non-potential forces). `threshold`: the
 * verdict passes when delta_C <= threshold. Returns NULL only when memory runs out. A handle
 * created with bad arguments says why in ea_ida_audit_last_error() and returns
 * EA_IDA_AUDIT_INVALID_ARGUMENT from every call; free it as any other. */
EaIdaAudit *ea_ida_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                EaPowerFn power, void *user_data, double threshold);

/* A new audit of a program in Hamilton's variables (drop_in_hamiltonian.hpp): `dofs` coordinates
 * q and momenta p, y = [q, p, ...] unless a layout says otherwise. `hamiltonian` is required;
 * `hamiltonian_rate` (dH/dt) and `forces` (Q) may be NULL. With forces, q' is read from the
 * solver's derivative of the state at each node of Z's quadrature. Errors as for
 * ea_ida_audit_create. */
EaIdaAudit *ea_ida_audit_create_hamiltonian(int dofs, EaHamiltonianFn hamiltonian, EaHamiltonianFn hamiltonian_rate,
                                    EaGeneralizedForcesFn forces, void *user_data, double threshold);

/* A new audit of the whole-state form (drop_in_state_energy.hpp): E(y, t) of the solver's whole
 * state, required; its rate dE/dt and the power P of everything E does not hold may be NULL.
 * C = E + Z with Z' = -dE/dt - P. Errors as for ea_ida_audit_create. */
EaIdaAudit *ea_ida_audit_create_whole_state(EaStateEnergyFn energy, EaStateEnergyFn energy_rate, EaStateEnergyFn power,
                                    void *user_data, double threshold);

/* Where q and v (or p) lie in the state (drop_in_layout.hpp), before the first solve call: the
 * i-th coordinate at y[q_first + i stride], the i-th velocity at y[v_first + i stride];
 * `length` is the state's number of entries (on MPI ranks, the rank's), 0 for not checked.
 * Interleaved bodies y = [x1, v1, x2, v2, ...]: q_first 0, v_first 1, stride 2. Entries not
 * named are not read. A layout that does not fit (an index negative, past `length` or past the
 * state, or named twice) makes this call, and every solve call after it, return
 * EA_AUDIT_INVALID_ARGUMENT with a message naming the index. */
int ea_ida_audit_set_layout(EaIdaAudit *audit, long length, long q_first, long v_first, long stride);
/* The same with the n indices of the coordinates and of the velocities listed (0-based). */
int ea_ida_audit_set_layout_indices(EaIdaAudit *audit, long length, const long *coordinates, const long *velocities);
/* The entries of the multipliers (constraint_power), after the layout of q and v. */
int ea_ida_audit_set_layout_multipliers(EaIdaAudit *audit, const long *indices, int count);


/* For a rheonomic model: dT/dt at fixed q, v and dV/dt at fixed q (either may be NULL), before
 * the first ea_ida_audit call. */
int ea_ida_audit_set_energy_rates(EaIdaAudit *audit, EaPowerFn kinetic_rate,
                                  EaPotentialRateFn potential_rate);

/* T is a quadratic form in v (T = 1/2 v^T M(q, t) v, no terms of degree 1 or 0 in v), before the
 * first ea_ida_audit call: T is then evaluated once per audited state instead of three times for its split
 * by degree in v, and split all the same at the first 4 states to check the claim
 * (drop_in_energy_functions.hpp, kinetic_energy_is_quadratic). */
int ea_ida_audit_declare_quadratic_kinetic_energy(EaIdaAudit *audit);

/* For a program whose state is spread over MPI ranks (N_VNew_Parallel), before the first
 * ea_ida_audit call: each rank's functions give its share of T, V and the powers over its own
 * coordinates and velocities (dofs: this rank's count), and `sum` adds the shares across the
 * ranks: ea_ida_audit_set_share_sum(audit, ea_sum_over_ranks, &comm) with drop_in_mpi.h. */
int ea_ida_audit_set_share_sum(EaIdaAudit *audit, EaShareSumFn sum, void *context);

/* For rheonomic constraints: the power v^T G^T lambda of the constraint forces, with lambda the
 * state's entries after [q, v] (NULL: none), before the first ea_ida_audit call. */
int ea_ida_audit_set_constraint_power(EaIdaAudit *audit, EaConstraintPowerFn power);

/* A named power term v^T f_k [W] of the work ledger, before the first ea_ida_audit call: the
 * power given at creation and the named terms together are the non-potential forces' power, Z
 * subtracts each, and the audit integrates each term's work W_k = int v^T f_k dt by the same
 * Gauss-Legendre rule as Z. `name` is copied; the summary prints "work W_NAME = ...". */
int ea_ida_audit_add_named_power(EaIdaAudit *audit, const char *name, EaPowerFn power);
/* The number of named power terms, and W_k of the k-th (in the order added) into *work [J]. */
int ea_ida_audit_named_power_count(const EaIdaAudit *audit);
int ea_ida_audit_named_work(const EaIdaAudit *audit, int k, double *work);

/* In place of IDASolve(ida_mem, tout, tret, yret, ypret, itask): the same arguments, the same
 * return value and the same solution; every accepted step is audited. Returns
 * EA_IDA_AUDIT_FAILED when a step could not be audited (yret and ypret are then IDA's), and
 * EA_IDA_AUDIT_INVALID_ARGUMENT for a handle created with bad arguments or a state too short
 * for [q, v] (and the multipliers, with a constraint power). */
int ea_ida_audit(EaIdaAudit *audit, void *ida_mem, sunrealtype tout, sunrealtype *tret, N_Vector yret,
                 N_Vector ypret, int itask);

/* delta_C = sup |C - C(t0)| / sup max(|E|, |T|, |V|) over the audited steps. */
double ea_ida_audit_relative_drift(const EaIdaAudit *audit);
/* "pass", "fail", "incomplete" or "error" (see cvode_drop_in.hpp). */
const char *ea_ida_audit_verdict(const EaIdaAudit *audit);
/* 1 when the verdict is "pass", else 0. */
int ea_ida_audit_passed(const EaIdaAudit *audit);
/* Accepted steps audited (the initial state not counted). */
long ea_ida_audit_steps(const EaIdaAudit *audit);
/* The audited step (1 the first, 0 the start) at whose end |C - C(t0)| first exceeded threshold
 * times the energy scale seen so far, -1 while it has not; and its time, NaN while it has not. */
long ea_ida_audit_first_step_above_threshold(const EaIdaAudit *audit);
double ea_ida_audit_time_first_above_threshold(const EaIdaAudit *audit);
/* Writes the energies at the last audited step to *energies; EA_IDA_AUDIT_SUCCESS or an error code. */
int ea_ida_audit_last_energies(const EaIdaAudit *audit, EaAuditEnergies *energies);
/* "" or one line naming a missing energy rate; valid until the next call on the handle. */
const char *ea_ida_audit_diagnosis(EaIdaAudit *audit);
/* The message of the last error, "" when there was none. */
const char *ea_ida_audit_last_error(const EaIdaAudit *audit);
/* Prints "energy audit: delta_C = ... (threshold ..., N steps audited): verdict" and its details. */
void ea_ida_audit_print_summary(const EaIdaAudit *audit, FILE *out);
/* The same summary on stdout, flushed before it returns: for callers that have no FILE * of C's
 * stdout, such as a Fortran program (energy_audit_ida_drop_in.f90), whose own output must not be
 * overtaken by what C still buffers. */
void ea_ida_audit_print_summary_stdout(const EaIdaAudit *audit);
/* Frees the handle; NULL is allowed. */
void ea_ida_audit_free(EaIdaAudit *audit);

#ifdef __cplusplus
}
#endif

#endif /* ENERGY_AUDIT_SUNDIALS_IDA_DROP_IN_H */
