/* A small CVODE program written in C (c_drop_in_program.c), for the test of the C interface of
 * the drop-in audit: the damped oscillator m q'' = -c q' - k q from q = 1 at rest, its parameters
 * in a user-data struct that the right-hand side and the energy functions share. */
#ifndef ENERGY_AUDIT_TESTS_C_DROP_IN_PROGRAM_H
#define ENERGY_AUDIT_TESTS_C_DROP_IN_PROGRAM_H

#include <energy_audit/sundials/cvode_drop_in.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  double m, c, k;     /* mass [kg], damper [N s/m], spring [N/m] */
  long energy_calls;  /* calls of T, V and P, counted through user_data */
} OscillatorData;

/* The audit of the oscillator: T, V and P reading `data`; dofs as given. */
EaCvodeAudit *oscillator_audit(OscillatorData *data, int dofs);

/* The same audit with no power at creation and the damper's power as the named term "damper". */
EaCvodeAudit *oscillator_ledger_audit(OscillatorData *data);

/* The oscillator's audit in Hamilton's form, with the state's v taken as p: H = m p^2/2 + k q^2/2
 * (the oscillator's energy), the damper as the generalized force Q = -c p, q' from CVODE. */
EaCvodeAudit *oscillator_hamiltonian_audit(OscillatorData *data);

/* The oscillator's audit in the whole-state form: E(y) = m y1^2/2 + k y0^2/2, P(y) = -c y1^2. */
EaCvodeAudit *oscillator_whole_state_audit(OscillatorData *data);

/* Integrates with CVODE BDF to `outputs` output times 0.5 s apart, storing q and v at each in
 * states[2 i], states[2 i + 1]; through `audit` when it is not NULL, else with plain CVode. The
 * state has `length` entries (2 for the oscillator; more are zero and stay so). Before output
 * `plain_step_before` (none when negative) it takes one step with plain CVode in CV_ONE_STEP
 * mode, beside the audit. Returns 0, or the first negative flag of a CVode (or ea_cvode_audit)
 * call. */
int run_oscillator(OscillatorData* data, EaCvodeAudit* audit, int length, int outputs, int plain_step_before,
                   double* states);

#ifdef __cplusplus
}
#endif

#endif
