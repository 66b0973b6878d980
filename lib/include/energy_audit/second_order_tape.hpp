#pragma once
/// \file
/// SecondOrderTape: one evaluation of a scalar function recorded operation by operation, for
/// second derivatives by reverse mode over forward mode (docs/mathematics.md, "Derived equations
/// of large models").
///
/// Every recorded quantity c carries its value's tangents along `directions()` directions (forward
/// mode, computed as the operation is recorded). The reverse sweep from an output y then gives
/// each recorded input x both ∂y/∂x and the tangents of ∂y/∂x along the same directions: seeded
/// with the n unit directions of n inputs, those are n columns of the Hessian of y. The cost is a
/// small multiple of (directions + 1) × the cost of y, where nested forward mode (dual.hpp) costs
/// a multiple of directions × (directions + 1) × the cost of y.
///
/// A second way to the same second derivatives takes first derivatives only in the reverse sweep
/// and then sums each operation's second derivatives, applied to its arguments' tangents, over
/// the tape (accumulate_second_derivatives()): no adjoint tangents, but outer products of the
/// arguments' tangents, whose ranges grow along a model's running sums, so that it is the faster
/// one for few directions only (lagrange_terms.hpp says where).
///
/// Two kinds of sparsity keep that multiple small:
///   - each quantity's tangents are zero outside a range of directions, which the tape tracks
///     and computes only within (a quantity of q alone has the time direction only; a running
///     sum along a chain gains one direction per term);
///   - the adjoint's tangents are computed only for quantities that depend on an input whose
///     adjoint tangents are wanted (the velocities, for M): for the others, the adjoint alone.
///
/// An operation c = g(a, b) is recorded by its arguments and by g's first and second partial
/// derivatives at them; TapedScalar (taped_scalar.hpp) records every arithmetic operation and
/// function of a model's T and V this way.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace energy_audit {

/// The partial derivatives of c = g(a, b) at the arguments: ∂c/∂a, ∂c/∂b and the second ones.
/// For a function of a alone (b absent), only da and daa are read.
struct TapePartials {
  double da = 0, db = 0;
  double daa = 0, dab = 0, dbb = 0;
};

class SecondOrderTape {
 public:
  static constexpr int no_argument = -1;

  /// An empty tape whose quantities carry `directions` tangents.
  explicit SecondOrderTape(int directions = 0) : directions_(directions) {}

  /// Empties the tape for a new evaluation with `directions` tangents, keeping its storage.
  void clear(int directions) {
    if (directions != directions_) row_capacity_ = static_cast<int>(tangent_rows_.size()) / std::max(directions, 1);
    directions_ = directions;
    nodes_.clear();
  }

  int directions() const { return directions_; }
  int size() const { return static_cast<int>(nodes_.size()); }

  /// A new independent variable, its tangents zero until set_tangent(). `adjoint_tangents_wanted`:
  /// whether adjoint_tangent() will be asked of it after differentiate(). Returns its index.
  int variable(bool adjoint_tangents_wanted) {
    nodes_.push_back({no_argument, no_argument, {0, 0}, adjoint_tangents_wanted, {}});
    reserve_rows();
    return size() - 1;
  }

  void set_tangent(int node, int direction, double value) {
    Range& range = nodes_[node].tangents;
    double* row = tangent_row(node);
    const Range wider = range.hull({direction, direction + 1});
    zero_new_part(row, range, wider);
    range = wider;
    row[direction] = value;
  }

