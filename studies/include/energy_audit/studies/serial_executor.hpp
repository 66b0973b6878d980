#pragma once
/// \file
/// The serial executor of a study's runs (run_executor.hpp): one after another, in index order,
/// on the calling thread; a failure stops the runs there. Every other executor's results equal
/// this one's, run by run.

#include <cstddef>

#include <energy_audit/studies/run_batch.hpp>
#include <energy_audit/studies/run_executor.hpp>

namespace energy_audit::studies {

class SerialExecutor {
 public:
  void run_all(const RunBatch& runs) const {
    for (std::size_t i = 0; i < runs.count(); ++i) runs.run(i);
  }
  Workers workers() const { return {}; }
  bool leads() const { return true; }
};

static_assert(RunExecutor<SerialExecutor>);

}  // namespace energy_audit::studies
