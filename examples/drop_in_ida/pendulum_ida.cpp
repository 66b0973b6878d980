/* -----------------------------------------------------------------
 * The pendulum on a hoisting rope of pendulum_ida_c.c, written in
 * C++ (a sundials::Context, as in SUNDIALS' C++ examples): a bob of
 * mass m on a rope of prescribed length L(t) = L0 + A sin(w t), in
 * Cartesian coordinates y = [x, y, vx, vy, lambda] with the index-1
 * residual
 *    F1 = x' - vx,  F2 = y' - vy,  F3 = m vx' - lambda x,
 *    F4 = m vy' + m g - lambda y,
 *    F5 = x vx' + y vy' + vx^2 + vy^2 - (L'^2 + L L''),
 * from 30 degrees, moving with the rope only, t from 0 to 10. It
 * prints x, y and lambda every 0.5 s and the run statistics.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in audit
 * (energy_audit::sun::IdaAudit) to it: T, V and the winch's power
 * lambda L L' are written independently of the residual, and the
 * program exits with 1 when C = T + V + Z does not stay constant.
 * Compiled with -DWRONG_SIGN, L'^2 + L L'' enters F5 with the wrong
 * sign, and the audit fails.
 * -----------------------------------------------------------------*/

#include <math.h>
#include <stdio.h>

#include <idas/idas.h>                 /* IDASolve, IDAInit, ...          */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S       */
#include <sundials/sundials_context.hpp> /* sundials::Context */
#include <sunmatrix/sunmatrix_dense.h> /* SUNDenseMatrix                  */
#include <sunlinsol/sunlinsol_dense.h> /* SUNLinSol_Dense                 */
#include <energy_audit/sundials/ida_drop_in.hpp> /* energy audit */

#define Ith(v,i)    NV_Ith_S(v,i-1)

/* Problem Constants */

#define NEQ    5                      /* x, y, vx, vy, lambda            */
#define MASS   SUN_RCONST(1.0)        /* bob mass [kg]                   */
#define GRAV   SUN_RCONST(9.81)       /* gravity [m/s^2]                 */
#define L0     SUN_RCONST(1.0)        /* mean rope length [m]            */
#define AMPL   SUN_RCONST(0.2)        /* amplitude of the hoisting [m]   */
#define OMEGA  SUN_RCONST(2.0)        /* its angular frequency [1/s]     */
#define TH0    SUN_RCONST(0.5235987755982988) /* initial angle: 30 degrees */
#define RTOL   SUN_RCONST(1.0e-8)
#define ATOL   SUN_RCONST(1.0e-10)
#define T0     SUN_RCONST(0.0)
#define T1     SUN_RCONST(0.5)
#define DTOUT  SUN_RCONST(0.5)
#define NOUT   20
#define ZERO   SUN_RCONST(0.0)
#define HALF   SUN_RCONST(0.5)
#define ONE    SUN_RCONST(1.0)

#ifdef WRONG_SIGN
#define ROPE_SIGN SUN_RCONST(1.0)
#else
#define ROPE_SIGN SUN_RCONST(-1.0)
#endif

static sunrealtype RopeLength(sunrealtype t) { return L0 + AMPL*sin(OMEGA*t); }
static sunrealtype RopeRate(sunrealtype t) { return AMPL*OMEGA*cos(OMEGA*t); }
static sunrealtype RopeAccel(sunrealtype t) { return -AMPL*OMEGA*OMEGA*sin(OMEGA*t); }

static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user_data);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: the bob's T and V, and the winch's power lambda L L'; q = [x, y], v = [vx, vy] */
static double T(const double *, const double *v, double) { return HALF*MASS*(v[0]*v[0] + v[1]*v[1]); } /* energy audit */
static double V(const double *q, double) { return MASS*GRAV*q[1]; }                                   /* energy audit */
static double Pc(const double *, const double *, const double *lambda, double t) {                     /* energy audit */
  return lambda[0]*RopeLength(t)*RopeRate(t); }                                                         /* energy audit */

