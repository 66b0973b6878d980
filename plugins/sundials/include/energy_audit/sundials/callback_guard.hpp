#pragma once
/// \file
/// Exceptions never cross a SUNDIALS callback: a callback runs its body under a CallbackGuard,
/// which catches, stores the exception and returns SUNDIALS' error code; the adapter rethrows
/// after the solver returns.

#include <exception>
#include <utility>

namespace energy_audit::sun {

class CallbackGuard {
 public:
  /// Runs body() (which returns 0, or > 0 for a recoverable failure) and returns its code; -1
  /// after an exception, which is kept for rethrow_if_failed().
  template <class Body>
  int run(Body&& body) noexcept {
    try {
      return std::forward<Body>(body)();
    } catch (...) {
      if (!failure_) failure_ = std::current_exception();
      return -1;
    }
  }

  void rethrow_if_failed() {
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  std::exception_ptr failure_;
};

}  // namespace energy_audit::sun
