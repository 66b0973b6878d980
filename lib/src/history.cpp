#include "energy_audit/history.hpp"

#include <algorithm>

namespace energy_audit {

HistoryLayout HistoryLayout::of(const EnergySample& sample) {
  const Index multipliers = sample.multipliers ? sample.multipliers->size() : 0;
  return {static_cast<std::size_t>(sample.q.size()), static_cast<std::size_t>(sample.w.size()),
          static_cast<std::size_t>(multipliers), sample.constraint_drift.has_value()};
}

History::History(const History& other)
    : sink_(other.sink_),
      rows_flushed_(other.rows_flushed_),
      layout_(other.layout_),
      rows_per_block_(other.rows_per_block_),
      rows_in_last_block_(other.rows_in_last_block_) {
  const std::size_t row_size = layout_.row_size();
  for (std::size_t b = 0; b < other.blocks_.size(); ++b) {
    // Only the rows written: the rest of the last block is uninitialized.
    const std::size_t rows = b + 1 < other.blocks_.size() ? rows_per_block_ : rows_in_last_block_;
    blocks_.push_back(std::make_unique_for_overwrite<double[]>(rows_per_block_ * row_size));
    std::copy_n(other.blocks_[b].get(), rows * row_size, blocks_.back().get());
  }
}

History& History::operator=(const History& other) {
  if (this != &other) *this = History(other);
  return *this;
}

void History::flush() {
  if (!sink_ || blocks_.empty() || rows_in_last_block_ == 0) return;
  const std::size_t rows = rows_in_last_block_;
  rows_in_last_block_ = 0;  // forgotten even if the sink throws: never handed twice
  rows_flushed_ += rows;
  sink_(layout_, {blocks_.back().get(), rows * layout_.row_size()});
}

void History::add_block(const HistoryLayout& layout) {
  if (blocks_.empty()) {
    layout_ = layout;
    rows_per_block_ = std::max<std::size_t>(1, block_values / layout_.row_size());
  }
  blocks_.push_back(std::make_unique_for_overwrite<double[]>(rows_per_block_ * layout_.row_size()));
  rows_in_last_block_ = 0;
}

}  // namespace energy_audit