int main(void)
{
  sundials::Context sunctx;  /* SUNDIALS context, freed on return */
  sunrealtype tret, tout;
  int retval, iout;

  N_Vector yy = N_VNew_Serial(NEQ, sunctx);
  if (check_retval((void *)yy, "N_VNew_Serial", 0)) return(1);
  N_Vector yp = N_VClone(yy);
  N_Vector id = N_VClone(yy);
  if (check_retval((void *)yp, "N_VClone", 0) || check_retval((void *)id, "N_VClone", 0)) return(1);

  /* The bob at 30 degrees, moving radially with the rope; lambda and
     the accelerations are left to IDACalcIC */
  Ith(yy,1) = RopeLength(T0)*sin(TH0);  Ith(yy,2) = -RopeLength(T0)*cos(TH0);
  Ith(yy,3) = RopeRate(T0)*sin(TH0);    Ith(yy,4) = -RopeRate(T0)*cos(TH0);
  Ith(yy,5) = ZERO;
  N_VConst(ZERO, yp);
  Ith(yp,1) = Ith(yy,3);
  Ith(yp,2) = Ith(yy,4);
  N_VConst(ONE, id);
  Ith(id,5) = ZERO;  /* lambda is algebraic */

  void *mem = IDACreate(sunctx);
  if (check_retval((void *)mem, "IDACreate", 0)) return(1);
  retval = IDAInit(mem, res, T0, yy, yp);
  if (check_retval(&retval, "IDAInit", 1)) return(1);
  retval = IDASStolerances(mem, RTOL, ATOL);
  if (check_retval(&retval, "IDASStolerances", 1)) return(1);
  retval = IDASetId(mem, id);
  if (check_retval(&retval, "IDASetId", 1)) return(1);

  SUNMatrix A = SUNDenseMatrix(NEQ, NEQ, sunctx);
  if (check_retval((void *)A, "SUNDenseMatrix", 0)) return(1);
  SUNLinearSolver LS = SUNLinSol_Dense(yy, A, sunctx);
  if (check_retval((void *)LS, "SUNLinSol_Dense", 0)) return(1);
  retval = IDASetLinearSolver(mem, LS, A);
  if (check_retval(&retval, "IDASetLinearSolver", 1)) return(1);

  retval = IDACalcIC(mem, IDA_YA_YDP_INIT, T1);
  if (check_retval(&retval, "IDACalcIC", 1)) return(1);

  printf("\nPendulum on a hoisting rope (Cartesian, index 1)\n\n");
  printf("     t             x             y        lambda\n");

  iout = 0;  tout = T1;
  energy_audit::sun::DropInEnergies energies{T, V}; /* energy audit */
  energies.constraint_power = Pc; /* energy audit */
  energy_audit::sun::IdaAudit audit(2, energies); /* energy audit */
  while(1) {
    retval = audit.IDASolve(mem, tout, &tret, yy, yp, IDA_NORMAL); /* energy audit */
    printf("%10.4f  %12.6f  %12.6f  %12.6f\n", (double)tret, (double)Ith(yy,1), (double)Ith(yy,2),
           (double)Ith(yy,5));

    if (check_retval(&retval, "IDASolve", 1)) break;
    if (retval == IDA_SUCCESS) {
      iout++;
      tout += DTOUT;
    }
    if (iout == NOUT) break;
  }

  printf("\nFinal Statistics:\n");
  retval = IDAPrintAllStats(mem, stdout, SUN_OUTPUTFORMAT_TABLE);
  audit.print_summary(stdout); /* energy audit */

  IDAFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(id);
  N_VDestroy(yp);
  N_VDestroy(yy);

  return(audit.passed() ? 0 : 1); /* energy audit */
}

/* Residual of the index-1 equations */
static int res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *)
{
  const sunrealtype x = Ith(yy,1), y = Ith(yy,2), vx = Ith(yy,3), vy = Ith(yy,4), lambda = Ith(yy,5);
  const sunrealtype l = RopeLength(t), ld = RopeRate(t), ldd = RopeAccel(t);

  Ith(rr,1) = Ith(yp,1) - vx;
  Ith(rr,2) = Ith(yp,2) - vy;
  Ith(rr,3) = MASS*Ith(yp,3) - lambda*x;
  Ith(rr,4) = MASS*Ith(yp,4) + MASS*GRAV - lambda*y;
  Ith(rr,5) = x*Ith(yp,3) + y*Ith(yp,4) + vx*vx + vy*vy + ROPE_SIGN*(ld*ld + l*ldd);
  return(0);
}

/* Returns 1 after printing a message if a SUNDIALS call failed (opt 0: a NULL
   pointer; opt 1: a negative flag) */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  if (opt == 0 && returnvalue == NULL) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() returned NULL\n\n", funcname);
    return(1);
  }
  if (opt == 1 && *(int *)returnvalue < 0) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed with flag %d\n\n", funcname, *(int *)returnvalue);
    return(1);
  }
  return(0);
}
