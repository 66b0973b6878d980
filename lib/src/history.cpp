#include "energy_audit/history.hpp"

#include <algorithm>

namespace energy_audit {

HistoryLayout HistoryLayout::of(const EnergySample& sample) {
  return {static_cast<std::size_t>(sample.q.size()), static_cast<std::size_t>(sample.multipliers ? sample.multipliers->size() : 0),
          sample.constraint_drift.has_value()};
}

void History::add_block(const HistoryLayout& layout) {
  if (rows_ == 0) {
    layout_ = layout;
    rows_per_block_ = std::max<std::size_t>(1, block_values / layout_.row_size());
  }
  blocks_.push_back(std::make_unique_for_overwrite<double[]>(rows_per_block_ * layout_.row_size()));
  rows_in_last_block_ = 0;
}

}  // namespace energy_audit
