/* -----------------------------------------------------------------
 * A chain of n damped masses and springs, spread over MPI ranks on
 * SUNDIALS' parallel vector, in the style of SUNDIALS' parallel C
 * examples. Mass i (i = 0..n-1, m_i = 1 + (i mod 4)/4) sits at
 * displacement x_i, is tied to the ground by a spring k0 and a
 * damper c0, and to each neighbour by a spring kappa and a damper c
 * side by side (free ends):
 *    m_i x_i'' = -k0 x_i - c0 x_i'
 *                - sum over the neighbours j of
 *                  [kappa (x_i - x_j) + c (x_i' - x_j')]
 * y = [x, v] with 2n states in all; each rank holds a contiguous
 * block of masses, its y is [its x, its v], and the right-hand side
 * trades the block's end displacements and velocities with the
 * neighbouring ranks. The neighbours' dampers make the short waves
 * decay fast: the problem is stiff. Initial conditions
 * x_i = sin(2 pi i/1000) + 0.01 sin(2 pi i/7), v_i = 0. The program
 * solves the problem with the BDF method, Newton iteration with the
 * matrix-free GMRES linear solver (SPGMR, no preconditioner,
 * difference-quotient Jacobian-vector products) on vectors with
 * SUNDIALS' fused operations enabled, prints the largest
 * |x_i| and x_0 at 10 output times, and the solver's counters at
 * the end.
 *
 *    chain_cvode_mpi [--states N] [--t-end T] [--no-audit]
 *                    [--flow-on-interpolant] [--report]
 *
 * --states: the number of states 2n (even, default 1000000);
 * --t-end: the final time (default 1); --report: the time of the
 * integration loop (the slowest rank's) and each rank's peak
 * resident memory on stderr.
 *
 * The lines marked "energy audit" attach EnergyAudit's drop-in audit
 * through its C interface: each rank gives its share of the chain's
 * kinetic and potential energy and of the dampers' power, the audit
 * sums the shares across the ranks (drop_in_mpi.h) and checks that
 * C = T + V + Z stays constant along the computed solution; the
 * program exits with 1 when it does not. T is declared quadratic in
 * the velocities (evaluated once per step), and CVODES integrates
 * the dampers' power as a quadrature (once per step), where
 * --flow-on-interpolant has the audit integrate it by Gauss-Legendre
 * on CVODE's interpolant (four interpolations of the state a step). With --no-audit the program
 * calls CVode itself: the same steps and, on stdout, the same output
 * save the audit's lines. Compiled with -DWRONG_SIGN, the ground
 * dampers' force has the wrong sign (they feed the motion instead
 * of resisting it), and the audit fails.
 * -----------------------------------------------------------------*/

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <mpi.h>

#include <cvodes/cvodes.h>               /* CVode, CVodeInit, CV_BDF, ... */
#include <nvector/nvector_parallel.h>    /* N_VNew_Parallel, NV_DATA_P     */
#include <sundials/sundials_config.h>    /* SUNDIALS_VERSION_MAJOR         */
#include <sunlinsol/sunlinsol_spgmr.h>   /* SUNLinSol_SPGMR                */
#include <energy_audit/sundials/cvode_drop_in.h> /* energy audit */
#include <energy_audit/sundials/drop_in_mpi.h>   /* energy audit */

/* Problem Constants */

#define STATES 1000000                /* default number of states 2n     */
#define TEND   SUN_RCONST(1.0)        /* default final time              */
#define K0     SUN_RCONST(1.0)        /* springs to the ground [N/m]     */
#define KAPPA  SUN_RCONST(1.0e4)      /* springs between neighbours      */
#define CBOND  SUN_RCONST(100.0)      /* dampers between neighbours c    */
#define CDAMP  SUN_RCONST(0.1)        /* dampers to the ground c0 [N s/m] */
#define RTOL   SUN_RCONST(1.0e-6)     /* scalar relative tolerance       */
#define ATOL   SUN_RCONST(1.0e-8)     /* scalar absolute tolerance       */
#define T0     SUN_RCONST(0.0)        /* initial time                    */
#define NOUT   10                     /* number of output times          */
#define MXSTEP 100000                 /* max. steps between outputs      */

#define ZERO   SUN_RCONST(0.0)
#define HALF   SUN_RCONST(0.5)
#define PI     SUN_RCONST(3.141592653589793)

/* Sign of the ground dampers' force -c0 x_i' (minus: they resist
   the motion); -DWRONG_SIGN flips it to make the wrong twin. */

