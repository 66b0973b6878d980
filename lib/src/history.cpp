#include "energy_audit/history.hpp"

#include <algorithm>
#include <cassert>

namespace energy_audit {

HistoryLayout HistoryLayout::of(const EnergySample& sample) {
  return {static_cast<std::size_t>(sample.q.size()), static_cast<std::size_t>(sample.multipliers.size()),
          sample.constraint_drift.has_value()};
}

std::size_t HistoryLayout::multiplier_offset() const {
  return energy_offset() + History::energy_column_count;
}

void History::make_row(const EnergySample& sample, std::span<double> row) {
  assert(row.size() == HistoryLayout::of(sample).row_size());
  auto out = row.begin();
  *out++ = sample.t;
  out = std::copy(sample.q.begin(), sample.q.end(), out);
  out = std::copy(sample.v.begin(), sample.v.end(), out);
  const EnergyTerms& e = sample.energy;  // in the order of energy_columns
  *out++ = e.T;
  *out++ = e.T2;
  *out++ = e.T1;
  *out++ = e.T0;
  *out++ = e.V;
  *out++ = e.E();
  *out++ = e.H();
  *out++ = sample.Z;
  *out++ = sample.C();
  out = std::copy(sample.multipliers.begin(), sample.multipliers.end(), out);
  if (sample.constraint_drift) {
    *out++ = sample.constraint_drift->position;
    *out++ = sample.constraint_drift->velocity;
  }
}

std::span<double> History::append_row(const HistoryLayout& layout) {
  if (rows_ == 0) {
    layout_ = layout;
    rows_per_block_ = std::max<std::size_t>(1, block_values / layout_.row_size());
  }
  if (rows_ % rows_per_block_ == 0) {
    blocks_.emplace_back();
    blocks_.back().reserve(rows_per_block_ * layout_.row_size());  // rows handed out never move
  }
  std::vector<double>& block = blocks_.back();
  const std::size_t start = block.size();
  block.resize(start + layout_.row_size());
  ++rows_;
  return {block.data() + start, layout_.row_size()};
}

}  // namespace energy_audit
