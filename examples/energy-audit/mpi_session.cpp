#include "mpi_session.hpp"

#include <cstdlib>
#include <initializer_list>

#ifdef EA_HAVE_MPI
#include <mpi.h>

#include <energy_audit/studies/mpi_ranks.hpp>
#endif

namespace energy_audit::cli {
namespace {

/// Whether a launcher started this process: OpenMPI's mpirun sets OMPI_COMM_WORLD_SIZE, PMIx
/// launchers (Slurm's srun, mpirun) PMIX_RANK, PMI-2 launchers (srun, MPICH's mpiexec) PMI_RANK.
[[maybe_unused]] bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(variable) != nullptr) return true;
  }
  return false;
}

}  // namespace

#ifdef EA_HAVE_MPI

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  // One thread per rank makes MPI calls: the runs of a rank go one after another.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (initialized_) MPI_Finalize();
}

void MpiSession::abort(int status) const {
  if (initialized_) MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

#else

MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;
void MpiSession::abort(int status) const { std::exit(status); }

#endif

studies::RunPool MpiSession::run_pool(int threads, studies::ProgressLine* progress) const {
#ifdef EA_HAVE_MPI
  if (size_ > 1) return studies::RunPool(studies::MpiRanks(), progress);
#endif
  return studies::RunPool(threads, progress);
}

}  // namespace energy_audit::cli
