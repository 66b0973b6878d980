/* -----------------------------------------------------------------
 * Example problem (C):
 *
 * Two masses on a line (docs/drop-in.md, any layout): the first,
 * of mass m1, tied to the ground by a spring k1 and a damper c1;
 * the second, of mass m2, tied to the first by a spring k2 and a
 * damper c2 side by side. The state is kept body by body,
 *    y = [x1, v1, x2, v2],
 * as many programs keep it, with
 *    x1' = v1,  v1' = (-k1 x1 - c1 v1 + k2 (x2 - x1) + c2 (v2 - v1)) / m1,
 *    x2' = v2,  v2' = (-k2 (x2 - x1) - c2 (v2 - v1)) / m2,
 * from x1 = 0.1, x2 = -0.05 at rest, on the interval from t = 0 to
 * t = 10. This program solves the problem with the BDF method,
 * Newton iteration with the dense linear solver and a
 * difference-quotient Jacobian, and prints the state every 1 s.
 * Run statistics are printed at the end.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in
 * audit through its C interface: T, V and the dampers' power
 * P = v^T f over q = [x1, x2] and v = [v1, v2], and the layout of
 * y that says where they are (q at 0 and 2, v at 1 and 3: first
 * entries 0 and 1, stride 2). The audit checks that C = T + V + Z
 * stays constant along the computed solution; the program exits
 * with 1 when it does not. Compiled with -DWRONG_SIGN, the second
 * damper pushes the first mass the wrong way, and the audit fails.
 * -----------------------------------------------------------------*/

#include <stdio.h>
#include <stdlib.h>

#include <cvodes/cvodes.h>             /* CVode, CVodeInit, CV_BDF, ...   */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S       */
#include <sundials/sundials_config.h>  /* SUNDIALS_VERSION_MAJOR          */
#include <sunmatrix/sunmatrix_dense.h> /* SUNDenseMatrix                  */
#include <sunlinsol/sunlinsol_dense.h> /* SUNLinSol_Dense                 */
#include <energy_audit/sundials/cvode_drop_in.h> /* energy audit */

/* Component i = 1..NEQ of a serial vector, numbered as in the equations */

#define Ith(v,i)    NV_Ith_S(v,i-1)

/* Problem Constants */

#define NEQ    4                      /* number of equations: x1, v1, x2, v2 */
#define X10    SUN_RCONST(0.1)        /* initial position of the first mass  */
#define X20    SUN_RCONST(-0.05)      /* initial position of the second mass */
#define RTOL   SUN_RCONST(1.0e-10)    /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-12)    /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define T1     SUN_RCONST(1.0)        /* first output time               */
#define DTOUT  SUN_RCONST(1.0)        /* output time step                */
#define NOUT   10                     /* number of output times          */
#define MXSTEP 100000                 /* max. steps between outputs      */

#define ZERO   SUN_RCONST(0.0)
#define HALF   SUN_RCONST(0.5)

/* SUNContext_Create's communicator: none (SUNDIALS 7 names it) */

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#else
#define NO_COMM NULL
#endif

/* Sign of the second damper's force on the first mass (plus);
   -DWRONG_SIGN flips it. */

#ifdef WRONG_SIGN
#define DAMPER_SIGN SUN_RCONST(-1.0)
#else
#define DAMPER_SIGN SUN_RCONST(1.0)
#endif

/* The chain's parameters, passed to f as user data */

typedef struct {
  sunrealtype m1, m2;  /* masses [kg]                           */
  sunrealtype k1, k2;  /* springs: to the ground, between [N/m] */
  sunrealtype c1, c2;  /* dampers: to the ground, between [N s/m] */
} *UserData;

/* Right-hand side y' = f(t, y), called by CVODE */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Output and error checks */

static void PrintOutput(sunrealtype t, N_Vector y);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: T, V and P = v^T f, the dampers' power; q = [x1, x2], v = [v1, v2] */
static double T(const double *q, const double *v, double t, void *ud) { UserData d = (UserData)ud;  /* energy audit */
  (void)q; (void)t; return HALF*(d->m1*v[0]*v[0] + d->m2*v[1]*v[1]); }                             /* energy audit */
static double V(const double *q, double t, void *ud) { UserData d = (UserData)ud; (void)t;          /* energy audit */
  return HALF*d->k1*q[0]*q[0] + HALF*d->k2*(q[1]-q[0])*(q[1]-q[0]); }                                /* energy audit */
static double P(const double *q, const double *v, double t, void *ud) { UserData d = (UserData)ud; /* energy audit */
  (void)q; (void)t; return -d->c1*v[0]*v[0] - d->c2*(v[1]-v[0])*(v[1]-v[0]); }                     /* energy audit */

/* ---------------------------------------------------------------
 * Main program
 * --------------------------------------------------------------- */

