/* -----------------------------------------------------------------
 * The damped oscillator of the C consumers (damped_oscillator_cvode.c,
 * damped_oscillator_ida.c): a mass m on a spring k with a damper c,
 *    m q'' + c q' + k q = 0,
 * from q = 1 at rest, over t = 0 to 10 s. Its parameters are the
 * user data that the solver's function and the energy functions
 * share; its closed form is the reference the programs check the
 * solution and the audit's work ledger against.
 * -----------------------------------------------------------------*/
#ifndef DAMPED_OSCILLATOR_H
#define DAMPED_OSCILLATOR_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sundials/sundials_types.h>
#include <energy_audit/sundials/drop_in_energy_functions.h>

/* Problem Constants */

#define Q0     SUN_RCONST(1.0)        /* initial position [m]            */
#define V0     SUN_RCONST(0.0)        /* initial velocity [m/s]          */
#define RTOL   SUN_RCONST(1.0e-8)     /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-10)    /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define DTOUT  SUN_RCONST(1.0)        /* output time step                */
#define NOUT   10                     /* number of output times          */
#define HALF   SUN_RCONST(0.5)

/* Bounds of the checks, with room over what RTOL gives: the solution
   at t = 10 s within 1e-6 of the closed form, delta_C of the damped
   run within 1e-6 (the audit's own threshold is 1e-3), the damper's
   work within 1e-6 of the initial energy of the closed form's energy
   loss. Left out of Z, the damper's work shows as a drift above 0.5:
   the oscillator loses 98 % of its energy by t = 10 s. */

#define SOLUTION_BOUND   1.0e-6
#define DRIFT_BOUND      1.0e-6
#define WORK_BOUND       1.0e-6
#define LEFT_OUT_DRIFT   0.5

/* The oscillator's parameters, passed to the solver as user data */

typedef struct {
  sunrealtype m;   /* mass [kg]             */
  sunrealtype c;   /* damper [N s/m]        */
  sunrealtype k;   /* spring [N/m]          */
} *UserData;

static void SetParameters(UserData d)
{
  d->m = SUN_RCONST(1.0);
  d->c = SUN_RCONST(0.4);
  d->k = SUN_RCONST(4.0);
}

/* energy audit: T, V and the damper's power v^T f; q = [q], v = [q'] */
static double T(const double *q, const double *v, double t, void *ud) { (void)q; (void)t; /* energy audit */
  return HALF*((UserData)ud)->m*v[0]*v[0]; }                                              /* energy audit */
static double V(const double *q, double t, void *ud) { (void)t;                            /* energy audit */
  return HALF*((UserData)ud)->k*q[0]*q[0]; }                                              /* energy audit */
static double P(const double *q, const double *v, double t, void *ud) { (void)q; (void)t; /* energy audit */
  return -((UserData)ud)->c*v[0]*v[0]; }                                                  /* energy audit */

/* The closed form: with gamma = c/(2m) and wd = sqrt(k/m - gamma^2),
   q(t) = exp(-gamma t) (cos(wd t) + gamma/wd sin(wd t)) and
   q'(t) = -exp(-gamma t) (wd + gamma^2/wd) sin(wd t) */

static void ExactState(UserData d, sunrealtype t, sunrealtype *q, sunrealtype *v)
{
  sunrealtype gamma = d->c/(2*d->m);
  sunrealtype wd = sqrt(d->k/d->m - gamma*gamma);
  *q = exp(-gamma*t)*(cos(wd*t) + gamma/wd*sin(wd*t));
  *v = -exp(-gamma*t)*(wd + gamma*gamma/wd)*sin(wd*t);
}

/* T + V of the closed form at t */

static sunrealtype ExactEnergy(UserData d, sunrealtype t)
{
  sunrealtype q, v;
  ExactState(d, t, &q, &v);
  return HALF*d->m*v*v + HALF*d->k*q*q;
}

/* What a run reports: the state at the last output time t, and the
   audit's delta_C, verdict, steps, and the damper's work (named
   power) up to its last audited step, at audited_t (the solver's
   last internal step, which may lie beyond t) */

typedef struct {
  sunrealtype t, q, v;
  double audited_t;
  double drift;
  char verdict[16];
  double damper_work;
  long steps;
} RunResult;

/* Prints a check and returns 1 when it failed */

static int Check(int ok, const char *what)
{
  printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  return ok ? 0 : 1;
}

/* The checks of the two runs against the closed form and the bounds;
   the number of failed checks */

static int CheckRuns(UserData d, const RunResult *audited, const RunResult *damper_left_out)
{
  sunrealtype q, v;
  int failures = 0;
  double e0 = ExactEnergy(d, T0);
  double loss = ExactEnergy(d, audited->audited_t) - e0;

  ExactState(d, audited->t, &q, &v);
  printf("t = %g: q = %.9f (closed form %.9f), delta_C = %.3e (%s, %ld steps), "
         "W_damper = %.9f J to t = %g (closed form %.9f J)\n", (double)audited->t, (double)audited->q, (double)q,
         audited->drift, audited->verdict, audited->steps, audited->damper_work, audited->audited_t, loss);
  printf("without the damper's power: delta_C = %.3e (%s)\n", damper_left_out->drift, damper_left_out->verdict);
  failures += Check(fabs(audited->q - q) <= SOLUTION_BOUND && fabs(audited->v - v) <= SOLUTION_BOUND,
                    "the solution is the closed form's");
  failures += Check(audited->steps > 0 && strcmp(audited->verdict, "pass") == 0 && audited->drift <= DRIFT_BOUND,
                    "the audit of the damped oscillator passes, delta_C within its bound");
  failures += Check(fabs(audited->damper_work - loss) <= WORK_BOUND*e0,
                    "the damper's work is the closed form's energy loss");
  failures += Check(strcmp(damper_left_out->verdict, "fail") == 0 && damper_left_out->drift > LEFT_OUT_DRIFT,
                    "without the damper's power the audit fails");
  return failures;
}

#endif
