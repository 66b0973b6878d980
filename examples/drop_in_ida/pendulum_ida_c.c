/* -----------------------------------------------------------------
 * A pendulum on a hoisting rope, in Cartesian coordinates with a
 * multiplier: a bob of mass m hangs from a fixed winch on a rope
 * whose length the winch prescribes, L(t) = L0 + A sin(w t). With
 * y = [x, y, vx, vy, lambda] (y up), the constraint
 * Phi = (x^2 + y^2 - L(t)^2)/2 = 0 and the multiplier lambda (the
 * rope force is lambda times the bob's position), the index-1
 * residual is
 *    F1 = x' - vx
 *    F2 = y' - vy
 *    F3 = m vx' - lambda x
 *    F4 = m vy' + m g - lambda y
 *    F5 = x vx' + y vy' + vx^2 + vy^2 - (L'^2 + L L'')
 * (F5 is Phi'' = 0; lambda is algebraic). The bob starts 30 degrees
 * from the downward vertical, moving with the rope only; IDACalcIC
 * computes lambda and y'. This program solves the problem from t = 0
 * to t = 10 with IDA's BDF method and the dense linear solver, and
 * prints x, y and lambda every 0.5 s. Run statistics are printed at
 * the end.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in audit
 * (its C interface) to this otherwise unchanged IDA program: the
 * bob's kinetic and potential energy and the winch's power through
 * the rope, T, V and v^T G^T lambda = lambda L L', are written
 * independently of the residual, and the audit checks that
 * C = T + V + Z (Z: the work the winch took out) stays constant along
 * the computed solution. The program exits with 1 when it does not.
 * Compiled with -DWRONG_SIGN, the rope's L'^2 + L L'' enters F5 with
 * the wrong sign, and the audit fails.
 * -----------------------------------------------------------------*/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <idas/idas.h>                 /* IDASolve, IDAInit, ...          */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S       */
#include <sundials/sundials_config.h>  /* SUNDIALS_VERSION_MAJOR          */
#include <sunmatrix/sunmatrix_dense.h> /* SUNDenseMatrix                  */
#include <sunlinsol/sunlinsol_dense.h> /* SUNLinSol_Dense                 */
#include <energy_audit/sundials/ida_drop_in.h> /* energy audit */

/* Component i = 1..NEQ of a serial vector, numbered as in the equations */

#define Ith(v,i)    NV_Ith_S(v,i-1)

/* Problem Constants */

#define NEQ    5                      /* x, y, vx, vy, lambda            */
#define RTOL   SUN_RCONST(1.0e-8)     /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-10)    /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define T1     SUN_RCONST(0.5)        /* first output time               */
#define DTOUT  SUN_RCONST(0.5)        /* output time step                */
#define NOUT   20                     /* number of output times          */
#define TH0    SUN_RCONST(0.5235987755982988) /* initial angle: 30 degrees */

#define ZERO   SUN_RCONST(0.0)
#define HALF   SUN_RCONST(0.5)
#define ONE    SUN_RCONST(1.0)

/* Sign of the rope's L'^2 + L L'' in F5 (minus); -DWRONG_SIGN flips it */

#ifdef WRONG_SIGN
#define ROPE_SIGN SUN_RCONST(1.0)
#else
#define ROPE_SIGN SUN_RCONST(-1.0)
#endif

/* SUNContext_Create's communicator: none (SUNDIALS 7 names it) */

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#else
#define NO_COMM NULL
#endif

/* The problem's parameters, passed to the residual as user data */

typedef struct {
  sunrealtype m;   /* bob mass [kg]                  */
  sunrealtype g;   /* gravity [m/s^2]                */
  sunrealtype l0;  /* mean rope length [m]           */
  sunrealtype a;   /* amplitude of the hoisting [m]  */
  sunrealtype w;   /* angular frequency [1/s]        */
} *UserData;

/* The rope's length L(t) and its first two derivatives */

static sunrealtype RopeLength(UserData d, sunrealtype t) { return d->l0 + d->a*sin(d->w*t); }
static sunrealtype RopeRate(UserData d, sunrealtype t) { return d->a*d->w*cos(d->w*t); }
static sunrealtype RopeAccel(UserData d, sunrealtype t) { return -d->a*d->w*d->w*sin(d->w*t); }

/* Residual F(t, y, y'), called by IDA */

static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user_data);

/* Output and error checks */

static void PrintOutput(sunrealtype t, N_Vector y);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: the bob's T and V, and the winch's power lambda L L'; q = [x, y], v = [vx, vy] */
static double T(const double *q, const double *v, double t, void *ud) { (void)q; (void)t; /* energy audit */
  return HALF*((UserData)ud)->m*(v[0]*v[0] + v[1]*v[1]); }                                /* energy audit */
static double V(const double *q, double t, void *ud) { (void)t;                            /* energy audit */
  return ((UserData)ud)->m*((UserData)ud)->g*q[1]; }                                      /* energy audit */
static double Pc(const double *q, const double *v, const double *lambda, double t,         /* energy audit */
                 void *ud) { (void)q; (void)v;                                            /* energy audit */
  return lambda[0]*RopeLength((UserData)ud, t)*RopeRate((UserData)ud, t); }               /* energy audit */

/* ---------------------------------------------------------------
 * Main program
 * --------------------------------------------------------------- */

