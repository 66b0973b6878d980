/* The C program of c_arkode_drop_in_program.h, compiled as C99. */
#include "c_arkode_drop_in_program.h"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>

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

static int plain_evolve(int arkstep, void *arkode_mem, sunrealtype tout, N_Vector y, sunrealtype *t, int itask) {
  return arkstep ? ARKStepEvolve(arkode_mem, tout, y, t, itask) : ERKStepEvolve(arkode_mem, tout, y, t, itask);
}

static int steps(int arkstep, void *arkode_mem, long *count) {
  return arkstep ? ARKStepGetNumSteps(arkode_mem, count) : ERKStepGetNumSteps(arkode_mem, count);
}

/* One step with the plain evolve function: ARK_ONE_STEP first returns the end of the last step,
 * when an earlier call returned before it, and steps on the next call. */
static int plain_step(int arkstep, void *arkode_mem, sunrealtype tout, N_Vector y, sunrealtype *t) {
  long before = 0, after = 0;
  int flag = steps(arkstep, arkode_mem, &before);
  while (flag >= 0 && after <= before) {
    flag = plain_evolve(arkstep, arkode_mem, tout, y, t, ARK_ONE_STEP);
    if (flag >= 0) flag = steps(arkstep, arkode_mem, &after);
  }
  return flag;
}

EaArkodeAudit *oscillator_arkode_audit(OscillatorData *data, int dofs) {
  return ea_arkode_audit_create(dofs, kinetic, potential, power, data, 1.0e-3);
}

int run_oscillator_arkode(OscillatorData *data, EaArkodeAudit *audit, int arkstep, int length, int outputs,
                          int plain_step_before, double *states) {
  SUNContext context = NULL;
  N_Vector y = NULL;
  void *arkode_mem = NULL;
  sunrealtype t = 0.0, tout = 0.5;
  int flag = SUNContext_Create(NO_COMM, &context);
  int i, result = 0;
  if (flag < 0) return flag;
  y = N_VNew_Serial(length, context);
  N_VConst(0.0, y);
  NV_Ith_S(y, 0) = 1.0;
  if (arkstep) {
    arkode_mem = ARKStepCreate(rhs, NULL, 0.0, y, context);
    flag = ARKStepSetUserData(arkode_mem, data);
    if (flag >= 0) flag = ARKStepSStolerances(arkode_mem, 1e-10, 1e-12);
    if (flag >= 0) flag = ARKStepSetMaxNumSteps(arkode_mem, 100000);
  } else {
    arkode_mem = ERKStepCreate(rhs, 0.0, y, context);
    flag = ERKStepSetUserData(arkode_mem, data);
    if (flag >= 0) flag = ERKStepSStolerances(arkode_mem, 1e-10, 1e-12);
    if (flag >= 0) flag = ERKStepSetMaxNumSteps(arkode_mem, 100000);
  }
  if (flag < 0) result = flag;
  for (i = 0; i < outputs && result == 0; ++i, tout += 0.5) {
    flag = i == plain_step_before ? plain_step(arkstep, arkode_mem, tout, y, &t) : 0;
    if (flag >= 0 && audit == NULL) {
      flag = plain_evolve(arkstep, arkode_mem, tout, y, &t, ARK_NORMAL);
    } else if (flag >= 0) {
      flag = arkstep ? ea_arkode_audit_arkstep_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL)
                     : ea_arkode_audit_erkstep_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL);
    }
    if (flag < 0) result = flag;
    states[2 * i] = NV_Ith_S(y, 0);
    states[2 * i + 1] = NV_Ith_S(y, 1);
  }
  if (arkstep) {
    ARKStepFree(&arkode_mem);
  } else {
    ERKStepFree(&arkode_mem);
  }
  N_VDestroy(y);
  SUNContext_Free(&context);
  return result;
}