  /// Records c = g(a, b) (b = no_argument for a function of a alone) from g's partials, computes
  /// c's tangents ∂c/∂a ȧ + ∂c/∂b ḃ and returns c's index.
  int record(int a, int b, const TapePartials& partials) {
    const Node& node_a = nodes_[a];
    Node node{a, b, node_a.tangents, node_a.leads_to_wanted, partials};
    if (b != no_argument) {
      node.tangents = node.tangents.hull(nodes_[b].tangents);
      node.leads_to_wanted = node.leads_to_wanted || nodes_[b].leads_to_wanted;
    }
    nodes_.push_back(node);
    reserve_rows();
    const int c = size() - 1;
    double* __restrict c_dot = tangent_row(c);
    const double* __restrict a_dot = tangent_row(a);
    const Range range = node.tangents, range_a = nodes_[a].tangents;
    if (b == no_argument) {
      for (int k = range.begin; k < range.end; ++k) c_dot[k] = partials.da * a_dot[k];
      return c;
    }
    const double* __restrict b_dot = tangent_row(b);
    const Range range_b = nodes_[b].tangents;
    if (range_a == range && range_b == range) {
      for (int k = range.begin; k < range.end; ++k) c_dot[k] = partials.da * a_dot[k] + partials.db * b_dot[k];
    } else if (range_a == range) {  // b's range within a's
      for (int k = range.begin; k < range.end; ++k) c_dot[k] = partials.da * a_dot[k];
      for (int k = range_b.begin; k < range_b.end; ++k) c_dot[k] += partials.db * b_dot[k];
    } else if (range_b == range) {
      for (int k = range.begin; k < range.end; ++k) c_dot[k] = partials.db * b_dot[k];
      for (int k = range_a.begin; k < range_a.end; ++k) c_dot[k] += partials.da * a_dot[k];
    } else {
      std::fill(c_dot + range.begin, c_dot + range.end, 0.0);
      for (int k = range_a.begin; k < range_a.end; ++k) c_dot[k] += partials.da * a_dot[k];
      for (int k = range_b.begin; k < range_b.end; ++k) c_dot[k] += partials.db * b_dot[k];
    }
    return c;
  }

  /// The reverse sweep from y = seed × `output`: afterwards adjoint(x) = ∂y/∂x for every recorded
  /// x, and adjoint_tangent(x, k) its tangents for the variables whose adjoint tangents are wanted.
  void differentiate(int output, double seed = 1.0) {
    reverse_.assign(nodes_.size(), Reverse{});
    reverse_[output].adjoint = seed;
    reverse_[output].reached = true;
    for (int c = output; c >= 0; --c) {
      const Node& node = nodes_[c];
      if (!reverse_[c].reached || node.a == no_argument) continue;  // no path to the output, or an input
      if (!node.leads_to_wanted) {  // neither do its arguments: the adjoint alone
        propagate_adjoint(c, node.a, node.partials.da);
        if (node.b != no_argument) propagate_adjoint(c, node.b, node.partials.db);
        continue;
      }
      propagate(c, node.a, node.partials.da, node.partials.daa, node.partials.dab, node.b);
      if (node.b != no_argument) propagate(c, node.b, node.partials.db, node.partials.dbb, node.partials.dab, node.a);
    }
  }

  /// The reverse sweep of first derivatives only, from y = seed × `output`: afterwards
  /// adjoint(x) = ∂y/∂x for every recorded x, and no adjoint tangents. The adjoints are those of
  /// differentiate(), which passes them on the same way.
  void differentiate_first_order(int output, double seed = 1.0) {
    reverse_.assign(nodes_.size(), Reverse{});
    reverse_[output].adjoint = seed;
    reverse_[output].reached = true;
    for (int c = output; c >= 0; --c) {
      const Node& node = nodes_[c];
      if (!reverse_[c].reached || node.a == no_argument) continue;  // no path to the output, or an input
      propagate_adjoint(c, node.a, node.partials.da);
      if (node.b != no_argument) propagate_adjoint(c, node.b, node.partials.db);
    }
  }

