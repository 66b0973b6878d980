#pragma once
/// \file
/// The rows an audit keeps: t, q, v, T, T2, T1, T0, V, E, H, Z, C for each stored step.

#include <cstddef>
#include <span>
#include <vector>

#include "energy_audit/energy_sample.hpp"

namespace energy_audit {

class History {
 public:
  /// Quantities after t, q and v in each row, in this order.
  static constexpr const char* energy_columns[] = {"T", "T2", "T1", "T0", "V", "E", "H", "Z", "C"};
  static constexpr std::size_t energy_column_count = std::size(energy_columns);

  /// Writes the row of `sample` into `row` (resized to fit).
  static void make_row(const EnergySample& sample, std::vector<double>& row);

  void append(const EnergySample& sample);
  void append_row(std::span<const double> row);

  std::size_t dofs() const { return dofs_; }
  std::size_t row_size() const { return 1 + 2 * dofs_ + energy_column_count; }
  std::size_t rows() const { return row_size() == 0 || values_.empty() ? 0 : values_.size() / row_size(); }
  bool empty() const { return values_.empty(); }
  std::span<const double> row(std::size_t i) const {
    return {values_.data() + i * row_size(), row_size()};
  }

 private:
  std::size_t dofs_ = 0;
  std::vector<double> values_;
  std::vector<double> scratch_;
};

}  // namespace energy_audit
