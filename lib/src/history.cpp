#include "energy_audit/history.hpp"

#include <algorithm>
#include <cassert>

namespace energy_audit {

void History::make_row(const EnergySample& sample, std::vector<double>& row) {
  const auto n = static_cast<std::size_t>(sample.q.size());
  row.resize(1 + 2 * n + energy_column_count);
  auto out = row.begin();
  *out++ = sample.t;
  out = std::copy(sample.q.begin(), sample.q.end(), out);
  out = std::copy(sample.v.begin(), sample.v.end(), out);
  const EnergyTerms& e = sample.energy;
  for (double value : {e.T, e.T2, e.T1, e.T0, e.V, e.E(), e.H(), sample.Z, sample.C()}) *out++ = value;
}

void History::append(const EnergySample& sample) {
  make_row(sample, scratch_);
  append_row(scratch_);
}

void History::append_row(std::span<const double> row) {
  if (values_.empty()) dofs_ = (row.size() - 1 - energy_column_count) / 2;
  assert(row.size() == row_size());
  values_.insert(values_.end(), row.begin(), row.end());
}

}  // namespace energy_audit
