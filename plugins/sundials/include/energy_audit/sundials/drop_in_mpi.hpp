#pragma once
/// \file
/// The drop-in audits (cvode_drop_in.hpp, ida_drop_in.hpp) for a program whose state is spread
/// over MPI ranks on SUNDIALS' parallel vector (N_VNew_Parallel): give the energies
/// `sum_shares = sum_over_ranks(communicator)`, and each rank's functions its own share of T, V
/// and the powers over the coordinates and velocities it holds. Header-only: the plugin
/// libraries do not depend on MPI; the program that includes this header links it.

#include <mpi.h>

#include <functional>

namespace energy_audit::sun {

/// Sums `count` doubles in place across the ranks of `communicator` (MPI_Allreduce, MPI_SUM):
/// every rank gets the same sums. Every rank must call the audit's solve in step, as it calls
/// the solver's.
inline std::function<void(double* values, int count)> sum_over_ranks(MPI_Comm communicator) {
  return [communicator](double* values, int count) {
    MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_DOUBLE, MPI_SUM, communicator);
  };
}

}  // namespace energy_audit::sun
