/* -----------------------------------------------------------------
 * Example problem (C, SUNDIALS 7):
 *
 * A damped oscillator written in Hamilton's variables (docs/drop-in.md,
 * Hamilton's variables): the Caldirola-Kanai Hamiltonian
 *    H(q, p, t) = exp(-g t) p^2 / (2 m) + exp(g t) k q^2 / 2
 * gives q' = dH/dp = exp(-g t) p / m and p' = -dH/dq = -exp(g t) k q,
 * which is m q'' + g m q' + k q = 0: an oscillator with a damper of
 * coefficient g m, and p = exp(g t) m q' is not the velocity. H
 * depends on t and is not conserved; the energy that leaves through
 * its dependence on t is int dH/dt dt. The state is
 *    y = [p, q],
 * from q = 1 at rest, on the interval from t = 0 to t = 10.
 *
 * This program solves the problem with SPRKStep's 4th-order
 * symplectic method (McLachlan) at the fixed step 0.001 (--dt H for
 * another), with f1 = p' and f2 = q', reaching each output time by
 * a stop time, and prints q, p and the oscillator's energy
 * m q'^2/2 + k q^2/2 every 1 time unit. Run statistics are printed
 * at the end. With --erk it solves the same problem with ERKStep's
 * explicit 4th-order method at the same fixed step (f = f1 + f2).
 * SPRKStep evaluates f1 and f2 at stage times that make an H which
 * depends on t converge at order 1 only (SUNDIALS 7.5), where
 * ERKStep's method converges at its order 4: the audit's delta_C
 * shows either.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in
 * audit through its C interface in Hamilton's form: H and its
 * explicit rate dH/dt, written from the physics, and the layout of
 * y (q at entry 1, p at entry 0). The audit checks that
 * C = H + Z with Z' = -dH/dt stays constant over every step ARKODE
 * takes; the program exits with 1 when it does not. Compiled with
 * -DWRONG_EXPONENT, q' has exp(+g t) in place of exp(-g t), and the
 * audit fails.
 *-----------------------------------------------------------------*/

/* Header files */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arkode/arkode_erkstep.h>     /* ERKStepCreate (--erk)             */
#include <arkode/arkode_sprkstep.h>    /* SPRKStepCreate, ARKodeEvolve, ... */
#include <nvector/nvector_serial.h>    /* serial N_Vector, NV_Ith_S         */
#include <energy_audit/sundials/arkode_drop_in.h> /* energy audit */

/* Problem Constants */

#define NEQ    2                      /* number of equations: p, q        */
#define MASS   SUN_RCONST(2.0)        /* m                                */
#define STIFF  SUN_RCONST(18.0)       /* k                                */
#define GAMMA  SUN_RCONST(0.2)        /* g, the damping rate              */
#define T0     SUN_RCONST(0.0)        /* initial time                     */
#define TF     SUN_RCONST(10.0)       /* final time                       */
#define DTOUT  SUN_RCONST(1.0)        /* output time step                 */
#define DT     SUN_RCONST(0.001)      /* default fixed time step          */
#define HALF   SUN_RCONST(0.5)

/* Sign of g t in the exponent of q' = exp(-g t) p / m;
   -DWRONG_EXPONENT flips it. */

#ifdef WRONG_EXPONENT
#define EXPONENT_SIGN SUN_RCONST(1.0)
#else
#define EXPONENT_SIGN SUN_RCONST(-1.0)
#endif

