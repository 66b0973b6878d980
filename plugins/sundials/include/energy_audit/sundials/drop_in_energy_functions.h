/* What the C interfaces of the drop-in audits (cvode_drop_in.h, ida_drop_in.h) share: the
 * energy functions a C program gives, with its own user_data pointer, the energies the audit
 * reports, and the return codes besides the solvers' own flags. C99.
 *
 * Every name here starts with ea_, Ea or EA_, none that SUNDIALS' examples #define. */
#ifndef ENERGY_AUDIT_SUNDIALS_DROP_IN_ENERGY_FUNCTIONS_H
#define ENERGY_AUDIT_SUNDIALS_DROP_IN_ENERGY_FUNCTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Each callback type is named for what the function returns; types with the same arguments are
 * the same pointer type, so a function may be given where any of them is asked. q and v point to
 * the n coordinates and n velocities (y = [q, v, ...]); user_data is the pointer given when the
 * audit was created. */

/* The kinetic energy T(q, v, t) [J]. */
typedef double (*EaKineticEnergyFn)(const double *q, const double *v, double t, void *user_data);
/* A power [W] at (q, v, t): v^T f of the non-potential forces or of one named term of them, or
 * dT/dt at fixed q and v (the kinetic energy's explicit rate, a rheonomic model's). */
typedef double (*EaPowerFn)(const double *q, const double *v, double t, void *user_data);
/* The potential energy V(q, t) [J]. */
typedef double (*EaPotentialEnergyFn)(const double *q, double t, void *user_data);
/* dV/dt at fixed q [W]: the potential energy's explicit rate (a rheonomic model's). */
typedef double (*EaPotentialRateFn)(const double *q, double t, void *user_data);
/* v^T G^T lambda, the power of the constraint forces [W] (IDA programs: lambda = y + 2n). */
typedef double (*EaConstraintPowerFn)(const double *q, const double *v, const double *multipliers, double t,
                                      void *user_data);

/* Hamilton's form (q and p the n coordinates and n momenta, drop_in_hamiltonian.hpp): H(q, p, t)
 * [J], or its explicit rate dH/dt at fixed q and p [W]. */
typedef double (*EaHamiltonianFn)(const double *q, const double *p, double t, void *user_data);
/* Hamilton's form: writes the n non-potential generalized forces Q(q, p, t) to `forces`
 * (p' = -dH/dq + Q). */
typedef void (*EaGeneralizedForcesFn)(const double *q, const double *p, double t, double *forces, void *user_data);
/* The whole-state form (drop_in_state_energy.hpp): E(y, t) [J], its explicit rate dE/dt at fixed
 * y [W], or the power P(y, t) into E of everything E does not hold [W], over the solver's state y. */
typedef double (*EaStateEnergyFn)(const double *y, double t, void *user_data);

/* For a state spread over MPI ranks: sums `count` values in place across the ranks (drop_in_mpi.h's
 * ea_sum_over_ranks, with a pointer to the MPI_Comm as context). */
typedef void (*EaShareSumFn)(double *values, int count, void *context);

/* The energies at the last audited step [J]; t [s]. */
typedef struct {
  double t;
  double kinetic;     /* T */
  double potential;   /* V */
  double jacobi;      /* H = T2 - T0 + V */
  double energy_flow; /* Z since the first audited time */
  double control;     /* C = H + Z */
} EaAuditEnergies;

/* Return codes besides the solvers' own flags. */
#define EA_AUDIT_SUCCESS 0
#define EA_AUDIT_INVALID_ARGUMENT (-1001) /* a bad argument; the message says which */
#define EA_AUDIT_FAILED (-1002)           /* the audit could not audit a step; the message says why */

#ifdef __cplusplus
}
#endif

#endif /* ENERGY_AUDIT_SUNDIALS_DROP_IN_ENERGY_FUNCTIONS_H */
