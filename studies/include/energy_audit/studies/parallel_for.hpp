#pragma once
/// \file
/// The threads of the studies' pool (thread_pool_executor.hpp): independent runs, each result
/// written at its own index, so a parallel study equals a serial one run by run.

#include <cstddef>
#include <functional>

namespace energy_audit::studies {

/// Runs body(i) for i in [0, count) on `threads` threads (the caller's among them), each taking
/// the next index when it is free (runs differ in cost by orders of magnitude); the first
/// exception of the lowest index is rethrown after all have stopped.
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t)>& body);

}  // namespace energy_audit::studies
