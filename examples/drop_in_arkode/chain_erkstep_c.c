/* -----------------------------------------------------------------
 * Example problem (C):
 *
 * The chain of chain_erkstep.cpp as an ARKODE program in C, with
 * the chain's parameters in a user-data struct that the right-hand
 * side and the energy functions share. A damped, driven chain of
 * three masses (docs/drop-in.md, the ARKODE drop-in): mass i (m_i) is tied to its left neighbour, the
 * first to a fixed wall, by a spring k_i and a damper c_i, and the
 * last is driven by the force F0 cos(w t). With the displacements
 * x1, x2, x3 (x0 = 0 at the wall) and y = [x1, x2, x3, v1, v2, v3],
 *    m_i v_i' = - k_i (x_i - x_{i-1}) - c_i (v_i - v_{i-1})
 *               + k_{i+1} (x_{i+1} - x_i) + c_{i+1} (v_{i+1} - v_i)
 *               [+ F0 cos(w t) for i = 3]
 * (no neighbour to the right of mass 3), on the interval from
 * t = 0 to t = 10, from x = [0.1, -0.05, 0.2] at rest. This
 * program solves the problem with ERKStep's default 4th-order
 * explicit Runge-Kutta method and prints the displacements every
 * 1.0 time units. Run statistics are printed at the end.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in
 * audit through its C interface: the chain's
 * kinetic and potential energy, and the power of the dampers and
 * of the drive, T, V and v^T f, are written independently of the
 * right-hand side, and the audit checks that C = T + V + Z (Z: the
 * energy the dampers took less the work of the drive) stays
 * constant along the computed solution. The program exits with 1
 * when it does not. Compiled with -DWRONG_SIGN, the second damper's
 * force on mass 1 has the wrong sign, and the audit fails.
 *-----------------------------------------------------------------*/

/* Header files */
#include <math.h>
#include <stdio.h>

#include <arkode/arkode_erkstep.h>       /* ERKStepCreate, ERKStepEvolve, ... */
#include <nvector/nvector_serial.h>      /* serial N_Vector, NV_Ith_S         */
#include <sundials/sundials_config.h>    /* SUNDIALS_VERSION_MAJOR            */
#include <energy_audit/sundials/arkode_drop_in.h> /* energy audit */

/* Problem Constants */

#define NMASS  3                      /* number of masses                */
#define NEQ    (2*NMASS)              /* number of equations: x, v       */
#define RTOL   SUN_RCONST(1.0e-8)     /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-10)    /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define TF     SUN_RCONST(10.0)       /* final time                      */
#define DTOUT  SUN_RCONST(1.0)        /* output time step                */
#define HALF   SUN_RCONST(0.5)

/* SUNContext_Create's communicator: none (SUNDIALS 7 names it) */

#if SUNDIALS_VERSION_MAJOR >= 7
#define NO_COMM SUN_COMM_NULL
#else
#define NO_COMM NULL
#endif

/* Sign of the second damper's force on mass 1 (plus); -DWRONG_SIGN
   flips it to make the wrong twin. */

#ifdef WRONG_SIGN
#define DAMPER_SIGN SUN_RCONST(-1.0)
#else
#define DAMPER_SIGN SUN_RCONST(1.0)
#endif

/* The chain's parameters, passed to f as user data */

typedef struct {
  sunrealtype m[NMASS];  /* masses [kg]                              */
  sunrealtype k[NMASS];  /* spring k_i to the left of mass i [N/m]   */
  sunrealtype c[NMASS];  /* damper c_i to the left of mass i [N s/m] */
  sunrealtype F0;        /* drive amplitude on mass 3 [N]            */
  sunrealtype w;         /* drive frequency [rad/s]                  */
} UserData;

/* User-supplied Functions Called by the Solver */
static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Private function to check function return values */
static int check_flag(void *flagvalue, const char *funcname, int opt);
/* energy audit: the chain's T and V, and P = v^T f, the power of the dampers and the drive;
   q = [x1, x2, x3], v = [v1, v2, v3] */
