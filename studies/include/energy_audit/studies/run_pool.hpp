#pragma once
/// \file
/// Where the independent runs of a sweep go (sweep, stability, advise): the threads of this
/// process, or the ranks of the MPI job it belongs to (mpi_session.hpp), one run per rank at a
/// time. Either way each run takes the next index when its worker is free — runs differ in cost
/// by orders of magnitude — and every result lands at its own index, so the results equal a
/// serial run's, run by run. Across ranks the results travel as CBOR (nlohmann::json), which
/// keeps every double to the bit, and every rank returns with all of them: the ranks go on in
/// step through searches whose next runs depend on earlier results, and rank 0 writes the output.
/// The pool counts the runs on the study's progress line (progress.hpp) as they finish.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mpi_session.hpp"
#include "parallel_for.hpp"
#include "progress.hpp"
#include "transferable.hpp"

namespace energy_audit::cli {

/// What ran a study: threads of one process, or MPI ranks of one thread each.
struct Workers {
  int threads = 1, ranks = 1;
  int count() const { return threads * ranks; }
  /// "1 thread", "4 threads", "2 ranks".
  std::string text() const;
};

class RunPool {
 public:
  /// `threads` threads of this process, or, when `session` has more than one rank, its ranks;
  /// the runs are counted on `progress` (none: not shown).
  RunPool(const MpiSession& session, int threads, ProgressLine* progress = nullptr)
      : session_(session), threads_(std::max(threads, 1)), progress_(progress != nullptr ? progress : &silent()) {}

  /// Runs run(i) for i in [0, count) and returns every result on every rank; the first failure
  /// (by index) is thrown on every rank after all runs have stopped. Each finished index counts
  /// `units_each` on the progress line (runs; advise: one method's search) and closes that
  /// index's counter there.
  template <Transferable Result, class Run>
    requires std::invocable<const Run&, std::size_t>
  std::vector<Result> map(std::size_t count, const Run& run, std::size_t units_each = 1) const {
    std::vector<Result> results(count);
    if (!across_ranks()) {
      parallel_for(count, threads_, [&](std::size_t i) {
        results[i] = run(i);
        progress_->close(i);
        progress_->advance(units_each);
      });
      return results;
    }
    const std::vector<std::vector<std::uint8_t>> encoded = map_across_ranks(
        count, [&](std::size_t i) { return nlohmann::json::to_cbor(nlohmann::json(Result(run(i)))); }, units_each);
    for (std::size_t i = 0; i < count; ++i) results[i] = nlohmann::json::from_cbor(encoded[i]).get<Result>();
    return results;
  }

  bool across_ranks() const { return session_.size() > 1; }
  /// Whether this process writes the output (rank 0).
  bool leads() const { return session_.leads(); }
  Workers workers() const { return across_ranks() ? Workers{1, session_.size()} : Workers{threads_, 1}; }
  /// The study's progress line (one that shows nothing when the pool was given none).
  ProgressLine& progress() const { return *progress_; }

 private:
  using Encoder = std::function<std::vector<std::uint8_t>(std::size_t)>;
  /// Each rank takes the next index from a counter on rank 0 (MPI one-sided fetch-and-add) until
  /// none is left; then all encoded results are gathered on every rank. The leading rank counts
  /// on the progress line the indices certainly done: those taken before its next one, but for
  /// one in flight on each other rank.
  std::vector<std::vector<std::uint8_t>> map_across_ranks(std::size_t count, const Encoder& encode,
                                                          std::size_t units_each) const;

  const MpiSession& session_;
  int threads_;
  ProgressLine* progress_;

  /// The line of a pool given none: it shows nothing and keeps no state.
  static ProgressLine& silent() {
    static ProgressLine line;
    return line;
  }
};

}  // namespace energy_audit::cli
