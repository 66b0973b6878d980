/* -----------------------------------------------------------------
 * Example problem (C, SUNDIALS 7):
 *
 * The Kepler problem (docs/drop-in.md, SPRKStep programs): a body
 * of unit mass around a fixed centre of unit gravitational
 * parameter. With its position q = (q1, q2) and its velocity
 * v = (v1, v2), which is its momentum (unit mass), and
 * y = [q1, q2, v1, v2],
 *    dq/dt = v,    dv/dt = -q / |q|^3,
 * from the perihelion of the orbit of eccentricity e = 0.6 and
 * semi-major axis a = 1,
 *    q(0) = [1 - e, 0],   v(0) = [0, sqrt((1 + e)/(1 - e))],
 * on the interval from t = 0 to t = 100 (about 16 orbits of period
 * 2 pi). The energy H = |v|^2/2 - 1/|q| = -1/(2a) and the angular
 * momentum L = q1 v2 - q2 v1 are conserved.
 *
 * This program solves the problem with SPRKStep's 4th-order
 * symplectic method (McLachlan) at the fixed step 0.01, with
 * f1 = the force (dv/dt) and f2 = the velocity (dq/dt), and
 * prints the state and L - L0 every 10 time units; a stop time
 * at each output time makes the method step onto it (with
 * --disable-tstop the output is interpolated instead). Run
 * statistics are printed at the end. With --erk it solves the
 * same problem with ERKStep's explicit 4th-order method at the
 * same fixed step (f = f1 + f2), to compare with a method that
 * is not symplectic.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in
 * audit through its C interface: T = |v|^2/2 and V = -1/|q| are
 * written from the physics, independently of f1, and no force
 * does non-potential work, so the audit checks that H = T + V
 * stays constant over every step ARKODE takes. The program exits
 * with 1 when it does not. Compiled with -DWRONG_EXPONENT, f1
 * divides q by |q|^2 instead of |q|^3: the orbit stays bounded,
 * L stays constant to round-off (the force is still central),
 * and the symplectic method keeps the energy of that force,
 * |v|^2/2 + ln|q|, as bounded as it keeps H here; H itself
 * swings by far more, and the audit fails.
 *-----------------------------------------------------------------*/

/* Header files */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <arkode/arkode_erkstep.h>     /* ERKStepCreate (--erk)             */
#include <arkode/arkode_sprkstep.h>    /* SPRKStepCreate, ARKodeEvolve, ... */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S         */
#include <sundials/sundials_math.h>    /* SUNRsqrt, SUNRpowerR              */
#include <energy_audit/sundials/arkode_drop_in.h> /* energy audit */

/* Problem Constants */

#define NEQ    4                      /* number of equations: q, v       */
#define ECC    SUN_RCONST(0.6)        /* eccentricity of the orbit       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define TF     SUN_RCONST(100.0)      /* final time                      */
#define DTOUT  SUN_RCONST(10.0)       /* output time step                */
#define DT     SUN_RCONST(0.01)       /* fixed time step                 */
#define HALF   SUN_RCONST(0.5)
#define ONE    SUN_RCONST(1.0)

/* Power of |q| that divides q in the force f1 = -q/|q|^3;
   -DWRONG_EXPONENT makes it 2, the force of the wrong twin. */

#ifdef WRONG_EXPONENT
#define FORCE_EXPONENT SUN_RCONST(2.0)
#else
#define FORCE_EXPONENT SUN_RCONST(3.0)
#endif

