#pragma once
/// \file
/// What runs the independent runs of a study (compare, sweep, advise, the stability map): an
/// executor. The library has the serial one (serial_executor.hpp) and a pool of threads
/// (thread_pool_executor.hpp); the optional component EnergyAudit::studies_mpi has the ranks of
/// an MPI job (mpi_ranks.hpp). A study takes any of them, or one of the user's own, through a
/// RunPool (run_pool.hpp). docs/library.md shows how to write one.

#include <concepts>
#include <string>

#include <energy_audit/studies/run_batch.hpp>

namespace energy_audit::studies {

/// What ran a study: threads of one process, or MPI ranks of one thread each.
struct Workers {
  int threads = 1, ranks = 1;
  int count() const { return threads * ranks; }
  /// "1 thread", "4 threads", "2 ranks".
  std::string text() const;
};

/// An executor of a study's runs. `executor.run_all(runs)` makes every run of the batch, in any
/// order and on any of its workers, and returns when each run's result is kept in the batch of
/// every process that called it: by runs.run(i) in the process that made run i, by
/// runs.keep_encoded(i, bytes) of runs.encoded_run(i) in the others. After a failed run, the runs
/// not yet started need not start; run_all throws, after every run has stopped, the failure of
/// the lowest index among the runs made, in every process (taking the indices in increasing
/// order, that is the failure a serial run meets first; across processes its message travels, and
/// the failure is thrown as std::runtime_error with that message). Every process of a group
/// calls run_all with the same runs, in the same order: a study goes on in step, its next runs
/// depending on earlier results. `workers()` says what made the runs; `leads()` whether this process writes
/// the study's output (the only process, or rank 0 of a group).
template <class Executor>
concept RunExecutor = requires(const Executor& executor, const RunBatch& runs) {
  executor.run_all(runs);
  { executor.workers() } -> std::same_as<Workers>;
  { executor.leads() } -> std::convertible_to<bool>;
};

}  // namespace energy_audit::studies