#ifdef WRONG_SIGN
#define DAMPER_SIGN SUN_RCONST(1.0)
#else
#define DAMPER_SIGN SUN_RCONST(-1.0)
#endif

/* This rank's block of the chain, passed to f as user data */

typedef struct {
  MPI_Comm comm;
  int my_pe, npes;
  long long n;       /* masses in all                   */
  long long first;   /* global index of the first mass  */
  sunindextype local; /* masses on this rank            */
} *UserData;

/* Mass i of the chain */

static sunrealtype mass(long long i) { return SUN_RCONST(1.0) + SUN_RCONST(0.25) * (sunrealtype)(i & 3); }

/* Functions called by CVODE, and the exchange with the neighbours */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
static void ExchangeEnds(const sunrealtype *x, UserData d, sunrealtype *left, sunrealtype *right);

/* Set-up, output and error checks */

static int ParseArguments(int argc, char *argv[], long long *states, sunrealtype *tend, int *audited, int *report,
                          int *on_interpolant);
static void SetInitialState(N_Vector y, UserData d);
static void PrintOutput(sunrealtype t, N_Vector y, UserData d);
static void PrintFinalStats(void *cvode_mem);
static void Report(double seconds, UserData d);
static int check_retval(void *returnvalue, const char *funcname, int opt, int id);

/* energy audit: this rank's share of T and V and of P = v^T f, the dampers' power; q = its x, v = its v */
static double T(const double *q, const double *v, double t, void *ud) { UserData d = (UserData)ud;  /* energy audit */
  double sum = 0; sunindextype j; (void)q; (void)t;                                                   /* energy audit */
  for (j = 0; j < d->local; j++) sum += HALF*mass(d->first+j)*v[j]*v[j];                              /* energy audit */
  return sum; }                                                                                       /* energy audit */
static double V(const double *q, double t, void *ud) { UserData d = (UserData)ud;                     /* energy audit */
  double left, right, sum = 0; sunindextype j; (void)t;                                               /* energy audit */
  ExchangeEnds(q, d, &left, &right); (void)left;                       /* energy audit: x of the next block */
  for (j = 0; j < d->local; j++) sum += HALF*K0*q[j]*q[j];                                            /* energy audit */
  for (j = 0; j + 1 < d->local; j++) sum += HALF*KAPPA*(q[j+1]-q[j])*(q[j+1]-q[j]);                   /* energy audit */
  if (d->first + d->local < d->n) sum += HALF*KAPPA*(right-q[d->local-1])*(right-q[d->local-1]);      /* energy audit */
  return sum; }                                                                                       /* energy audit */
static double P(const double *q, const double *v, double t, void *ud) { UserData d = (UserData)ud;    /* energy audit */
  double left, right, sum = 0; sunindextype j; (void)q; (void)t;                                      /* energy audit */
  ExchangeEnds(v, d, &left, &right); (void)left;                       /* energy audit: v of the next block */
  for (j = 0; j < d->local; j++) sum -= CDAMP*v[j]*v[j];                                              /* energy audit */
  for (j = 0; j + 1 < d->local; j++) sum -= CBOND*(v[j+1]-v[j])*(v[j+1]-v[j]);                   /* energy audit */
  if (d->first + d->local < d->n) sum -= CBOND*(right-v[d->local-1])*(right-v[d->local-1]);      /* energy audit */
  return sum; }                                                                                       /* energy audit */

/* ---------------------------------------------------------------
 * Main program
 * --------------------------------------------------------------- */