/* User-supplied Functions Called by the Solver */
static int force(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
static int velocity(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
static int force_and_velocity(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Private functions */
static sunrealtype AngularMomentum(N_Vector y);
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: T and V of the body, q = [q1, q2], v = [v1, v2]; no non-potential force */
static double T(const double *q, const double *v, double t, void *ud) {   /* energy audit */
  (void)q; (void)t; (void)ud; return 0.5*(v[0]*v[0] + v[1]*v[1]); }       /* energy audit */
static double V(const double *q, double t, void *ud) {                    /* energy audit */
  (void)t; (void)ud; return -1.0/sqrt(q[0]*q[0] + q[1]*q[1]); }           /* energy audit */

/* Main Program */
int main(int argc, char *argv[])
{
  SUNContext ctx = NULL;          /* SUNDIALS context */
  int retval;                     /* reusable error-checking flag */
  int use_tstop = 1;              /* reach each output time with a stop time */
  int use_erk = 0;                /* ERKStep instead of SPRKStep */
  int i;
  N_Vector y = NULL;              /* empty vector for storing solution */
  void *arkode_mem = NULL;        /* empty ARKODE memory structure */
  sunrealtype t, tout, L0;
  int passed; /* energy audit */

  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--disable-tstop") == 0) use_tstop = 0;
    else if (strcmp(argv[i], "--erk") == 0) use_erk = 1;
    else {
      fprintf(stderr, "%s: unknown argument '%s'; the options are --disable-tstop and --erk\n", argv[0], argv[i]);
      return 2;
    }
  }

  /* Create the SUNDIALS context object for this simulation */
  retval = SUNContext_Create(SUN_COMM_NULL, &ctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return 1;

  /* Initial problem output */
  printf("\nKepler problem, eccentricity %.2f (%s):\n", ECC, use_erk ? "ERKStep" : "SPRKStep");
  printf("   method = %s\n", use_erk ? "ERKStep's default of order 4" : "ARKODE_SPRK_MCLACHLAN_4_4");
  printf("   fixed step = %.2e\n", DT);
  printf("   output times %s\n\n", use_tstop ? "reached by stop times" : "interpolated");

  /* Initialize data structures: the perihelion */
  y = N_VNew_Serial(NEQ, ctx);
  if (check_retval((void *)y, "N_VNew_Serial", 0)) return 1;
  NV_Ith_S(y,0) = ONE - ECC;
  NV_Ith_S(y,1) = SUN_RCONST(0.0);
  NV_Ith_S(y,2) = SUN_RCONST(0.0);
  NV_Ith_S(y,3) = SUNRsqrt((ONE + ECC)/(ONE - ECC));
  L0 = AngularMomentum(y);

  if (use_erk) {
    /* Call ERKStepCreate to initialize the ERK timestepper module and
       specify the whole right-hand side f = f1 + f2. */
    arkode_mem = ERKStepCreate(force_and_velocity, T0, y, ctx);
    if (check_retval((void *)arkode_mem, "ERKStepCreate", 0)) return 1;
  } else {
    /* Call SPRKStepCreate to initialize the SPRK timestepper module and
       specify the force f1 (dv/dt) and the velocity f2 (dq/dt), the
       initial time T0, and the initial dependent variable vector y. */
    arkode_mem = SPRKStepCreate(force, velocity, T0, y, ctx);
    if (check_retval((void *)arkode_mem, "SPRKStepCreate", 0)) return 1;

    /* Set routines */
    retval = SPRKStepSetMethodName(arkode_mem, "ARKODE_SPRK_MCLACHLAN_4_4");
    if (check_retval(&retval, "SPRKStepSetMethodName", 1)) return 1;
  }
  retval = ARKodeSetFixedStep(arkode_mem, DT);
  if (check_retval(&retval, "ARKodeSetFixedStep", 1)) return 1;
  retval = ARKodeSetMaxNumSteps(arkode_mem, ((long int)ceil(TF/DT)) + 1);
  if (check_retval(&retval, "ARKodeSetMaxNumSteps", 1)) return 1;

  /* Main time-stepping loop: calls ARKodeEvolve to perform the integration, then
     prints results.  Stops when the final time has been reached */
  t = T0;
  tout = T0+DTOUT;
  EaArkodeAudit *audit = ea_arkode_audit_create(2, T, V, NULL, NULL, 1.0e-3); /* energy audit */
  printf("      t             q1                      q2                      v1"
         "                      v2              L - L0\n");
  printf("   ------------------------------------------------------------------"
         "-------------------------------------------------\n");
  while (TF - t > 1.0e-15) {
    if (use_tstop) {
      retval = ARKodeSetStopTime(arkode_mem, tout);
      if (check_retval(&retval, "ARKodeSetStopTime", 1)) break;
    }
    retval = ea_arkode_audit_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL); /* energy audit */
    if (check_retval(&retval, "ARKodeEvolve", 1)) break;
    printf("  %7.3f  % .16e  % .16e  % .16e  % .16e  % .2e\n", t, NV_Ith_S(y,0),
           NV_Ith_S(y,1), NV_Ith_S(y,2), NV_Ith_S(y,3), AngularMomentum(y) - L0);
    tout += DTOUT;
    tout = (tout > TF) ? TF : tout;
  }
  printf("   ------------------------------------------------------------------"
         "-------------------------------------------------\n");

  /* Print all final statistics */
  printf("\nFinal Solver Statistics:\n");
  retval = ARKodePrintAllStats(arkode_mem, stdout, SUN_OUTPUTFORMAT_TABLE);
  check_retval(&retval, "ARKodePrintAllStats", 1);
  printf("\n");
  ea_arkode_audit_print_summary(audit, stdout); /* energy audit */
  passed = ea_arkode_audit_passed(audit); /* energy audit */
  ea_arkode_audit_free(audit); /* energy audit */

  /* Clean up and return */
  N_VDestroy(y);            /* Free y vector */
  ARKodeFree(&arkode_mem);  /* Free integrator memory */
  SUNContext_Free(&ctx);    /* Free context */

  return passed ? 0 : 1; /* energy audit */
}

/*-------------------------------
 * Functions called by the solver
 *-------------------------------*/

/* f1 routine: the force on the body (per unit mass), dv/dt = -q/|q|^3;
   SPRKStep has set the other entries of ydot to zero. */
static int force(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  sunrealtype r = SUNRsqrt(yd[0]*yd[0] + yd[1]*yd[1]);
  (void)t; (void)user_data;

  dydt[2] = -yd[0]/SUNRpowerR(r, FORCE_EXPONENT);
  dydt[3] = -yd[1]/SUNRpowerR(r, FORCE_EXPONENT);

  return 0;
}

/* f2 routine: the rate of the position, dq/dt = v;
   SPRKStep has set the other entries of ydot to zero. */
static int velocity(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  (void)t; (void)user_data;

  dydt[0] = yd[2];
  dydt[1] = yd[3];

  return 0;
}

/* The whole right-hand side for ERKStep (--erk): f = f1 + f2. */
static int force_and_velocity(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  int retval = force(t, y, ydot, user_data);  /* dydt[2], dydt[3] */

  dydt[0] = yd[2];
  dydt[1] = yd[3];

  return retval;
}

/*-------------------------------
 * Private helper functions
 *-------------------------------*/

/* The angular momentum L = q1 v2 - q2 v1 (unit mass) */
static sunrealtype AngularMomentum(N_Vector y)
{
  return NV_Ith_S(y,0)*NV_Ith_S(y,3) - NV_Ith_S(y,1)*NV_Ith_S(y,2);
}

/* Check function return value...
    opt == 0 means SUNDIALS function allocates memory so check if
             returned NULL pointer
    opt == 1 means SUNDIALS function returns a flag so check if
             flag >= 0 */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  int *retval;

  /* Check if SUNDIALS function returned NULL pointer - no memory allocated */
  if (opt == 0 && returnvalue == NULL) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed - returned NULL pointer\n\n", funcname);
    return 1; }

  /* Check if retval < 0 */
  else if (opt == 1) {
    retval = (int *) returnvalue;
    if (*retval < 0) {
      fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed with retval = %d\n\n", funcname, *retval);
      return 1; }}

  return 0;
}
