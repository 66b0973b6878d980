/* -----------------------------------------------------------------
 * The damped oscillator (damped_oscillator.h) as an IDA program in
 * C, written as SUNDIALS' IDA examples are and built by a C-only
 * CMake project against an installed EnergyAudit. With y = [q, v],
 * the residual is
 *    F1 = q' - v
 *    F2 = m v' + c v + k q
 * solved with IDA's BDF method and the dense linear solver from
 * consistent y and y', printing q every second. The lines marked
 * "energy audit" attach the drop-in audit (ida_drop_in.h), the
 * damper's power as
 * the named term "damper". The program runs twice: with the damper's
 * power, and without it (the audit must then fail), and exits with 1
 * when a check against the closed form or the bounds fails.
 * -----------------------------------------------------------------*/

#include <stdio.h>
#include <stdlib.h>

#include <idas/idas.h>                 /* IDASolve, IDAInit, ...          */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S       */
#include <sundials/sundials_config.h>  /* SUNDIALS_VERSION_MAJOR          */
#include <sunmatrix/sunmatrix_dense.h> /* SUNDenseMatrix                  */
#include <sunlinsol/sunlinsol_dense.h> /* SUNLinSol_Dense                 */
#include <energy_audit/sundials/ida_drop_in.h> /* energy audit */

#include "damped_oscillator.h"

/* Component i = 1..NEQ of a serial vector, numbered as in the equations */

#define Ith(v,i)    NV_Ith_S(v,i-1)

#define NEQ    2                      /* number of equations: q, v       */

/* SUNContext_Create's communicator: none (SUNDIALS 7 names it) */

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#else
#define NO_COMM NULL
#endif

/* Residual F(t, y, y'), called by IDA */

static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user_data);

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

  printf("\nDamped oscillator on IDA (BDF)\n\n");
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
  sunrealtype tret, tout;
  N_Vector yy, yp;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *mem;
  EaIdaAudit *audit;
  EaAuditEnergies energies;
  int retval, iout;

  retval = SUNContext_Create(NO_COMM, &sunctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return(1);

  /* Consistent initial values: y' = [v, -(c v + k q)/m] */
  yy = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)yy, "N_VNew_Serial", 0)) return(1);
  yp = N_VClone(yy);
  if (check_retval((void *)yp, "N_VClone", 0)) return(1);
  Ith(yy,1) = Q0;
  Ith(yy,2) = V0;
  Ith(yp,1) = V0;
  Ith(yp,2) = -(data->c*V0 + data->k*Q0)/data->m;

  mem = IDACreate(sunctx);
  if (check_retval((void *)mem, "IDACreate", 0)) return(1);
  retval = IDAInit(mem, res, T0, yy, yp);
  if (check_retval(&retval, "IDAInit", 1)) return(1);
  retval = IDASStolerances(mem, RTOL, ATOL);
  if (check_retval(&retval, "IDASStolerances", 1)) return(1);
  retval = IDASetUserData(mem, data);
  if (check_retval(&retval, "IDASetUserData", 1)) return(1);

  A = SUNDenseMatrix(NEQ, NEQ, sunctx);
  if (check_retval((void *)A, "SUNDenseMatrix", 0)) return(1);
  LS = SUNLinSol_Dense(yy, A, sunctx);
  if (check_retval((void *)LS, "SUNLinSol_Dense", 0)) return(1);
  retval = IDASetLinearSolver(mem, LS, A);
  if (check_retval(&retval, "IDASetLinearSolver", 1)) return(1);

  audit = ea_ida_audit_create(1, T, V, NULL, data, 1.0e-3); /* energy audit */
  if (check_retval((void *)audit, "ea_ida_audit_create", 0)) return(1); /* energy audit */
  if (damper != NULL) { /* energy audit */
    retval = ea_ida_audit_add_named_power(audit, "damper", damper); /* energy audit */
    if (check_retval(&retval, "ea_ida_audit_add_named_power", 1)) return(1); /* energy audit */
  } /* energy audit */

  tret = T0;
  tout = T0 + DTOUT;
  for (iout = 0; iout < NOUT; iout++, tout += DTOUT) {
    retval = ea_ida_audit(audit, mem, tout, &tret, yy, yp, IDA_NORMAL); /* energy audit */
    if (check_retval(&retval, "ea_ida_audit", 1)) {
      fprintf(stderr, "%s\n", ea_ida_audit_last_error(audit));
      return(1);
    }
    printf("At t = %0.4e      q =%14.6e\n", (double)tret, (double)Ith(yy,1));
  }

  ea_ida_audit_print_summary(audit, stdout); /* energy audit */
  result->t = tret;
  result->q = Ith(yy,1);
  result->v = Ith(yy,2);
  result->drift = ea_ida_audit_relative_drift(audit);
  snprintf(result->verdict, sizeof result->verdict, "%s", ea_ida_audit_verdict(audit));
  result->steps = ea_ida_audit_steps(audit);
  retval = ea_ida_audit_last_energies(audit, &energies);
  if (check_retval(&retval, "ea_ida_audit_last_energies", 1)) return(1);
  result->audited_t = energies.t;
  result->damper_work = 0.0;
  if (damper != NULL) {
    retval = ea_ida_audit_named_work(audit, 0, &result->damper_work);
    if (check_retval(&retval, "ea_ida_audit_named_work", 1)) return(1);
  }
  ea_ida_audit_free(audit); /* energy audit */

  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(yy);
  N_VDestroy(yp);
  SUNContext_Free(&sunctx);
  return(0);
}

/* ---------------------------------------------------------------
 * Residual: F1 = q' - v, F2 = m v' + c v + k q
 * --------------------------------------------------------------- */

static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user_data)
{
  UserData d;

  (void)t;
  d = (UserData) user_data;
  Ith(rr,1) = Ith(yp,1) - Ith(yy,2);
  Ith(rr,2) = d->m*Ith(yp,2) + d->c*Ith(yy,2) + d->k*Ith(yy,1);
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