int main(int argc, char *argv[])
{
  SUNContext sunctx;
  sunrealtype t, tout, tend;
  N_Vector y;
  SUNLinearSolver LS;
  void *cvode_mem;
  int retval, iout, audited, report, on_interpolant, passed;
  long long states;
  double started;
  UserData data;
  MPI_Comm comm;

  y = NULL;
  LS = NULL;
  cvode_mem = NULL;
  passed = 1;

  MPI_Init(&argc, &argv);
  comm = MPI_COMM_WORLD;

  data = (UserData) malloc(sizeof *data);
  if (check_retval((void *)data, "malloc", 2, 0)) MPI_Abort(comm, 1);
  data->comm = comm;
  MPI_Comm_size(comm, &data->npes);
  MPI_Comm_rank(comm, &data->my_pe);

  retval = ParseArguments(argc, argv, &states, &tend, &audited, &report, &on_interpolant);
  if (retval == 0 && states / 2 < data->npes) {
    if (data->my_pe == 0)
      fprintf(stderr, "chain_cvode_mpi: --states %lld gives fewer masses than the %d ranks\n", states, data->npes);
    retval = 2;
  }
  if (retval != 0) {
    free(data);
    MPI_Finalize();
    return(2);
  }

  /* This rank's block of masses */
  data->n = states / 2;
  data->first = data->my_pe * data->n / data->npes;
  data->local = (sunindextype)((data->my_pe + 1) * data->n / data->npes - data->first);

#if SUNDIALS_VERSION_MAJOR >= 7
  retval = SUNContext_Create(comm, &sunctx);
#else
  retval = SUNContext_Create(&comm, &sunctx);
#endif
  if (check_retval(&retval, "SUNContext_Create", 1, data->my_pe)) MPI_Abort(comm, 1);

  /* State vector: this rank's [x, v] of the 2n states */
  y = N_VNew_Parallel(comm, 2 * data->local, (sunindextype)(2 * data->n), sunctx);
  if (check_retval((void *)y, "N_VNew_Parallel", 0, data->my_pe)) MPI_Abort(comm, 1);
  SetInitialState(y, data);

  /* Fused vector operations: one pass over the data for a linear
     combination of several vectors (interpolation, GMRES) */
  retval = N_VEnableFusedOps_Parallel(y, SUNTRUE);
  if (check_retval(&retval, "N_VEnableFusedOps_Parallel", 1, data->my_pe)) MPI_Abort(comm, 1);

  /* BDF solver for y' = f(t, y) from y(T0), with scalar tolerances */
  cvode_mem = CVodeCreate(CV_BDF, sunctx);
  if (check_retval((void *)cvode_mem, "CVodeCreate", 0, data->my_pe)) MPI_Abort(comm, 1);

  retval = CVodeInit(cvode_mem, f, T0, y);
  if (check_retval(&retval, "CVodeInit", 1, data->my_pe)) MPI_Abort(comm, 1);

  retval = CVodeSetUserData(cvode_mem, data);
  if (check_retval(&retval, "CVodeSetUserData", 1, data->my_pe)) MPI_Abort(comm, 1);

  retval = CVodeSStolerances(cvode_mem, RTOL, ATOL);
  if (check_retval(&retval, "CVodeSStolerances", 1, data->my_pe)) MPI_Abort(comm, 1);

  retval = CVodeSetMaxNumSteps(cvode_mem, MXSTEP);
  if (check_retval(&retval, "CVodeSetMaxNumSteps", 1, data->my_pe)) MPI_Abort(comm, 1);

  /* Newton iteration with the matrix-free GMRES, no preconditioner */
  LS = SUNLinSol_SPGMR(y, SUN_PREC_NONE, 0, sunctx);
  if (check_retval((void *)LS, "SUNLinSol_SPGMR", 0, data->my_pe)) MPI_Abort(comm, 1);

  retval = CVodeSetLinearSolver(cvode_mem, LS, NULL);
  if (check_retval(&retval, "CVodeSetLinearSolver", 1, data->my_pe)) MPI_Abort(comm, 1);

  if (data->my_pe == 0) {
    printf("\nChain of %lld damped masses and springs, %lld states on %d rank(s)\n\n",
           data->n, 2 * data->n, data->npes);
  }

  EaCvodeAudit *audit = audited ? ea_cvode_audit_create((int)data->local, T, V, P, data, 1.0e-3) : NULL; /* energy audit */
  if (audit != NULL) ea_cvode_audit_set_share_sum(audit, ea_sum_over_ranks, &data->comm);                /* energy audit */
  if (audit != NULL) ea_cvode_audit_declare_quadratic_kinetic_energy(audit);                             /* energy audit */
  if (audit != NULL && !on_interpolant) ea_cvode_audit_integrate_flow_as_quadrature(audit);               /* energy audit */

  /* Integrate to each of the NOUT output times and print there; stop early if CVode fails */
  started = MPI_Wtime();
  for (iout = 1; iout <= NOUT; iout++) {
    tout = tend * iout / NOUT;
    retval = audit != NULL ? ea_cvode_audit(audit, cvode_mem, tout, y, &t, CV_NORMAL) /* energy audit */
                           : CVode(cvode_mem, tout, y, &t, CV_NORMAL);
    if (check_retval(&retval, "CVode", 1, data->my_pe)) break;
    PrintOutput(t, y, data);
  }
  if (report) Report(MPI_Wtime() - started, data);

  /* Solver statistics */
  if (data->my_pe == 0) PrintFinalStats(cvode_mem);
  if (audit != NULL && data->my_pe == 0) {                                            /* energy audit */
    ea_cvode_audit_print_summary(audit, stdout);                                      /* energy audit */
    printf("energy audit: delta_C to the last digit = %.17e\n", ea_cvode_audit_relative_drift(audit)); } /* energy audit */
  if (audit != NULL) passed = ea_cvode_audit_passed(audit);                           /* energy audit */
  ea_cvode_audit_free(audit);                                                         /* energy audit */

  /* Release the solver, the linear solver, the vector, the user data and the context */
  CVodeFree(&cvode_mem);
  SUNLinSolFree(LS);
  N_VDestroy(y);
  free(data);
  SUNContext_Free(&sunctx);
  MPI_Finalize();

  return(retval < 0 ? 1 : passed ? 0 : 1); /* energy audit: passed */
}