int main(void)
{
  SUNContext sunctx;
  UserData data;
  void *mem;
  N_Vector yy, yp, id;
  SUNMatrix A;
  SUNLinearSolver LS;
  sunrealtype tret, tout, l, ld;
  int retval, iout;

  mem = NULL;
  yy = yp = id = NULL;
  A = NULL;
  LS = NULL;

  retval = SUNContext_Create(NO_COMM, &sunctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return(1);

  data = (UserData) malloc(sizeof *data);
  if (check_retval((void *)data, "malloc", 0)) return(1);
  data->m = SUN_RCONST(1.0);
  data->g = SUN_RCONST(9.81);
  data->l0 = SUN_RCONST(1.0);
  data->a = SUN_RCONST(0.2);
  data->w = SUN_RCONST(2.0);

  yy = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)yy, "N_VNew_Serial", 0)) return(1);
  yp = N_VClone(yy);
  if (check_retval((void *)yp, "N_VClone", 0)) return(1);
  id = N_VClone(yy);
  if (check_retval((void *)id, "N_VClone", 0)) return(1);

  /* The bob at 30 degrees, moving radially with the rope; lambda and
     the accelerations are left to IDACalcIC */
  l = RopeLength(data, T0);
  ld = RopeRate(data, T0);
  Ith(yy,1) = l*sin(TH0);   Ith(yy,2) = -l*cos(TH0);
  Ith(yy,3) = ld*sin(TH0);  Ith(yy,4) = -ld*cos(TH0);
  Ith(yy,5) = ZERO;
  N_VConst(ZERO, yp);
  Ith(yp,1) = Ith(yy,3);
  Ith(yp,2) = Ith(yy,4);

  /* x, y, vx, vy are differential, lambda algebraic */
  N_VConst(ONE, id);
  Ith(id,5) = ZERO;

  mem = IDACreate(sunctx);
  if (check_retval((void *)mem, "IDACreate", 0)) return(1);

  retval = IDAInit(mem, res, T0, yy, yp);
  if (check_retval(&retval, "IDAInit", 1)) return(1);

  retval = IDASStolerances(mem, RTOL, ATOL);
  if (check_retval(&retval, "IDASStolerances", 1)) return(1);

  retval = IDASetUserData(mem, data);
  if (check_retval(&retval, "IDASetUserData", 1)) return(1);

  retval = IDASetId(mem, id);
  if (check_retval(&retval, "IDASetId", 1)) return(1);

  /* Dense matrix and linear solver, difference-quotient Jacobian */
  A = SUNDenseMatrix(NEQ, NEQ, sunctx);
  if (check_retval((void *)A, "SUNDenseMatrix", 0)) return(1);

  LS = SUNLinSol_Dense(yy, A, sunctx);
  if (check_retval((void *)LS, "SUNLinSol_Dense", 0)) return(1);

  retval = IDASetLinearSolver(mem, LS, A);
  if (check_retval(&retval, "IDASetLinearSolver", 1)) return(1);

  /* Consistent lambda and y' at T0 */
  retval = IDACalcIC(mem, IDA_YA_YDP_INIT, T1);
  if (check_retval(&retval, "IDACalcIC", 1)) return(1);

  printf("\nPendulum on a hoisting rope (Cartesian, index 1)\n\n");
  printf("     t             x             y        lambda\n");

  iout = 0;  tout = T1;
  EaIdaAudit *audit = ea_ida_audit_create(2, T, V, NULL, data, 1.0e-3); /* energy audit */
  ea_ida_audit_set_constraint_power(audit, Pc); /* energy audit */
  while(1) {
    retval = ea_ida_audit(audit, mem, tout, &tret, yy, yp, IDA_NORMAL); /* energy audit */
    PrintOutput(tret, yy);

    if (check_retval(&retval, "IDASolve", 1)) break;
    if (retval == IDA_SUCCESS) {
      iout++;
      tout += DTOUT;
    }

    if (iout == NOUT) break;
  }

  /* Solver statistics */
  printf("\nFinal Statistics:\n");
  retval = IDAPrintAllStats(mem, stdout, SUN_OUTPUTFORMAT_TABLE);
  ea_ida_audit_print_summary(audit, stdout); /* energy audit */
  int passed = ea_ida_audit_passed(audit); /* energy audit */
  ea_ida_audit_free(audit); /* energy audit */

  /* Release the solver, the linear solver, the matrix, the vectors and the context */
  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(id);
  N_VDestroy(yp);
  N_VDestroy(yy);
  free(data);
  SUNContext_Free(&sunctx);

  return(passed ? 0 : 1); /* energy audit */
}

/* ---------------------------------------------------------------
 * Residual of the index-1 equations
 * --------------------------------------------------------------- */

static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user_data)
{
  UserData d;
  sunrealtype x, y, vx, vy, lambda, l, ld, ldd;

  d = (UserData) user_data;
  x = Ith(yy,1); y = Ith(yy,2); vx = Ith(yy,3); vy = Ith(yy,4); lambda = Ith(yy,5);
  l = RopeLength(d, t); ld = RopeRate(d, t); ldd = RopeAccel(d, t);

  Ith(rr,1) = Ith(yp,1) - vx;
  Ith(rr,2) = Ith(yp,2) - vy;
  Ith(rr,3) = d->m*Ith(yp,3) - lambda*x;
  Ith(rr,4) = d->m*Ith(yp,4) + d->m*d->g - lambda*y;
  Ith(rr,5) = x*Ith(yp,3) + y*Ith(yp,4) + vx*vx + vy*vy + ROPE_SIGN*(ld*ld + l*ldd);

  return(0);
}

/* ---------------------------------------------------------------
 * Output and error checks
 * --------------------------------------------------------------- */

static void PrintOutput(sunrealtype t, N_Vector y)
{
  printf("%10.4f  %12.6f  %12.6f  %12.6f\n", (double)t, (double)Ith(y,1), (double)Ith(y,2),
         (double)Ith(y,5));
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
