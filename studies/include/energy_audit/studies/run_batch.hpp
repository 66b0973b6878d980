#pragma once
/// \file
/// The independent runs of one stage of a study (compare, sweep, advise, the stability map), as
/// an executor (run_executor.hpp) sees them: `count()` runs, each made by `run(i)`, whose results
/// the batch keeps at their own indices, so that a study's results equal the serial run's, run by
/// run, whatever order and whichever worker made them. An executor whose runs are made in other
/// processes (the ranks of an MPI job, mpi_ranks.hpp) moves them as bytes: `encoded_run(i)` makes
/// run i where it is called and returns its result as CBOR, which keeps every double to the bit,
/// and `keep_encoded(i, bytes)` keeps that result in the process that receives it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <energy_audit/studies/progress.hpp>

namespace energy_audit::studies {

class RunBatch {
 public:
  /// A result as bytes (CBOR).
  using Encoded = std::vector<std::uint8_t>;

  RunBatch(std::size_t count, ProgressLine& progress, std::size_t units_each)
      : count_(count), progress_(&progress), units_each_(units_each) {}
  RunBatch(const RunBatch&) = delete;
  RunBatch& operator=(const RunBatch&) = delete;

  /// The runs are the indices [0, count()).
  std::size_t count() const { return count_; }

  /// Makes run i, keeps its result at index i and counts it as finished on the progress line
  /// (safe to call for different indices at once, from any threads). A failure throws.
  virtual void run(std::size_t i) const = 0;
  /// Makes run i and returns its result as bytes for keep_encoded, in this process or another;
  /// keeps and counts nothing. A failure throws.
  virtual Encoded encoded_run(std::size_t i) const = 0;
  /// Keeps at index i the result that encoded_run(i) returned (safe for different indices at once).
  virtual void keep_encoded(std::size_t i, const Encoded& result) const = 0;

  /// The study's progress line and how many units each finished run counts there (runs; advise:
  /// one method's search), for an executor that counts the runs itself (with encoded_run).
  ProgressLine& progress() const { return *progress_; }
  std::size_t units_each() const { return units_each_; }

 protected:
  ~RunBatch() = default;

 private:
  std::size_t count_;
  ProgressLine* progress_;
  std::size_t units_each_;
};

}  // namespace energy_audit::studies