/* ---------------------------------------------------------------
 * Right-hand side: the displacements' rates are the velocities, the
 * accelerations those of the springs and dampers on each mass
 * --------------------------------------------------------------- */

static int f(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data)
{
  UserData d;
  sunrealtype *x, *v, *xdot, *vdot, left, right, vleft, vright, force;
  sunindextype j;
  long long i;

  (void)t;
  d = (UserData) user_data;
  x = NV_DATA_P(y);      v = x + d->local;
  xdot = NV_DATA_P(ydot); vdot = xdot + d->local;
  ExchangeEnds(x, d, &left, &right);
  ExchangeEnds(v, d, &vleft, &vright);

  for (j = 0; j < d->local; j++) {
    i = d->first + j;
    force = -K0*x[j] + DAMPER_SIGN*CDAMP*v[j];
    if (i > 0)        force -= KAPPA*(x[j] - (j > 0 ? x[j-1] : left)) + CBOND*(v[j] - (j > 0 ? v[j-1] : vleft));
    if (i + 1 < d->n) force -= KAPPA*(x[j] - (j + 1 < d->local ? x[j+1] : right)) + CBOND*(v[j] - (j + 1 < d->local ? v[j+1] : vright));
    xdot[j] = v[j];
    vdot[j] = force / mass(i);
  }

  return(0);
}

/* The displacement just left of this rank's block into *left and the
   one just right of it into *right (0 at the chain's ends) */

static void ExchangeEnds(const sunrealtype *x, UserData d, sunrealtype *left, sunrealtype *right)
{
  int left_pe, right_pe;
  sunrealtype first, last;

  left_pe  = d->my_pe > 0 ? d->my_pe - 1 : MPI_PROC_NULL;
  right_pe = d->my_pe + 1 < d->npes ? d->my_pe + 1 : MPI_PROC_NULL;
  first = x[0];
  last = x[d->local - 1];
  *left = ZERO;
  *right = ZERO;
  MPI_Sendrecv(&first, 1, MPI_DOUBLE, left_pe, 0, right, 1, MPI_DOUBLE, right_pe, 0, d->comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&last, 1, MPI_DOUBLE, right_pe, 1, left, 1, MPI_DOUBLE, left_pe, 1, d->comm, MPI_STATUS_IGNORE);
}

/* ---------------------------------------------------------------
 * Set-up, output and error checks
 * --------------------------------------------------------------- */

/* Reads the options; prints a one-line error on rank 0 and returns 2
   for a bad one */

static int ParseArguments(int argc, char *argv[], long long *states, sunrealtype *tend, int *audited, int *report,
                          int *on_interpolant)
{
  int k, my_pe;
  char *end;

  MPI_Comm_rank(MPI_COMM_WORLD, &my_pe);
  *states = STATES; *tend = TEND; *audited = 1; *report = 0; *on_interpolant = 0;
  for (k = 1; k < argc; k++) {
    if (strcmp(argv[k], "--no-audit") == 0) {
      *audited = 0;
    } else if (strcmp(argv[k], "--flow-on-interpolant") == 0) {
      *on_interpolant = 1;
    } else if (strcmp(argv[k], "--report") == 0) {
      *report = 1;
    } else if (strcmp(argv[k], "--states") == 0 && k + 1 < argc) {
      *states = strtoll(argv[++k], &end, 10);
      if (*end != '\0' || *states < 2 || *states % 2 != 0) {
        if (my_pe == 0) fprintf(stderr, "chain_cvode_mpi: --states %s is not an even number >= 2\n", argv[k]);
        return(2);
      }
    } else if (strcmp(argv[k], "--t-end") == 0 && k + 1 < argc) {
      *tend = strtod(argv[++k], &end);
      if (*end != '\0' || !(*tend > 0) || !isfinite(*tend)) {
        if (my_pe == 0) fprintf(stderr, "chain_cvode_mpi: --t-end %s is not a positive time\n", argv[k]);
        return(2);
      }
    } else {
      if (my_pe == 0) fprintf(stderr, "chain_cvode_mpi: unknown or incomplete option '%s' "
                              "(--states N, --t-end T, --no-audit, --flow-on-interpolant, --report)\n", argv[k]);
      return(2);
    }
  }
  return(0);
}