  /// After differentiate_first_order(): the second derivatives of y along the directions, in the
  /// rows [first_row, end_row), each up to its own column (the lower triangle; the Hessian is
  /// symmetric). They are the second-order chain rule summed over the recorded operations
  /// c = g(a, b): Σ_c c̄ (g_aa ȧ ȧᵀ + g_ab (ȧ ḃᵀ + ḃ ȧᵀ) + g_bb ḃ ḃᵀ), c̄ = ∂y/∂c. Read them with
  /// second_derivative().
  void accumulate_second_derivatives(int first_row, int end_row) {
    first_row_ = first_row;
    const Range rows{first_row, end_row};
    second_derivatives_.assign(offset(end_row - first_row), 0.0);  // a row of directions_ per row
    for (int c = size() - 1; c >= 0; --c) {
      const Node& node = nodes_[c];
      const double adjoint_c = reverse_[c].adjoint;
      if (adjoint_c == 0.0 || node.a == no_argument) continue;
      const TapePartials& g = node.partials;
      const Range range_a = nodes_[node.a].tangents;
      const double* a_dot = tangent_row(node.a);
      add_outer_product(rows, adjoint_c * g.daa, range_a, a_dot, range_a, a_dot);
      if (node.b == no_argument) continue;
      const Range range_b = nodes_[node.b].tangents;
      const double* b_dot = tangent_row(node.b);
      add_outer_product(rows, adjoint_c * g.dab, range_a, a_dot, range_b, b_dot);
      add_outer_product(rows, adjoint_c * g.dab, range_b, b_dot, range_a, a_dot);
      add_outer_product(rows, adjoint_c * g.dbb, range_b, b_dot, range_b, b_dot);
    }
  }
  /// ∂²y along directions `row` and `column`, column ≤ row, from accumulate_second_derivatives().
  double second_derivative(int row, int column) const { return second_derivative_row(row)[column]; }

  double adjoint(int node) const { return reverse_[node].adjoint; }
  double adjoint_tangent(int node, int direction) const {
    const Range& range = reverse_[node].tangents;
    return range.contains(direction) ? adjoint_tangent_row(node)[direction] : 0.0;
  }

 private:
  /// Directions [begin, end) outside which tangents are zero; empty when begin == end.
  struct Range {
    int begin = 0, end = 0;
    bool empty() const { return begin >= end; }
    bool contains(int k) const { return begin <= k && k < end; }
    Range hull(const Range& other) const {
      if (empty()) return other;
      if (other.empty()) return *this;
      return {std::min(begin, other.begin), std::max(end, other.end)};
    }
    bool operator==(const Range&) const = default;
  };
  struct Node {
    int a, b;
    Range tangents;
    bool leads_to_wanted;  ///< depends on a variable whose adjoint tangents are wanted
    TapePartials partials;
  };
  struct Reverse {
    double adjoint = 0;
    Range tangents;  ///< where the adjoint's tangents may be nonzero
    bool reached = false;
  };

  /// Where a row of directions_ entries begins: a node's tangents, or a direction's second
  /// derivatives (counted from first_row_).
  std::size_t offset(int row) const { return static_cast<std::size_t>(row) * static_cast<std::size_t>(directions_); }
  double* tangent_row(int node) { return tangent_rows_.data() + offset(node); }
  const double* tangent_row(int node) const { return tangent_rows_.data() + offset(node); }
  double* second_derivative_row(int row) { return second_derivatives_.data() + offset(row - first_row_); }
  const double* second_derivative_row(int row) const {
    return second_derivatives_.data() + offset(row - first_row_);
  }
  double* adjoint_tangent_row(int node) { return adjoint_tangent_rows_.data() + offset(node); }
  const double* adjoint_tangent_row(int node) const { return adjoint_tangent_rows_.data() + offset(node); }

  /// Room for a row of tangents and of adjoint tangents per node. Rows are written only within
  /// their ranges, so storage grows without being cleared.
  void reserve_rows() {
    if (size() > row_capacity_) grow_rows();
  }
  [[gnu::noinline]] void grow_rows() {
    row_capacity_ = std::max(size(), 2 * row_capacity_);
    tangent_rows_.resize(offset(row_capacity_));
    adjoint_tangent_rows_.resize(offset(row_capacity_));
  }