static double T(const double *q, const double *v, double t, void *ud) {                 /* energy audit */
  UserData *d = (UserData *)ud; double sum = 0; int i; (void)q; (void)t;                /* energy audit */
  for (i = 0; i < NMASS; i++) sum += HALF*d->m[i]*v[i]*v[i];                            /* energy audit */
  return sum; }                                                                         /* energy audit */
static double V(const double *q, double t, void *ud) {                                  /* energy audit */
  UserData *d = (UserData *)ud; double sum = 0; int i; (void)t;                         /* energy audit */
  for (i = 0; i < NMASS; i++) {                                                         /* energy audit */
    double stretch = q[i] - (i > 0 ? q[i-1] : 0.0);                                     /* energy audit */
    sum += HALF*d->k[i]*stretch*stretch; }                                              /* energy audit */
  return sum; }                                                                         /* energy audit */
static double P(const double *q, const double *v, double t, void *ud) {                 /* energy audit */
  UserData *d = (UserData *)ud; double sum = d->F0*cos(d->w*t)*v[NMASS-1]; int i; (void)q; /* energy audit */
  for (i = 0; i < NMASS; i++) {                                                         /* energy audit */
    double rate = v[i] - (i > 0 ? v[i-1] : 0.0);                                        /* energy audit */
    sum -= d->c[i]*rate*rate; }                                                         /* energy audit */
  return sum; }                                                                         /* energy audit */

/* Main Program */
int main(void)
{
  SUNContext ctx;                 /* SUNDIALS context */
  UserData data = {{SUN_RCONST(1.0), SUN_RCONST(2.0), SUN_RCONST(1.5)},
                   {SUN_RCONST(40.0), SUN_RCONST(30.0), SUN_RCONST(20.0)},
                   {SUN_RCONST(0.4), SUN_RCONST(0.3), SUN_RCONST(0.5)},
                   SUN_RCONST(2.0), SUN_RCONST(3.0)};
  int flag;                       /* reusable error-checking flag */
  N_Vector y = NULL;              /* empty vector for storing solution */
  void *arkode_mem = NULL;        /* empty ARKode memory structure */
  sunrealtype t, tout;
  long int nst, nst_a, nfe, netf;
  int passed; /* energy audit */

  /* Create the SUNDIALS context object for this simulation */
  flag = SUNContext_Create(NO_COMM, &ctx);
  if (check_flag(&flag, "SUNContext_Create", 1)) return 1;

  /* Initial problem output */
  printf("\nDamped, driven chain of %d masses (ERKStep):\n", NMASS);
  printf("   reltol = %.1e\n", RTOL);
  printf("   abstol = %.1e\n\n", ATOL);

  /* Initialize data structures: displaced, at rest */
  y = N_VNew_Serial(NEQ, ctx);
  if (check_flag((void *)y, "N_VNew_Serial", 0)) return 1;
  N_VConst(SUN_RCONST(0.0), y);
  NV_Ith_S(y,0) = SUN_RCONST(0.1);
  NV_Ith_S(y,1) = SUN_RCONST(-0.05);
  NV_Ith_S(y,2) = SUN_RCONST(0.2);

  /* Call ERKStepCreate to initialize the ERK timestepper module and
     specify the right-hand side function in y'=f(t,y), the initial time
     T0, and the initial dependent variable vector y. */
  arkode_mem = ERKStepCreate(f, T0, y, ctx);
  if (check_flag((void *)arkode_mem, "ERKStepCreate", 0)) return 1;

  /* Set routines */
  flag = ERKStepSetUserData(arkode_mem, (void *) &data);
  if (check_flag(&flag, "ERKStepSetUserData", 1)) return 1;
  flag = ERKStepSStolerances(arkode_mem, RTOL, ATOL);
  if (check_flag(&flag, "ERKStepSStolerances", 1)) return 1;

  /* Main time-stepping loop: calls ERKStepEvolve to perform the integration, then
     prints results.  Stops when the final time has been reached */
  t = T0;
  tout = T0+DTOUT;
  EaArkodeAudit *audit = ea_arkode_audit_create(NMASS, T, V, P, &data, 1.0e-3); /* energy audit */
  printf("        t           x1           x2           x3\n");
  printf("   ---------------------------------------------------\n");
  while (TF - t > 1.0e-15) {
    flag = ea_arkode_audit_erkstep_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL); /* energy audit */
    if (check_flag(&flag, "ERKStepEvolve", 1)) break;
    printf("  %10.6f  %11.6f  %11.6f  %11.6f\n", t, NV_Ith_S(y,0), NV_Ith_S(y,1), NV_Ith_S(y,2));
    tout += DTOUT;
    tout = (tout > TF) ? TF : tout;
  }
  printf("   ---------------------------------------------------\n");

  /* Get/print some final statistics on how the solve progressed */
  flag = ERKStepGetNumSteps(arkode_mem, &nst);
  check_flag(&flag, "ERKStepGetNumSteps", 1);
  flag = ERKStepGetNumStepAttempts(arkode_mem, &nst_a);
  check_flag(&flag, "ERKStepGetNumStepAttempts", 1);
  flag = ERKStepGetNumRhsEvals(arkode_mem, &nfe);
  check_flag(&flag, "ERKStepGetNumRhsEvals", 1);
  flag = ERKStepGetNumErrTestFails(arkode_mem, &netf);
  check_flag(&flag, "ERKStepGetNumErrTestFails", 1);

  printf("\nFinal Solver Statistics:\n");
  printf("   Internal solver steps = %li (attempted = %li)\n", nst, nst_a);
  printf("   Total RHS evals = %li\n", nfe);
  printf("   Total number of error test failures = %li\n\n", netf);
  ea_arkode_audit_print_summary(audit, stdout); /* energy audit */
  passed = ea_arkode_audit_passed(audit); /* energy audit */
  ea_arkode_audit_free(audit); /* energy audit */

  /* Clean up and return */
  N_VDestroy(y);            /* Free y vector */
  ERKStepFree(&arkode_mem); /* Free integrator memory */
  SUNContext_Free(&ctx);    /* Free context */

  return passed ? 0 : 1; /* energy audit */
}