static void SetInitialState(N_Vector y, UserData d)
{
  sunrealtype *x, *v;
  sunindextype j;
  long long i;

  x = NV_DATA_P(y); v = x + d->local;
  for (j = 0; j < d->local; j++) {
    i = d->first + j;
    x[j] = sin(2*PI*(sunrealtype)(i % 1000)/1000) + SUN_RCONST(0.01)*sin(2*PI*(sunrealtype)(i % 7)/7);
    v[j] = ZERO;
  }
}

/* Prints the largest |x_i| over the ranks and x_0, to the last bit */

static void PrintOutput(sunrealtype t, N_Vector y, UserData d)
{
  sunrealtype *x, local_max, max;
  sunindextype j;

  x = NV_DATA_P(y);
  local_max = ZERO;
  for (j = 0; j < d->local; j++) if (fabs(x[j]) > local_max) local_max = fabs(x[j]);
  MPI_Reduce(&local_max, &max, 1, MPI_DOUBLE, MPI_MAX, 0, d->comm);
  if (d->my_pe == 0) printf("At t = %0.4e   max|x| = %.17e   x_0 = %.17e\n", (double)t, (double)max, (double)x[0]);
}

static void PrintFinalStats(void *cvode_mem)
{
  long int nst, nfe, nni, ncfn, nli, ncfl, netf, nfeLS;

  CVodeGetNumSteps(cvode_mem, &nst);
  CVodeGetNumRhsEvals(cvode_mem, &nfe);
  CVodeGetNumNonlinSolvIters(cvode_mem, &nni);
  CVodeGetNumNonlinSolvConvFails(cvode_mem, &ncfn);
  CVodeGetNumLinIters(cvode_mem, &nli);
  CVodeGetNumLinConvFails(cvode_mem, &ncfl);
  CVodeGetNumErrTestFails(cvode_mem, &netf);
  CVodeGetNumLinRhsEvals(cvode_mem, &nfeLS);

  printf("\nFinal Statistics:\n");
  printf("nst = %-6ld nfe  = %-6ld nni = %-6ld ncfn = %-6ld\n", nst, nfe, nni, ncfn);
  printf("nli = %-6ld ncfl = %-6ld netf = %-5ld nfeLS = %-6ld\n", nli, ncfl, netf, nfeLS);
}

/* On stderr: the integration loop's time on the slowest rank and each
   rank's peak resident memory (getrusage) */

static void Report(double seconds, UserData d)
{
  struct rusage usage;
  double slowest;
  long peak, *peaks;
  int k, used;
  char line[1024];

  getrusage(RUSAGE_SELF, &usage);
  peak = usage.ru_maxrss;
  peaks = (long *) malloc((size_t)d->npes * sizeof *peaks);
  MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, d->comm);
  MPI_Gather(&peak, 1, MPI_LONG, peaks, 1, MPI_LONG, 0, d->comm);
  if (d->my_pe == 0) {  /* one write: mpiexec forwards it whole */
    used = snprintf(line, sizeof line, "loop time %.6f s; peak RSS per rank [kB]:", slowest);
    for (k = 0; k < d->npes && used < (int)sizeof line - 24; k++)
      used += snprintf(line + used, sizeof line - (size_t)used, " %ld", peaks[k]);
    fprintf(stderr, "%s\n", line);
  }
  free(peaks);
}

/* Returns 1 after printing a message if a call failed:
 *   opt == 0: funcname returns a pointer, NULL on failure (SUNDIALS);
 *   opt == 1: funcname returns an int flag (returnvalue points to it),
 *             negative on failure;
 *   opt == 2: funcname allocated memory, NULL on failure. */
static int check_retval(void *returnvalue, const char *funcname, int opt, int id)
{
  if ((opt == 0 || opt == 2) && returnvalue == NULL) {
    fprintf(stderr, "\nERROR(%d): %s() returned NULL\n\n", id, funcname);
    return(1);
  }
  if (opt == 1 && *(int *)returnvalue < 0) {
    fprintf(stderr, "\nERROR(%d): %s() failed with flag %d\n\n", id, funcname, *(int *)returnvalue);
    return(1);
  }
  return(0);
}
