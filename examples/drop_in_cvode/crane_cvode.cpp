/* -----------------------------------------------------------------
 * The trolley crane of seed 002 (docs/models.md, crane): a trolley of
 * mass m1 on a horizontal line, tied to the frame by a spring s and
 * a damper k, with a uniform rod (mass m2, length l) pinned to it.
 * With y = [x1, phi, x1', phi'], the hand-derived equations of
 * motion (seed 002, eq. 19) are
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
 * to this otherwise unchanged CVODE program: the crane's kinetic and
 * potential energy and the power of the damper, T, V and v^T f, are
 * written independently of eq. 19, and the audit checks that
 * C = T + V + Z (Z: the energy the damper took) stays constant along
 * the computed solution. The program exits with 1 when it does not.
 * Compiled with -DWRONG_SIGN, the velocity-squared term of x1'' has
 * the wrong sign (docs/models.md, crane-wrong), and the audit fails.
 * -----------------------------------------------------------------*/

#include <math.h>
#include <stdio.h>

#include <cvodes/cvodes.h>             /* CVode, CVodeInit, CV_BDF, ...   */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S       */
#include <sundials/sundials_context.hpp> /* sundials::Context */
#include <sunmatrix/sunmatrix_dense.h> /* SUNDenseMatrix                  */
#include <sunlinsol/sunlinsol_dense.h> /* SUNLinSol_Dense                 */
#include <energy_audit/sundials/cvode_drop_in.hpp> /* energy audit */

/* Component i = 1..NEQ of a serial vector, numbered as in the equations */

#define Ith(v,i)    NV_Ith_S(v,i-1)

/* Problem Constants */

#define NEQ    4                      /* number of equations: x1, phi, x1', phi' */
#define M1     SUN_RCONST(10.0)       /* trolley mass [kg]               */
#define M2     SUN_RCONST(1.0)        /* rod mass [kg]                   */
#define LROD   SUN_RCONST(1.0)        /* rod length [m]                  */
#define GRAV   SUN_RCONST(9.81)       /* gravity [m/s^2]                 */
#define KDAMP  SUN_RCONST(50.0)       /* damper on the trolley [N s/m]   */
#define SPRING SUN_RCONST(3000.0)     /* spring on the trolley [N/m]     */
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

/* Sign of the velocity-squared term of x1'' in eq. 19 (minus);
   -DWRONG_SIGN flips it to make the crane-wrong twin. */

#ifdef WRONG_SIGN
#define COUPLING_SIGN SUN_RCONST(1.0)
#else
#define COUPLING_SIGN SUN_RCONST(-1.0)
#endif

/* Right-hand side y' = f(t, y), called by CVODE */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Output and error checks */

static void PrintOutput(sunrealtype t, sunrealtype x1, sunrealtype phi);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: the crane's T and V, and P = v^T f, the damper's power; q = [x1, phi], v = [x1', phi'] */
static double T(const double *q, const double *v, double) { return HALF*(M1+M2)*v[0]*v[0]   /* energy audit */
  + HALF*M2*LROD*sin(q[1])*v[0]*v[1] + M2*LROD*LROD*v[1]*v[1]/SUN_RCONST(6.0); }          /* energy audit */
static double V(const double *q, double) { return HALF*SPRING*q[0]*q[0]                    /* energy audit */
  + HALF*M2*GRAV*LROD*sin(q[1]); }                                                        /* energy audit */
static double P(const double *, const double *v, double) { return -KDAMP*v[0]*v[0]; }     /* energy audit */

/* ---------------------------------------------------------------
 * Main program
 * --------------------------------------------------------------- */

int main(void)
{
  sundials::Context sunctx;  /* SUNDIALS context, freed on return */
  sunrealtype t, tout;
  N_Vector y;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *cvode_mem;
  int retval, iout;

  y = NULL;
  A = NULL;
  LS = NULL;
  cvode_mem = NULL;

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
  energy_audit::sun::CvodeAudit audit(2, {T, V, P}); /* energy audit */
  while(1) {
    retval = audit.CVode(cvode_mem, tout, y, &t, CV_NORMAL); /* energy audit */
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
  audit.print_summary(stdout); /* energy audit */

  /* Release the solver, the linear solver, the matrix and the vector */
  CVodeFree(&cvode_mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);

  return(audit.passed() ? 0 : 1); /* energy audit */
}


/* ---------------------------------------------------------------
 * Right-hand side: positions' rates are the velocities, the
 * accelerations are those of eq. 19
 * --------------------------------------------------------------- */

static int f(sunrealtype, N_Vector y, N_Vector ydot, void *)
{
  sunrealtype x1, phi, x1d, phid, c, s, delta;

  x1 = Ith(y,1); phi = Ith(y,2); x1d = Ith(y,3); phid = Ith(y,4);
  c = cos(phi); s = sin(phi);
  delta = 4*M1 + M2 + 3*M2*c*c;

  Ith(ydot,1) = x1d;
  Ith(ydot,2) = phid;
  Ith(ydot,3) = (COUPLING_SIGN*2*M2*LROD*c*phid*phid - 4*KDAMP*x1d - 4*SPRING*x1
                 + SUN_RCONST(1.5)*M2*GRAV*sin(2*phi)) / delta;
  Ith(ydot,4) = (3*M2*LROD*c*s*phid*phid + 6*s*(SPRING*x1 + KDAMP*x1d)
                 - 6*GRAV*(M1 + M2)*c) / (LROD*delta);

  return(0);
}

/* ---------------------------------------------------------------
 * Output and error checks
 * --------------------------------------------------------------- */

static void PrintOutput(sunrealtype t, sunrealtype x1, sunrealtype phi)
{
  printf("At t = %0.4e      x1 =%14.6e  phi =%14.6e\n", (double)t, (double)x1, (double)phi);
}

/* Returns 1 after printing a message if a SUNDIALS call failed:
 *   opt == 0: funcname returns a pointer, NULL on failure;
 *   opt == 1: funcname returns an int flag (returnvalue points to it),
 *             negative on failure. */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  if (opt == 0 && returnvalue == NULL) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() returned NULL\n\n", funcname);
    return(1);
  }
  if (opt == 1 && *(int *)returnvalue < 0) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed with flag %d\n\n", funcname,
            *(int *)returnvalue);
    return(1);
  }
  return(0);
}
