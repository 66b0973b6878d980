#pragma once
/// \file
/// The executor of a study's runs on threads of this process (run_executor.hpp): each thread
/// takes the next index when it is free — runs differ in cost by orders of magnitude — and each
/// result lands at its own index, so the results equal the serial run's, run by run.

#include <energy_audit/studies/run_batch.hpp>
#include <energy_audit/studies/run_executor.hpp>

namespace energy_audit::studies {

class ThreadPoolExecutor {
 public:
  /// `threads` threads, the caller's among them (fewer than one: one).
  explicit ThreadPoolExecutor(int threads) : threads_(threads < 1 ? 1 : threads) {}

  void run_all(const RunBatch& runs) const;
  Workers workers() const { return {threads_, 1}; }
  bool leads() const { return true; }

 private:
  int threads_;
};

static_assert(RunExecutor<ThreadPoolExecutor>);

}  // namespace energy_audit::studies