  static void zero_new_part(double* row, const Range& old, const Range& wider) {
    if (wider == old) return;
    if (old.empty()) {
      std::fill(row + wider.begin, row + wider.end, 0.0);
    } else {
      std::fill(row + wider.begin, row + old.begin, 0.0);
      std::fill(row + old.end, row + wider.end, 0.0);
    }
  }

  /// H[r][k] += w x_r y_k for the rows r of `rows` within x's range and the columns k ≤ r of y's
  /// range.
  void add_outer_product(const Range& rows, double w, const Range& x_range, const double* x,
                         const Range& y_range, const double* __restrict y) {
    if (w == 0.0) return;
    const int row_begin = std::max(rows.begin, x_range.begin), row_end = std::min(rows.end, x_range.end);
    for (int r = row_begin; r < row_end; ++r) {
      const double w_x = w * x[r];
      double* __restrict h = second_derivative_row(r);
      const int column_end = std::min(y_range.end, r + 1);
      for (int k = y_range.begin; k < column_end; ++k) h[k] += w_x * y[k];
    }
  }

  /// x̄ += d c̄ for c's argument x, d = ∂c/∂x.
  void propagate_adjoint(int c, int x, double d) {
    reverse_[x].reached = true;
    reverse_[x].adjoint += d * reverse_[c].adjoint;
  }

  /// The share of c's adjoint that reaches its argument x, where d = ∂c/∂x, d_xx = ∂²c/∂x² and
  /// d_xy = ∂²c/∂x∂y with the other argument y (no_argument for a function of x alone):
  ///   x̄ += d c̄ ,   x̄' += d c̄' + c̄ (d_xx ẋ + d_xy ẏ),
  /// the second only where x leads to a variable whose adjoint tangents are wanted.
  void propagate(int c, int x, double d, double d_xx, double d_xy, int y) {
    propagate_adjoint(c, x, d);
    if (!nodes_[x].leads_to_wanted) return;
    Reverse& at_x = reverse_[x];
    const Reverse& at_c = reverse_[c];
    const double curvature_x = at_c.adjoint * d_xx;
    const double curvature_y = y == no_argument ? 0.0 : at_c.adjoint * d_xy;
    const Range from_c = d != 0.0 ? at_c.tangents : Range{};
    const Range from_x = curvature_x != 0.0 ? nodes_[x].tangents : Range{};
    const Range from_y = curvature_y != 0.0 ? nodes_[y].tangents : Range{};
    const Range wider = at_x.tangents.hull(from_c).hull(from_x).hull(from_y);
    double* __restrict x_bar_dot = adjoint_tangent_row(x);
    zero_new_part(x_bar_dot, at_x.tangents, wider);
    at_x.tangents = wider;
    const double* __restrict c_bar_dot = adjoint_tangent_row(c);
    for (int k = from_c.begin; k < from_c.end; ++k) x_bar_dot[k] += d * c_bar_dot[k];
    const double* __restrict x_dot = tangent_row(x);
    for (int k = from_x.begin; k < from_x.end; ++k) x_bar_dot[k] += curvature_x * x_dot[k];
    if (from_y.empty()) return;
    const double* __restrict y_dot = tangent_row(y);
    for (int k = from_y.begin; k < from_y.end; ++k) x_bar_dot[k] += curvature_y * y_dot[k];
  }

  int directions_;
  int row_capacity_ = 0;  ///< nodes whose rows the storage holds
  std::vector<Node> nodes_;
  std::vector<double> tangent_rows_;          // a row of directions_ per node
  std::vector<double> adjoint_tangent_rows_;  // likewise
  std::vector<Reverse> reverse_;
  int first_row_ = 0;                       ///< of second_derivatives_
  std::vector<double> second_derivatives_;  // a row of directions_ per direction from first_row_
};

/// The calling thread's tape for the library's evaluations (lagrange_terms.hpp,
/// energy_gradient.hpp): each clears it and reuses its storage, so that evaluations after the
/// first allocate nothing. None of them runs inside another.
inline SecondOrderTape& thread_tape() {
  thread_local SecondOrderTape tape;
  return tape;
}

}  // namespace energy_audit
