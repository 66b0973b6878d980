#pragma once
/// \file
/// The rows an audit keeps: t, q, w (v, p or u), T, T2, T1, T0, V, E, H, Z, C for each stored step, then
/// for multiplier models the multipliers and ‖Φ‖, ‖ψ‖.

#include <cassert>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "energy_audit/energy_sample.hpp"

namespace energy_audit {

/// Which columns a row has; fixed by the first sample of a run.
struct HistoryLayout {
  std::size_t dofs = 0;         ///< entries of q
  std::size_t second_half = 0;  ///< entries of w (v, p: dofs; u: the independent velocities)
  std::size_t multipliers = 0;
  bool constraint_drift = false;

  static HistoryLayout of(const EnergySample& sample);
  std::size_t energy_offset() const { return 1 + dofs + second_half; }  ///< index of T
  std::size_t multiplier_offset() const;                       ///< index of the first multiplier
  std::size_t drift_offset() const { return multiplier_offset() + multipliers; }  ///< ‖Φ‖, then ‖ψ‖
  std::size_t row_size() const { return drift_offset() + (constraint_drift ? 2 : 0); }
};

/// Where a History hands its rows when it does not keep them: a run of whole rows, each
/// layout.row_size() values, in order. It may throw (a full disk); the exception then leaves
/// through the call that appended the row or flushed.
using RowSink = std::function<void(const HistoryLayout& layout, std::span<const double> rows)>;

/// The stored rows: kept in memory, or, with a RowSink, handed to it a block at a time so
/// that memory stays bounded however long the run.
class History {
 public:
  History() = default;
  explicit History(RowSink sink) : sink_(std::move(sink)) {}
  History(const History& other);  ///< copies the rows held so far (and the sink)
  History& operator=(const History& other);
  History(History&&) noexcept = default;
  History& operator=(History&&) noexcept = default;

  /// Quantities after t, q and v in each row, in this order.
  static constexpr const char* energy_columns[] = {"T", "T2", "T1", "T0", "V", "E", "H", "Z", "C"};
  static constexpr std::size_t energy_column_count = std::size(energy_columns);
  /// Names of the two drift columns.
  static constexpr const char* drift_columns[] = {"Phi_norm", "psi_norm"};

  // make_row and append_row run at every stored step: inline, so that the audit's record()
  // compiles them into itself.

  /// Writes the row of `sample` into `row` (layout.row_size() entries).
  [[gnu::always_inline]] static void make_row(const EnergySample& sample, std::span<double> row) {
    assert(row.size() == HistoryLayout::of(sample).row_size());
    double* out = row.data();
    *out++ = sample.t;
    // Plain loops: copying through Eigen's STL iterators is slower.
    const Index n = sample.q.size(), k = sample.w.size();
    for (Index i = 0; i < n; ++i) out[i] = sample.q.data()[i];
    out += n;
    for (Index i = 0; i < k; ++i) out[i] = sample.w.data()[i];
    out += k;
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
    if (sample.multipliers) {
      for (Index i = 0; i < sample.multipliers->size(); ++i) *out++ = (*sample.multipliers)[i];
    }
    if (sample.constraint_drift) {
      *out++ = sample.constraint_drift->position;
      *out++ = sample.constraint_drift->velocity;
    }
  }

  /// Room for one more row, to be filled by make_row; the first one fixes the layout.
  std::span<double> append_row(const HistoryLayout& layout) {
    if (rows_in_last_block_ == rows_per_block_) {
      if (sink_ && !blocks_.empty()) {
        flush();  // the one block is reused
      } else {
        add_block(layout);
      }
    }
    const std::size_t row_size = layout_.row_size();
    double* row = blocks_.back().get() + rows_in_last_block_ * row_size;
    ++rows_in_last_block_;
    return {row, row_size};
  }

  /// Hands the rows held to the sink, if there is one, and forgets them.
  void flush();

  const HistoryLayout& layout() const { return layout_; }
  /// Rows handed to the sink and rows held, together.
  std::size_t rows_appended() const { return rows_flushed_ + rows(); }
  /// Rows held in memory: all of them without a sink.
  std::size_t rows() const {
    return blocks_.empty() ? 0 : (blocks_.size() - 1) * rows_per_block_ + rows_in_last_block_;
  }
  std::span<const double> row(std::size_t i) const {
    return {blocks_[i / rows_per_block_].get() + (i % rows_per_block_) * layout_.row_size(), layout_.row_size()};
  }

 private:
  // Rows live in blocks of at most block_values doubles: appending never moves what is stored,
  // and blocks below malloc's mmap threshold are reused from run to run instead of being
  // mapped, faulted in and unmapped again.
  static constexpr std::size_t block_values = 4096;

  /// A new block, sized once: appending a row then writes into memory already there.
  void add_block(const HistoryLayout& layout);

  RowSink sink_;
  std::size_t rows_flushed_ = 0;
  HistoryLayout layout_;
  std::size_t rows_per_block_ = 0;
  std::size_t rows_in_last_block_ = 0;
  std::vector<std::unique_ptr<double[]>> blocks_;  // uninitialized: every row is written once
};

inline std::size_t HistoryLayout::multiplier_offset() const {
  return energy_offset() + History::energy_column_count;
}

}  // namespace energy_audit
