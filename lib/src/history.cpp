#include "energy_audit/history.hpp"


namespace energy_audit {

HistoryLayout HistoryLayout::of(const EnergySample& sample) {
  return {static_cast<std::size_t>(sample.q.size()), static_cast<std::size_t>(sample.multipliers.size()),
          sample.constraint_drift.has_value()};
}

std::size_t HistoryLayout::multiplier_offset() const {
  return energy_offset() + History::energy_column_count;
}

}  // namespace energy_audit
