#pragma once
/// \file
/// The rows an audit keeps: t, q, v, T, T2, T1, T0, V, E, H, Z, C for each stored step, then
/// for multiplier models the multipliers and ‖Φ‖, ‖ψ‖.

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <span>
#include <vector>

#include "energy_audit/energy_sample.hpp"

namespace energy_audit {

/// Which columns a row has; fixed by the first sample of a run.
struct HistoryLayout {
  std::size_t dofs = 0;
  std::size_t multipliers = 0;
  bool constraint_drift = false;

  static HistoryLayout of(const EnergySample& sample);
  std::size_t energy_offset() const { return 1 + 2 * dofs; }  ///< index of T
  std::size_t multiplier_offset() const;                       ///< index of the first multiplier
  std::size_t drift_offset() const { return multiplier_offset() + multipliers; }  ///< ‖Φ‖, then ‖ψ‖
  std::size_t row_size() const { return drift_offset() + (constraint_drift ? 2 : 0); }
};

class History {
 public:
  /// Quantities after t, q and v in each row, in this order.
  static constexpr const char* energy_columns[] = {"T", "T2", "T1", "T0", "V", "E", "H", "Z", "C"};
  static constexpr std::size_t energy_column_count = std::size(energy_columns);
  /// Names of the two drift columns.
  static constexpr const char* drift_columns[] = {"Phi_norm", "psi_norm"};

  // Both run at every accepted step: inline, so that the audit's record() compiles them into itself.

  /// Writes the row of `sample` into `row` (layout.row_size() entries).
  static void make_row(const EnergySample& sample, std::span<double> row) {
    assert(row.size() == HistoryLayout::of(sample).row_size());
    // Pointer loops: copying through Eigen's STL iterators cost more than the rest of the row.
    const auto copy = [](const auto& from, double* to) {
      for (Index i = 0; i < from.size(); ++i) to[i] = from.data()[i];
      return to + from.size();
    };
    double* out = row.data();
    *out++ = sample.t;
    out = copy(sample.q, out);
    out = copy(sample.v, out);
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
    out = copy(sample.multipliers, out);
    if (sample.constraint_drift) {
      *out++ = sample.constraint_drift->position;
      *out++ = sample.constraint_drift->velocity;
    }
  }

  /// Room for one more row, to be filled by make_row; the first one fixes the layout.
  std::span<double> append_row(const HistoryLayout& layout) {
    if (rows_ == 0) {
      layout_ = layout;
      rows_per_block_ = std::max<std::size_t>(1, block_values / layout_.row_size());
    }
    const std::size_t row_size = layout_.row_size();
    if (blocks_.empty() || blocks_.back().size() + row_size > rows_per_block_ * row_size) {
      blocks_.emplace_back();
      blocks_.back().reserve(rows_per_block_ * row_size);  // rows handed out never move
    }
    std::vector<double>& block = blocks_.back();
    const std::size_t start = block.size();
    block.resize(start + row_size);
    ++rows_;
    return {block.data() + start, row_size};
  }

  const HistoryLayout& layout() const { return layout_; }
  std::size_t rows() const { return rows_; }
  std::span<const double> row(std::size_t i) const {
    return {blocks_[i / rows_per_block_].data() + (i % rows_per_block_) * layout_.row_size(), layout_.row_size()};
  }

 private:
  // Rows live in blocks of at most block_values doubles: appending never moves what is stored,
  // and blocks below malloc's mmap threshold are reused from run to run instead of being
  // mapped, faulted in and unmapped again.
  static constexpr std::size_t block_values = 4096;

  HistoryLayout layout_;
  std::size_t rows_ = 0;
  std::size_t rows_per_block_ = 1;
  std::vector<std::vector<double>> blocks_;
};

}  // namespace energy_audit
