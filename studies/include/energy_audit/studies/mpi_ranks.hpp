#pragma once
/// \file
/// The ranks of an MPI job as the group that shares a study's runs (run_pool.hpp), for programs
/// run under mpirun (EnergyAudit::studies_mpi, built when MPI is found): each rank takes the next
/// index from a counter on rank 0 (MPI one-sided fetch-and-add) until none is left, and the
/// encoded results are gathered on every rank. The results travel as CBOR, which keeps every
/// double to the bit, so every rank holds the serial run's results, run by run.

#include <cstddef>
#include <vector>

#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::studies {

class MpiRanks final : public RankGroup {
 public:
  /// The ranks of MPI_COMM_WORLD. The program initializes MPI (MPI_Init_thread with
  /// MPI_THREAD_FUNNELED at least: the runs of a rank go one after another) and finalizes it.
  MpiRanks();

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  /// The leading rank counts on `progress` the indices certainly done: those taken before its
  /// next one, but for one in flight on each other rank.
  std::vector<Encoded> map_encoded(std::size_t count, const Encoder& encode, ProgressLine& progress,
                                   std::size_t units_each) const override;

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace energy_audit::studies
