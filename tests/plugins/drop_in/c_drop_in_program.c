/* The C program of c_drop_in_program.h, compiled as C99. */
#include "c_drop_in_program.h"

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#else
#define NO_COMM NULL
#endif

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data) {
  const OscillatorData *d = (const OscillatorData *)user_data;
  sunindextype i;
  (void)t;
  for (i = 0; i < N_VGetLength(y); ++i) NV_Ith_S(ydot, i) = 0.0;
  NV_Ith_S(ydot, 0) = NV_Ith_S(y, 1);
  NV_Ith_S(ydot, 1) = (-d->c * NV_Ith_S(y, 1) - d->k * NV_Ith_S(y, 0)) / d->m;
  return 0;
}

static double kinetic(const double *q, const double *v, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)q;
  (void)t;
  ++d->energy_calls;
  return 0.5 * d->m * v[0] * v[0];
}

static double potential(const double *q, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)t;
  ++d->energy_calls;
  return 0.5 * d->k * q[0] * q[0];
}

static double power(const double *q, const double *v, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)q;
  (void)t;
  ++d->energy_calls;
  return -d->c * v[0] * v[0];
}

static double hamiltonian(const double *q, const double *p, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)t;
  ++d->energy_calls;
  return 0.5 * d->m * p[0] * p[0] + 0.5 * d->k * q[0] * q[0];
}

static void damper_force(const double *q, const double *p, double t, double *forces, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)q;
  (void)t;
  forces[0] = -d->c * p[0];
}

static double state_energy(const double *y, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)t;
  ++d->energy_calls;
  return 0.5 * d->m * y[1] * y[1] + 0.5 * d->k * y[0] * y[0];
}

static double state_power(const double *y, double t, void *user_data) {
  OscillatorData *d = (OscillatorData *)user_data;
  (void)t;
  return -d->c * y[1] * y[1];
}

/* One step with plain CVode: CV_ONE_STEP first returns the end of the last step, when an
 * earlier call returned before it, and steps on the next call. */
static int plain_step(void *cvode_mem, sunrealtype tout, N_Vector y, sunrealtype *t) {
  long before = 0, after = 0;
  int flag = CVodeGetNumSteps(cvode_mem, &before);
  while (flag >= 0 && after <= before) {
    flag = CVode(cvode_mem, tout, y, t, CV_ONE_STEP);
    if (flag >= 0) flag = CVodeGetNumSteps(cvode_mem, &after);
  }
  return flag;
}

EaCvodeAudit *oscillator_audit(OscillatorData *data, int dofs) {
  return ea_cvode_audit_create(dofs, kinetic, potential, power, data, 1.0e-3);
}

EaCvodeAudit *oscillator_ledger_audit(OscillatorData *data) {
  EaCvodeAudit *audit = ea_cvode_audit_create(1, kinetic, potential, NULL, data, 1.0e-3);
  if (audit != NULL) ea_cvode_audit_add_named_power(audit, "damper", power);
  return audit;
}

EaCvodeAudit *oscillator_hamiltonian_audit(OscillatorData *data) {
  return ea_cvode_audit_create_hamiltonian(1, hamiltonian, NULL, damper_force, data, 1.0e-3);
}

EaCvodeAudit *oscillator_whole_state_audit(OscillatorData *data) {
  return ea_cvode_audit_create_whole_state(state_energy, NULL, state_power, data, 1.0e-3);
}

int run_oscillator(OscillatorData* data, EaCvodeAudit* audit, int length, int outputs, int plain_step_before,
                   double* states) {
  SUNContext context = NULL;
  N_Vector y = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  void *cvode_mem = NULL;
  sunrealtype t = 0.0, tout = 0.5;
  int flag = SUNContext_Create(NO_COMM, &context);
  int i, result = 0;
  if (flag < 0) return flag;
  y = N_VNew_Serial(length, context);
  N_VConst(0.0, y);
  NV_Ith_S(y, 0) = 1.0;
  cvode_mem = CVodeCreate(CV_BDF, context);
  flag = CVodeInit(cvode_mem, rhs, 0.0, y);
  if (flag >= 0) flag = CVodeSetUserData(cvode_mem, data);
  if (flag >= 0) flag = CVodeSStolerances(cvode_mem, 1e-10, 1e-12);
  if (flag >= 0) flag = CVodeSetMaxNumSteps(cvode_mem, 100000);
  A = SUNDenseMatrix(length, length, context);
  LS = SUNLinSol_Dense(y, A, context);
  if (flag >= 0) flag = CVodeSetLinearSolver(cvode_mem, LS, A);
  if (flag < 0) result = flag;
  for (i = 0; i < outputs && result == 0; ++i, tout += 0.5) {
    flag = i == plain_step_before ? plain_step(cvode_mem, tout, y, &t) : 0;
    if (flag >= 0) {
      flag = audit != NULL ? ea_cvode_audit(audit, cvode_mem, tout, y, &t, CV_NORMAL)
                           : CVode(cvode_mem, tout, y, &t, CV_NORMAL);
    }
    if (flag < 0) result = flag;
    states[2 * i] = NV_Ith_S(y, 0);
    states[2 * i + 1] = NV_Ith_S(y, 1);
  }
  CVodeFree(&cvode_mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  SUNContext_Free(&context);
  return result;
}
