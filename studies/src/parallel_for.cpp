#include <energy_audit/studies/parallel_for.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace energy_audit::studies {

void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::size_t failed_index = count;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        body(i);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        // The lowest failed index, as a serial run fails: every lower index was taken before
        // this one, so it has finished or fails while the others stop.
        if (i < failed_index) {
          failure = std::current_exception();
          failed_index = i;
        }
        next = count;  // the others stop at their next index
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)) - 1, count);
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace energy_audit::studies
