#include <energy_audit/studies/thread_pool_executor.hpp>

#include <cstddef>

#include <energy_audit/studies/parallel_for.hpp>

namespace energy_audit::studies {

void ThreadPoolExecutor::run_all(const RunBatch& runs) const {
  parallel_for(runs.count(), threads_, [&runs](std::size_t i) { runs.run(i); });
}

}  // namespace energy_audit::studies