/* User-supplied Functions Called by the Solver */
static int momentum_rate(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
static int coordinate_rate(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
static int both_rates(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);

/* Private functions */
static int check_retval(void *returnvalue, const char *funcname, int opt);
/* energy audit: H(q, p, t) and dH/dt at fixed q and p */
static double H(const double *q, const double *p, double t, void *ud) { (void)ud;      /* energy audit */
  return exp(-GAMMA*t)*p[0]*p[0]/(2*MASS) + exp(GAMMA*t)*STIFF*q[0]*q[0]/2; }           /* energy audit */
static double H_t(const double *q, const double *p, double t, void *ud) { (void)ud;    /* energy audit */
  return GAMMA*(-exp(-GAMMA*t)*p[0]*p[0]/(2*MASS) + exp(GAMMA*t)*STIFF*q[0]*q[0]/2); } /* energy audit */

/* Main Program */
int main(int argc, char *argv[])
{
  SUNContext ctx = NULL;          /* SUNDIALS context */
  int retval;                     /* reusable error-checking flag */
  int i;
  int use_erk = 0;                /* ERKStep instead of SPRKStep */
  sunrealtype dt = DT;            /* fixed time step */
  N_Vector y = NULL;              /* empty vector for storing solution */
  void *arkode_mem = NULL;        /* empty ARKODE memory structure */
  sunrealtype t, tout, q, qdot;
  char *end;
  int passed; /* energy audit */

  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--dt") == 0 && i + 1 < argc) {
      dt = strtod(argv[++i], &end);
      if (*end != '\0' || !(dt > 0) || dt > DTOUT) {
        fprintf(stderr, "%s: --dt '%s': give a step in (0, %g]\n", argv[0], argv[i], DTOUT);
        return 2;
      }
    } else if (strcmp(argv[i], "--erk") == 0) {
      use_erk = 1;
    } else {
      fprintf(stderr, "%s: unknown argument '%s'; the options are --dt H and --erk\n", argv[0], argv[i]);
      return 2;
    }
  }

  /* Create the SUNDIALS context object for this simulation */
  retval = SUNContext_Create(SUN_COMM_NULL, &ctx);
  if (check_retval(&retval, "SUNContext_Create", 1)) return 1;

  /* Initial problem output */
  printf("\nCaldirola-Kanai oscillator, y = [p, q] (%s):\n", use_erk ? "ERKStep" : "SPRKStep");
  printf("   method = %s\n", use_erk ? "ERKStep's default of order 4" : "ARKODE_SPRK_MCLACHLAN_4_4");
  printf("   fixed step = %.2e\n\n", dt);

  /* Initialize data structures: q = 1 at rest */
  y = N_VNew_Serial(NEQ, ctx);
  if (check_retval((void *)y, "N_VNew_Serial", 0)) return 1;
  NV_Ith_S(y,0) = SUN_RCONST(0.0);
  NV_Ith_S(y,1) = SUN_RCONST(1.0);

  if (use_erk) {
    /* Call ERKStepCreate to initialize the ERK timestepper module and
       specify the whole right-hand side f = f1 + f2. */
    arkode_mem = ERKStepCreate(both_rates, T0, y, ctx);
    if (check_retval((void *)arkode_mem, "ERKStepCreate", 0)) return 1;
  } else {
    /* Call SPRKStepCreate to initialize the SPRK timestepper module and
       specify f1 (p') and f2 (q'), the initial time T0, and the initial
       dependent variable vector y. */
    arkode_mem = SPRKStepCreate(momentum_rate, coordinate_rate, T0, y, ctx);
    if (check_retval((void *)arkode_mem, "SPRKStepCreate", 0)) return 1;
    retval = SPRKStepSetMethodName(arkode_mem, "ARKODE_SPRK_MCLACHLAN_4_4");
    if (check_retval(&retval, "SPRKStepSetMethodName", 1)) return 1;
  }
  retval = ARKodeSetFixedStep(arkode_mem, dt);
  if (check_retval(&retval, "ARKodeSetFixedStep", 1)) return 1;
  retval = ARKodeSetMaxNumSteps(arkode_mem, ((long int)ceil(TF/dt)) + 1);
  if (check_retval(&retval, "ARKodeSetMaxNumSteps", 1)) return 1;

  /* Main time-stepping loop: calls ARKodeEvolve to perform the integration, then
     prints results.  Stops when the final time has been reached */
  t = T0;
  tout = T0+DTOUT;
  EaArkodeAudit *audit = ea_arkode_audit_create_hamiltonian(1, H, H_t, NULL, NULL, 1.0e-3); /* energy audit */
  ea_arkode_audit_set_layout(audit, NEQ, 1, 0, 1); /* energy audit: q at entry 1, p at entry 0 */
  printf("      t             q                       p                       energy\n");
  printf("   -------------------------------------------------------------------------------\n");
  while (TF - t > 1.0e-15) {
    retval = ARKodeSetStopTime(arkode_mem, tout);
    if (check_retval(&retval, "ARKodeSetStopTime", 1)) break;
    retval = ea_arkode_audit_evolve(audit, arkode_mem, tout, y, &t, ARK_NORMAL); /* energy audit */
    if (check_retval(&retval, "ARKodeEvolve", 1)) break;
    q = NV_Ith_S(y,1);
    qdot = exp(-GAMMA*t)*NV_Ith_S(y,0)/MASS;
    printf("  %7.3f  % .16e  % .16e  % .16e\n", t, q, NV_Ith_S(y,0), HALF*MASS*qdot*qdot + HALF*STIFF*q*q);
    tout += DTOUT;
    tout = (tout > TF) ? TF : tout;
  }
  printf("   -------------------------------------------------------------------------------\n");

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

/* f1 routine: p' = -dH/dq = -exp(g t) k q;
   SPRKStep has set the other entry of ydot to zero. */
static int momentum_rate(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  (void)user_data;

  dydt[0] = -exp(GAMMA*t)*STIFF*yd[1];

  return 0;
}

/* f2 routine: q' = dH/dp = exp(-g t) p / m;
   SPRKStep has set the other entry of ydot to zero. */
static int coordinate_rate(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  (void)user_data;

  dydt[1] = exp(EXPONENT_SIGN*GAMMA*t)*yd[0]/MASS;

  return 0;
}

/* The whole right-hand side for ERKStep (--erk): f = f1 + f2. */
static int both_rates(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  sunrealtype *yd = N_VGetArrayPointer(y), *dydt = N_VGetArrayPointer(ydot);
  (void)user_data;

  dydt[0] = -exp(GAMMA*t)*STIFF*yd[1];
  dydt[1] = exp(EXPONENT_SIGN*GAMMA*t)*yd[0]/MASS;

  return 0;
}

/* Check function return value...
    opt == 0 means SUNDIALS function allocates memory so check if
             returned NULL pointer
    opt == 1 means SUNDIALS function returns a flag so check if
             flag >= 0 */
static int check_retval(void *returnvalue, const char *funcname, int opt)
{
  int *errvalue;

  /* Check if SUNDIALS function returned NULL pointer - no memory allocated */
  if (opt == 0 && returnvalue == NULL)
  {
    fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed - returned NULL pointer\n\n",
            funcname);
    return 1;
  }

  /* Check if flag < 0 */
  else if (opt == 1)
  {
    errvalue = (int *)returnvalue;
    if (*errvalue < 0)
    {
      fprintf(stderr, "\nSUNDIALS_ERROR: %s() failed with flag = %d\n\n",
              funcname, *errvalue);
      return 1;
    }
  }

  return 0;
}
