/* -----------------------------------------------------------------
 * The trolley crane of seed 002 (docs/models.md, crane) as a
 * CVODE program in C: the same problem as crane_cvode.cpp, with the
 * crane's parameters in a user-data struct that the right-hand side
 * and the energy functions share. A trolley of mass m1 on a
 * horizontal line, tied to the frame by a spring s and a damper k,
 * with a uniform rod (mass m2, length l) pinned to it. With
 * y = [x1, phi, x1', phi'], the hand-derived equations of motion
 * (seed 002, eq. 19) are
 *    x1''  = ( -2 m2 l cos(phi) phi'^2 - 4 k x1' - 4 s x1
 *             + (3/2) m2 g sin(2 phi) ) / D
 *    phi'' = ( 3 m2 l cos(phi) sin(phi) phi'^2 + 6 sin(phi) (s x1 + k x1')
 *             - 6 g (m1 + m2) cos(phi) ) / (l D)
 *    D = 4 m1 + m2 + 3 m2 cos(phi)^2
 * on the interval from t = 0 to t = 5, with initial conditions
 * x1 = 0.5, phi = -pi/6, x1' = phi' = 0. This program solves the
 * problem with the BDF method, Newton iteration with the dense
 * linear solver and a difference-quotient Jacobian, and prints x1
 * and phi every 0.5 s. Run statistics are printed at the end.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in audit
 * through its C interface: the crane's kinetic and potential energy
 * and the power of the damper, T, V and v^T f, read the parameters
 * from the same user data as the right-hand side, and the audit
 * checks that C = T + V + Z stays constant along the computed
 * solution. The program exits with 1 when it does not. Compiled
 * with -DWRONG_SIGN, the velocity-squared term of x1'' has the wrong
 * sign (docs/models.md, crane-wrong), and the audit fails.
 * -----------------------------------------------------------------*/

#include <math.h>
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

#define NEQ    4                      /* number of equations: x1, phi, x1', phi' */
#define X10    SUN_RCONST(0.5)        /* initial trolley position [m]    */
#define PHI0   SUN_RCONST(-0.5235987755982988) /* initial rod angle -pi/6 */
#define RTOL   SUN_RCONST(1.0e-10)    /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-12)    /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define T1     SUN_RCONST(0.5)        /* first output time               */
#define DTOUT  SUN_RCONST(0.5)        /* output time step                */
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

/* Sign of the velocity-squared term of x1'' in eq. 19 (minus);
   -DWRONG_SIGN flips it to make the crane-wrong twin. */

#ifdef WRONG_SIGN
#define COUPLING_SIGN SUN_RCONST(1.0)
#else
#define COUPLING_SIGN SUN_RCONST(-1.0)
#endif

/* The crane's parameters, passed to f as user data */

typedef struct {
  sunrealtype m1;    /* trolley mass [kg]             */
  sunrealtype m2;    /* rod mass [kg]                 */
  sunrealtype l;     /* rod length [m]                */
  sunrealtype g;     /* gravity [m/s^2]               */
  sunrealtype k;     /* damper on the trolley [N s/m] */
  sunrealtype s;     /* spring on the trolley [N/m]   */
} *UserData;

/* Right-hand side y' = f(t, y), called by CVODE */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Output and error checks */

static void PrintOutput(sunrealtype t, sunrealtype x1, sunrealtype phi);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: the crane's T and V, and P = v^T f, the damper's power; q = [x1, phi], v = [x1', phi'] */
static double T(const double *q, const double *v, double t, void *ud) { UserData d = (UserData)ud; (void)t; /* energy audit */
  return HALF*(d->m1+d->m2)*v[0]*v[0] + HALF*d->m2*d->l*sin(q[1])*v[0]*v[1]                    /* energy audit */
    + d->m2*d->l*d->l*v[1]*v[1]/SUN_RCONST(6.0); }                                             /* energy audit */
static double V(const double *q, double t, void *ud) { UserData d = (UserData)ud; (void)t;       /* energy audit */
  return HALF*d->s*q[0]*q[0] + HALF*d->m2*d->g*d->l*sin(q[1]); }                                 /* energy audit */
static double P(const double *q, const double *v, double t, void *ud) { (void)q; (void)t;      /* energy audit */
  return -((UserData)ud)->k*v[0]*v[0]; }                                                         /* energy audit */

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

  /* The crane's parameters */
  data = (UserData) malloc(sizeof *data);
  if (check_retval((void *)data, "malloc", 2)) return(1);
  data->m1 = SUN_RCONST(10.0);
  data->m2 = SUN_RCONST(1.0);
  data->l  = SUN_RCONST(1.0);
  data->g  = SUN_RCONST(9.81);
  data->k  = SUN_RCONST(50.0);
  data->s  = SUN_RCONST(3000.0);

  /* State vector with the initial state: at rest, rod at -30 degrees */
  y = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)y, "N_VNew_Serial", 0)) return(1);

  Ith(y,1) = X10;
  Ith(y,2) = PHI0;
  Ith(y,3) = ZERO;
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

  /* The tight tolerances take more than the default 500 steps per output */
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

  /* Integrate to each of the NOUT output times and print x1 and phi there;
     stop early if CVode fails */
  printf("\nTrolley crane (seed 002, eq. 19)\n\n");

  iout = 0;  tout = T1;
  EaCvodeAudit *audit = ea_cvode_audit_create(2, T, V, P, data, 1.0e-3); /* energy audit */
  while(1) {
    retval = ea_cvode_audit(audit, cvode_mem, tout, y, &t, CV_NORMAL); /* energy audit */
    PrintOutput(t, Ith(y,1), Ith(y,2));

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
 * Right-hand side: positions' rates are the velocities, the
 * accelerations are those of eq. 19
 * --------------------------------------------------------------- */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  UserData d;
  sunrealtype x1, phi, x1d, phid, c, s, delta;

  (void)t;
  d = (UserData) user_data;
  x1 = Ith(y,1); phi = Ith(y,2); x1d = Ith(y,3); phid = Ith(y,4);
  c = cos(phi); s = sin(phi);
  delta = 4*d->m1 + d->m2 + 3*d->m2*c*c;

  Ith(ydot,1) = x1d;
  Ith(ydot,2) = phid;
  Ith(ydot,3) = (COUPLING_SIGN*2*d->m2*d->l*c*phid*phid - 4*d->k*x1d - 4*d->s*x1
                 + SUN_RCONST(1.5)*d->m2*d->g*sin(2*phi)) / delta;
  Ith(ydot,4) = (3*d->m2*d->l*c*s*phid*phid + 6*s*(d->s*x1 + d->k*x1d)
                 - 6*d->g*(d->m1 + d->m2)*c) / (d->l*delta);

  return(0);
}

/* ---------------------------------------------------------------
 * Output and error checks
 * --------------------------------------------------------------- */

static void PrintOutput(sunrealtype t, sunrealtype x1, sunrealtype phi)
{
  printf("At t = %0.4e      x1 =%14.6e  phi =%14.6e\n", (double)t, (double)x1, (double)phi);
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
    fprintf(stderr, "\nERROR: %s() failed with flag %d\n\n", funcname,
            *(int *)returnvalue);
    return(1);
  }
  return(0);
}
