/* -----------------------------------------------------------------
 * The damped oscillator (damped_oscillator.h) as an ARKODE program
 * in C, written as SUNDIALS' C examples are and built by a C-only
 * CMake project against an installed EnergyAudit. With y = [q, v],
 *    q' = v,   v' = -(c v + k q)/m,
 * solved with ERKStep's default 4th-order method, printing q every
 * second. The lines marked "energy audit" attach the drop-in audit
 * (arkode_drop_in.h), the damper's power as the named term "damper".
 * The program runs twice: with the damper's power, and without it
 * (the audit must then fail), and exits with 1 when a check against
 * the closed form or the bounds fails. SUNDIALS 7 moved the
 * integrator's settings to ARKode* functions and evolves with
 * ARKodeEvolve; SUNDIALS 6 calls ERKStep*.
 * -----------------------------------------------------------------*/

#include <stdio.h>
#include <stdlib.h>

#include <arkode/arkode_erkstep.h>     /* ERKStepCreate, ARK_NORMAL, ... */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S      */
#include <sundials/sundials_config.h>  /* SUNDIALS_VERSION_MAJOR         */
#include <energy_audit/sundials/arkode_drop_in.h> /* energy audit */

#include "damped_oscillator.h"

/* Component i = 1..NEQ of a serial vector, numbered as in the equations */

#define Ith(v,i)    NV_Ith_S(v,i-1)

#define NEQ    2                      /* number of equations: q, v       */

/* SUNContext_Create's communicator, and the integrator's functions:
   SUNDIALS 7 names them for ARKODE as a whole */

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#define SetUserData   ARKodeSetUserData
#define SStolerances  ARKodeSStolerances
#define FreeIntegrator ARKodeFree
#define audited_evolve ea_arkode_audit_evolve                /* energy audit */
#else
#define NO_COMM NULL
#define SetUserData   ERKStepSetUserData
#define SStolerances  ERKStepSStolerances
#define FreeIntegrator ERKStepFree
#define audited_evolve ea_arkode_audit_erkstep_evolve        /* energy audit */
#endif

/* Right-hand side y' = f(t, y), called by ERKStep */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* One audited run, and the error check */

static int Run(UserData data, EaPowerFn damper, RunResult *result);
static int check_retval(void *returnvalue, const char *funcname, int opt);

/* ---------------------------------------------------------------
 * Main program
 * --------------------------------------------------------------- */

int main(void)
{
  UserData data;
  RunResult audited, damper_left_out;
  int failures;

  data = (UserData) malloc(sizeof *data);
  if (check_retval((void *)data, "malloc", 0)) return(1);
  SetParameters(data);

  printf("\nDamped oscillator on ARKODE (ERKStep)\n\n");
  if (Run(data, P, &audited)) return(1);
  printf("\nThe same, the damper's power left out of the audit\n\n");
  if (Run(data, NULL, &damper_left_out)) return(1);
  printf("\n");

  failures = CheckRuns(data, &audited, &damper_left_out);
  free(data);
  return(failures == 0 ? 0 : 1);
}

/* ---------------------------------------------------------------
 * One run from the initial state to the last output time, through
 * the audit; `damper`, when not NULL, is the damper's named power
 * --------------------------------------------------------------- */

static int Run(UserData data, EaPowerFn damper, RunResult *result)
{
  SUNContext sunctx;
  sunrealtype t, tout;
  N_Vector y;
  void *arkode_mem;
  EaArkodeAudit *audit;
  EaArkodeAuditEnergies energies;
  int retval, iout;

  retval = SUNContext_Create(NO_COMM, &sunctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return(1);

  y = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)y, "N_VNew_Serial", 0)) return(1);
  Ith(y,1) = Q0;
  Ith(y,2) = V0;

  arkode_mem = ERKStepCreate(f, T0, y, sunctx);
  if (check_retval((void *)arkode_mem, "ERKStepCreate", 0)) return(1);
  retval = SetUserData(arkode_mem, data);
  if (check_retval(&retval, "SetUserData", 1)) return(1);
  retval = SStolerances(arkode_mem, RTOL, ATOL);
  if (check_retval(&retval, "SStolerances", 1)) return(1);

  audit = ea_arkode_audit_create(1, T, V, NULL, data, 1.0e-3); /* energy audit */
  if (check_retval((void *)audit, "ea_arkode_audit_create", 0)) return(1); /* energy audit */
  if (damper != NULL) { /* energy audit */
    retval = ea_arkode_audit_add_named_power(audit, "damper", damper); /* energy audit */
    if (check_retval(&retval, "ea_arkode_audit_add_named_power", 1)) return(1); /* energy audit */
  } /* energy audit */

  tout = T0 + DTOUT;
  for (iout = 0; iout < NOUT; iout++, tout += DTOUT) {
    retval = audited_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL); /* energy audit */
    if (check_retval(&retval, "audited_evolve", 1)) {
      fprintf(stderr, "%s\n", ea_arkode_audit_last_error(audit));
      return(1);
    }
    printf("At t = %0.4e      q =%14.6e\n", (double)t, (double)Ith(y,1));
  }

  ea_arkode_audit_print_summary(audit, stdout); /* energy audit */
  result->t = t;
  result->q = Ith(y,1);
  result->v = Ith(y,2);
  result->drift = ea_arkode_audit_relative_drift(audit);
  snprintf(result->verdict, sizeof result->verdict, "%s", ea_arkode_audit_verdict(audit));
  result->steps = ea_arkode_audit_steps(audit);
  retval = ea_arkode_audit_last_energies(audit, &energies);
  if (check_retval(&retval, "ea_arkode_audit_last_energies", 1)) return(1);
  result->audited_t = energies.t;
  result->damper_work = 0.0;
  if (damper != NULL) {
    retval = ea_arkode_audit_named_work(audit, 0, &result->damper_work);
    if (check_retval(&retval, "ea_arkode_audit_named_work", 1)) return(1);
  }
  ea_arkode_audit_free(audit); /* energy audit */

  FreeIntegrator(&arkode_mem);
  N_VDestroy(y);
  SUNContext_Free(&sunctx);
  return(0);
}

/* ---------------------------------------------------------------
 * Right-hand side: q' = v, v' = -(c v + k q)/m
 * --------------------------------------------------------------- */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  UserData d;

  (void)t;
  d = (UserData) user_data;
  Ith(ydot,1) = Ith(y,2);
  Ith(ydot,2) = -(d->c*Ith(y,2) + d->k*Ith(y,1))/d->m;
  return(0);
}

/* Returns 1 after printing a message if a call failed:
 *   opt == 0: funcname returns a pointer, NULL on failure;
 *   opt == 1: funcname returns an int flag (returnvalue points to it),
 *             negative on failure. */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  if (opt == 0 && returnvalue == NULL) {
    fprintf(stderr, "\nERROR: %s() returned NULL\n\n", funcname);
    return(1);
  }
  if (opt == 1 && *(int *)returnvalue < 0) {
    fprintf(stderr, "\nERROR: %s() failed with flag %d\n\n", funcname,
            *(int *)returnvalue);
    return(1);
  }
  return(0);
}
