#include "mpi_session.hpp"

#include <cstdlib>
#include <initializer_list>
#include <stdexcept>

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

#ifdef EA_HAVE_MPI

std::vector<studies::RankGroup::Encoded> MpiSession::map_encoded(std::size_t count, const Encoder& encode,
                                                                studies::ProgressLine& progress,
                                                                std::size_t units_each) const {
  return studies::MpiRanks().map_encoded(count, encode, progress, units_each);
}

#else

std::vector<studies::RankGroup::Encoded> MpiSession::map_encoded(std::size_t, const Encoder&, studies::ProgressLine&,
                                                                std::size_t) const {
  throw std::logic_error("this energy-audit was built without MPI");
}

#endif

}  // namespace energy_audit::cli
