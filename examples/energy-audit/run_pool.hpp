#pragma once
/// \file
/// Where the independent runs of a sweep go (sweep, stability, advise): the threads of this
/// process, or the ranks of the MPI job it belongs to (mpi_session.hpp), one run per rank at a
/// time. Either way each run takes the next index when its worker is free — runs differ in cost
/// by orders of magnitude — and every result lands at its own index, so the results equal a
/// serial run's, run by run. Across ranks the results travel as CBOR (nlohmann::json), which
/// keeps every double to the bit, and every rank returns with all of them: the ranks go on in
/// step through searches whose next runs depend on earlier results, and rank 0 writes the output.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mpi_session.hpp"
#include "parallel_for.hpp"
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
  /// `threads` threads of this process, or, when `session` has more than one rank, its ranks.
  RunPool(const MpiSession& session, int threads) : session_(session), threads_(std::max(threads, 1)) {}

  /// Runs run(i) for i in [0, count) and returns every result on every rank; the first failure
  /// (by index) is thrown on every rank after all runs have stopped.
  template <Transferable Result, class Run>
    requires std::invocable<const Run&, std::size_t>
  std::vector<Result> map(std::size_t count, const Run& run) const {
    std::vector<Result> results(count);
    if (!across_ranks()) {
      parallel_for(count, threads_, [&](std::size_t i) { results[i] = run(i); });
      return results;
    }
    const std::vector<std::vector<std::uint8_t>> encoded = map_across_ranks(
        count, [&](std::size_t i) { return nlohmann::json::to_cbor(nlohmann::json(Result(run(i)))); });
    for (std::size_t i = 0; i < count; ++i) results[i] = nlohmann::json::from_cbor(encoded[i]).get<Result>();
    return results;
  }

  bool across_ranks() const { return session_.size() > 1; }
  /// Whether this process writes the output (rank 0).
  bool leads() const { return session_.leads(); }
  Workers workers() const { return across_ranks() ? Workers{1, session_.size()} : Workers{threads_, 1}; }

 private:
  using Encoder = std::function<std::vector<std::uint8_t>(std::size_t)>;
  /// Each rank takes the next index from a counter on rank 0 (MPI one-sided fetch-and-add) until
  /// none is left; then all encoded results are gathered on every rank.
  std::vector<std::vector<std::uint8_t>> map_across_ranks(std::size_t count, const Encoder& encode) const;

  const MpiSession& session_;
  int threads_;
};

}  // namespace energy_audit::cli
