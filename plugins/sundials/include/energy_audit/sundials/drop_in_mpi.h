/* The C drop-in audits (cvode_drop_in.h, ida_drop_in.h) for a program whose state is spread over
 * MPI ranks on SUNDIALS' parallel vector (N_VNew_Parallel):
 *
 *     MPI_Comm comm = MPI_COMM_WORLD;
 *     ea_cvode_audit_set_share_sum(audit, ea_sum_over_ranks, &comm);
 *
 * (comm must live as long as the audit) and each rank's energy functions give its share of T, V
 * and the powers. Every rank calls ea_cvode_audit (ea_ida_audit) in step, as it calls the solver:
 * the sums are collective, and the other ranks wait for a rank that stops auditing. Header-only: the
 * plugin libraries do not depend on MPI; the program that includes this header links it. C99. */
#ifndef ENERGY_AUDIT_SUNDIALS_DROP_IN_MPI_H
#define ENERGY_AUDIT_SUNDIALS_DROP_IN_MPI_H

#include <mpi.h>

/* Sums `count` doubles in place across the ranks of *(MPI_Comm *)communicator (MPI_Allreduce). */
static inline void ea_sum_over_ranks(double *values, int count, void *communicator) {
  MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, *(MPI_Comm *)communicator);
}

#endif
