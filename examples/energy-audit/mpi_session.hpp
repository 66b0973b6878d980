#pragma once
/// \file
/// The MPI job this process belongs to, when it was started by an MPI launcher (mpirun, mpiexec,
/// srun): MPI is initialized for the life of the object and finalized after. Started any other
/// way — or built without MPI — the process is a job of one rank and MPI is never initialized,
/// so a plain `energy-audit` run never touches MPI. The job's ranks share the runs of a study
/// through the studies' executor of MPI ranks (mpi_ranks.hpp, EnergyAudit::studies_mpi).

#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::cli {

class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Whether this process writes the output: rank 0, or the only process.
  bool leads() const { return rank_ == 0; }

  /// Ends every rank of the job with `status` (MPI_Abort): for a failure that the other ranks,
  /// waiting for this one, would not see.
  [[noreturn]] void abort(int status) const;

  /// Where a study's runs go: the job's ranks (studies::MpiRanks) when it has more than one,
  /// else `threads` threads of this process; they are counted on `progress` (none: not shown).
  studies::RunPool run_pool(int threads, studies::ProgressLine* progress = nullptr) const;

 private:
  bool initialized_ = false;
  int rank_ = 0, size_ = 1;
};

}  // namespace energy_audit::cli
