#pragma once
/// \file
/// A request to stop a run at the next step boundary, which a signal handler may make.

#include <atomic>

namespace energy_audit {

/// Integrators read it once per accepted step and end the run as RunEnd::Interrupted, the
/// history so far kept. request() is async-signal-safe: it only stores a lock-free atomic flag.
class StopRequest {
 public:
  void request() noexcept { requested_.store(true, std::memory_order_relaxed); }
  bool requested() const noexcept { return requested_.load(std::memory_order_relaxed); }

 private:
  static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler may only set a lock-free atomic");
  std::atomic<bool> requested_{false};
};

/// True when `stop` is given and has been requested.
inline bool stop_requested(const StopRequest* stop) noexcept { return stop != nullptr && stop->requested(); }

}  // namespace energy_audit