int main(void)
{
  SUNContext sunctx;
  sunrealtype t, tout;
  N_Vector y;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *cvode_mem;
  int retval, iout;
  UserData data;

  y = NULL;
  A = NULL;
  LS = NULL;
  cvode_mem = NULL;

  retval = SUNContext_Create(NO_COMM, &sunctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return(1);

  /* The chain's parameters */
  data = (UserData) malloc(sizeof *data);
  if (check_retval((void *)data, "malloc", 2)) return(1);
  data->m1 = SUN_RCONST(1.0);
  data->m2 = SUN_RCONST(2.0);
  data->k1 = SUN_RCONST(30.0);
  data->k2 = SUN_RCONST(12.0);
  data->c1 = SUN_RCONST(0.3);
  data->c2 = SUN_RCONST(0.2);

  /* State vector with the initial state, body by body: at rest */
  y = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)y, "N_VNew_Serial", 0)) return(1);

  Ith(y,1) = X10;
  Ith(y,2) = ZERO;
  Ith(y,3) = X20;
  Ith(y,4) = ZERO;

  /* BDF solver for y' = f(t, y) from y(T0), with scalar tolerances */
  cvode_mem = CVodeCreate(CV_BDF, sunctx);
  if (check_retval((void *)cvode_mem, "CVodeCreate", 0)) return(1);

  retval = CVodeInit(cvode_mem, f, T0, y);
  if (check_retval(&retval, "CVodeInit", 1)) return(1);

  retval = CVodeSetUserData(cvode_mem, data);
  if (check_retval(&retval, "CVodeSetUserData", 1)) return(1);

  retval = CVodeSStolerances(cvode_mem, RTOL, ATOL);
  if (check_retval(&retval, "CVodeSStolerances", 1)) return(1);

  retval = CVodeSetMaxNumSteps(cvode_mem, MXSTEP);
  if (check_retval(&retval, "CVodeSetMaxNumSteps", 1)) return(1);

  /* Newton iteration with a dense matrix and linear solver; the Jacobian
     is approximated by difference quotients */
  A = SUNDenseMatrix(NEQ, NEQ, sunctx);
  if (check_retval((void *)A, "SUNDenseMatrix", 0)) return(1);

  LS = SUNLinSol_Dense(y, A, sunctx);
  if (check_retval((void *)LS, "SUNLinSol_Dense", 0)) return(1);

  retval = CVodeSetLinearSolver(cvode_mem, LS, A);
  if (check_retval(&retval, "CVodeSetLinearSolver", 1)) return(1);

  /* Integrate to each of the NOUT output times and print the state there;
     stop early if CVode fails */
  printf("\nTwo damped masses, y = [x1, v1, x2, v2]\n\n");

  iout = 0;  tout = T1;
  EaCvodeAudit *audit = ea_cvode_audit_create(2, T, V, P, data, 1.0e-3); /* energy audit */
  ea_cvode_audit_set_layout(audit, NEQ, 0, 1, 2); /* energy audit: q at 0, 2; v at 1, 3 */
  while(1) {
    retval = ea_cvode_audit(audit, cvode_mem, tout, y, &t, CV_NORMAL); /* energy audit */
    PrintOutput(t, y);

    if (check_retval(&retval, "CVode", 1)) break;
    if (retval == CV_SUCCESS) {
      iout++;
      tout += DTOUT;
    }

    if (iout == NOUT) break;
  }

  /* Solver statistics */
  printf("\nFinal Statistics:\n");
  retval = CVodePrintAllStats(cvode_mem, stdout, SUN_OUTPUTFORMAT_TABLE);
  ea_cvode_audit_print_summary(audit, stdout); /* energy audit */
  int passed = ea_cvode_audit_passed(audit); /* energy audit */
  ea_cvode_audit_free(audit); /* energy audit */

  /* Release the solver, the linear solver, the matrix, the vector, the user data and the context */
  CVodeFree(&cvode_mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  free(data);
  SUNContext_Free(&sunctx);

  return(passed ? 0 : 1); /* energy audit */
}


/* ---------------------------------------------------------------
 * Right-hand side: each body's position rate is its velocity, its
 * velocity rate the forces of its springs and dampers over its mass
 * --------------------------------------------------------------- */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  UserData d;
  sunrealtype x1, v1, x2, v2, between;

  (void)t;
  d = (UserData) user_data;
  x1 = Ith(y,1); v1 = Ith(y,2); x2 = Ith(y,3); v2 = Ith(y,4);
  between = d->k2*(x2 - x1) + d->c2*(v2 - v1);

  Ith(ydot,1) = v1;
  Ith(ydot,2) = (-d->k1*x1 - d->c1*v1 + d->k2*(x2 - x1) + DAMPER_SIGN*d->c2*(v2 - v1)) / d->m1;
  Ith(ydot,3) = v2;
  Ith(ydot,4) = -between / d->m2;

  return(0);
}

/* ---------------------------------------------------------------
 * Output and error checks
 * --------------------------------------------------------------- */

static void PrintOutput(sunrealtype t, N_Vector y)
{
  printf("At t = %0.4e   x1 = %23.16e  v1 = %23.16e  x2 = %23.16e  v2 = %23.16e\n", (double)t,
         (double)Ith(y,1), (double)Ith(y,2), (double)Ith(y,3), (double)Ith(y,4));
}

/* Returns 1 after printing a message if a call failed:
 *   opt == 0: funcname returns a pointer, NULL on failure (SUNDIALS);
 *   opt == 1: funcname returns an int flag (returnvalue points to it),
 *             negative on failure;
 *   opt == 2: funcname allocated memory, NULL on failure. */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  if ((opt == 0 || opt == 2) && returnvalue == NULL) {
    fprintf(stderr, "\nERROR: %s() returned NULL\n\n", funcname);
    return(1);
  }
  if (opt == 1 && *(int *)returnvalue < 0) {
    fprintf(stderr, "\nERROR: %s() returned %d\n\n", funcname, *(int *)returnvalue);
    return(1);
  }
  return(0);
}