/*-------------------------------
 * Functions called by the solver
 *-------------------------------*/

/* f routine to compute the ODE RHS function f(t,y): the positions'
   rates are the velocities, the accelerations those of the chain. */
static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  UserData *d = (UserData *) user_data;
  sunrealtype *x = N_VGetArrayPointer(y), *v = x + NMASS;
  sunrealtype *dx = N_VGetArrayPointer(ydot), *dv = dx + NMASS;
  sunrealtype force[NMASS];
  int i;

  for (i = 0; i < NMASS; i++) {
    /* spring and damper i, between mass i-1 (the wall for i = 0) and mass i */
    sunrealtype stretch = x[i] - (i > 0 ? x[i-1] : SUN_RCONST(0.0));
    sunrealtype rate = v[i] - (i > 0 ? v[i-1] : SUN_RCONST(0.0));
    force[i] = -d->k[i]*stretch - d->c[i]*rate;
  }
  for (i = 0; i < NMASS; i++) {
    sunrealtype f_i = force[i];
    if (i+1 < NMASS) {  /* the right neighbour's spring and damper pull back */
      sunrealtype stretch = x[i+1] - x[i], rate = v[i+1] - v[i];
      f_i += d->k[i+1]*stretch + (i == 0 ? DAMPER_SIGN : SUN_RCONST(1.0))*d->c[i+1]*rate;
    }
    if (i == NMASS-1) f_i += d->F0*cos(d->w*t);
    dx[i] = v[i];
    dv[i] = f_i/d->m[i];
  }

  return 0;
}

/* Check function return value...
    opt == 0 means SUNDIALS function allocates memory so check if
             returned NULL pointer
    opt == 1 means SUNDIALS function returns a flag so check if
             flag >= 0 */
static int check_flag(void *flagvalue, const char *funcname, int opt)
{
  int *errflag;

  /* Check if SUNDIALS function returned NULL pointer - no memory allocated */
  if (opt == 0 && flagvalue == NULL) {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed - returned NULL pointer\n\n", funcname);
    return 1; }

  /* Check if flag < 0 */
  else if (opt == 1) {
    errflag = (int *) flagvalue;
    if (*errflag < 0) {
      fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed with flag = %d\n\n", funcname, *errflag);
      return 1; }}

  return 0;
}
