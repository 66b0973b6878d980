/* A small ERKStep program written in C (c_arkode_drop_in_program.c), for the test of the C
 * interface of the ARKODE drop-in audit: the damped oscillator m q'' = -c q' - k q from q = 1 at
 * rest, its parameters in a user-data struct that the right-hand side and the energy functions
 * share (OscillatorData, c_drop_in_program.h). */
#ifndef ENERGY_AUDIT_TESTS_C_ARKODE_DROP_IN_PROGRAM_H
#define ENERGY_AUDIT_TESTS_C_ARKODE_DROP_IN_PROGRAM_H

#include <energy_audit/sundials/arkode_drop_in.h>

#include "c_drop_in_program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The audit of the oscillator: T, V and P reading `data`; dofs as given. */
EaArkodeAudit *oscillator_arkode_audit(OscillatorData *data, int dofs);

/* Integrates with ERKStep's default method (with `arkstep`, ARKStep's default explicit method)
 * to `outputs` output times 0.5 s apart, storing q and v at each in states[2 i], states[2 i + 1];
 * through `audit` when it is not NULL, else with plain ERKStepEvolve (ARKStepEvolve). The state
 * has `length` entries (2 for the oscillator; more are zero and stay so). Before output
 * `plain_step_before` (none when negative) it takes one step with the plain evolve function in
 * ARK_ONE_STEP mode, beside the audit. Returns 0, or the first negative flag of an evolve call. */
int run_oscillator_arkode(OscillatorData *data, EaArkodeAudit *audit, int arkstep, int length, int outputs,
                          int plain_step_before, double *states);

#ifdef __cplusplus
}
#endif

#endif
