#include <energy_audit/studies/run_executor.hpp>

namespace energy_audit::studies {

std::string Workers::text() const {
  if (ranks > 1) return std::to_string(ranks) + " ranks";
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

}  // namespace energy_audit::studies
