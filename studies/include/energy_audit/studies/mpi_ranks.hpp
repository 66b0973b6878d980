#pragma once
/// \file
/// The ranks of an MPI job as the executor of a study's runs (run_executor.hpp), for programs run
/// under mpirun (EnergyAudit::studies_mpi, built and installed when MPI is found): each rank takes
/// the next index from a counter on rank 0 (MPI one-sided fetch-and-add) until none is left, and
/// the encoded results are gathered on every rank. The results travel as CBOR, which keeps every
/// double to the bit, so every rank holds the serial run's results, run by run. Rank 0 leads.

#include <energy_audit/studies/run_batch.hpp>
#include <energy_audit/studies/run_executor.hpp>

namespace energy_audit::studies {

class MpiRanks {
 public:
  /// The ranks of MPI_COMM_WORLD. The program initializes MPI (MPI_Init_thread with
  /// MPI_THREAD_FUNNELED at least: the runs of a rank go one after another) and finalizes it.
  MpiRanks();

  /// The leading rank counts on the batch's progress line the indices certainly done: those
  /// taken before its next one, but for one in flight on each other rank.
  void run_all(const RunBatch& runs) const;
  Workers workers() const { return {1, size_}; }
  bool leads() const { return rank_ == 0; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

static_assert(RunExecutor<MpiRanks>);

}  // namespace energy_audit::studies
