#pragma once
/// \file
/// Where the independent runs of a study go (compare, sweep, stability, advise): the threads of
/// this process, or the ranks of a group of processes (RankGroup: the command line's MPI job),
/// one run per rank at a time. Either way each run takes the next index when its worker is free
/// — runs differ in cost by orders of magnitude — and every result lands at its own index, so
/// the results equal a serial run's, run by run. Across ranks the results travel as CBOR (nlohmann::json), which
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

#include <energy_audit/studies/parallel_for.hpp>
#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/transferable.hpp>

namespace energy_audit::studies {

/// What ran a study: threads of one process, or MPI ranks of one thread each.
struct Workers {
  int threads = 1, ranks = 1;
  int count() const { return threads * ranks; }
  /// "1 thread", "4 threads", "2 ranks".
  std::string text() const;
};

/// Processes that share the runs of a study, each run made by one of them and every result
/// returned to all of them (the command line's MPI job).
class RankGroup {
 public:
  using Encoded = std::vector<std::uint8_t>;
  using Encoder = std::function<Encoded(std::size_t)>;

  virtual ~RankGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Runs encode(i) for i in [0, count), each on one rank, and returns every encoded result on
  /// every rank; the first failure (by index) is thrown on every rank after all runs have
  /// stopped. Counts on `progress` as RunPool::map does.
  virtual std::vector<Encoded> map_encoded(std::size_t count, const Encoder& encode, ProgressLine& progress,
                                           std::size_t units_each) const = 0;
};

class RunPool {
 public:
  /// `threads` threads of this process; the runs are counted on `progress` (none: not shown).
  explicit RunPool(int threads, ProgressLine* progress = nullptr)
      : threads_(std::max(threads, 1)), progress_(progress != nullptr ? progress : &silent()) {}
  /// `threads` threads of this process or, when `ranks` has more than one rank, its ranks.
  RunPool(const RankGroup& ranks, int threads, ProgressLine* progress = nullptr)
      : RunPool(threads, progress) {
    ranks_ = &ranks;
  }

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
    const std::vector<RankGroup::Encoded> encoded = ranks_->map_encoded(
        count, [&](std::size_t i) { return nlohmann::json::to_cbor(nlohmann::json(Result(run(i)))); }, *progress_,
        units_each);
    for (std::size_t i = 0; i < count; ++i) results[i] = nlohmann::json::from_cbor(encoded[i]).get<Result>();
    return results;
  }

  bool across_ranks() const { return ranks_ != nullptr && ranks_->size() > 1; }
  /// Whether this process writes the output (rank 0, or the only process).
  bool leads() const { return ranks_ == nullptr || ranks_->rank() == 0; }
  Workers workers() const { return across_ranks() ? Workers{1, ranks_->size()} : Workers{threads_, 1}; }
  /// The study's progress line (one that shows nothing when the pool was given none).
  ProgressLine& progress() const { return *progress_; }

 private:
  const RankGroup* ranks_ = nullptr;
  int threads_;
  ProgressLine* progress_;

  /// The line of a pool given none: it shows nothing and keeps no state.
  static ProgressLine& silent() {
    static ProgressLine line;
    return line;
  }
};

}  // namespace energy_audit::studies
