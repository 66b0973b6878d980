#pragma once
/// \file
/// How far a run has come, for a progress line that another thread draws while it goes.

#include <atomic>
#include <cstddef>

namespace energy_audit {

/// The audit writes the time and the count of every accepted step here (AuditOptions::progress);
/// any thread may read them while the run goes. Relaxed atomics: a reader sees a recent step,
/// not necessarily the last one, and never a torn value.
class RunProgress {
 public:
  void record(double t, std::size_t steps) noexcept {
    t_.store(t, std::memory_order_relaxed);
    steps_.store(steps, std::memory_order_relaxed);
  }
  double t() const noexcept { return t_.load(std::memory_order_relaxed); }  ///< time of a recent accepted step
  std::size_t steps() const noexcept { return steps_.load(std::memory_order_relaxed); }  ///< steps seen by then

 private:
  std::atomic<double> t_{0};
  std::atomic<std::size_t> steps_{0};
};

}  // namespace energy_audit
