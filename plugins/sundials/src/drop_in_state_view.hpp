#pragma once
/// \file
/// The program's q, v (or p) and λ read from the solver's state through its layout
/// (DropInLayout): a part that lies in consecutive entries is read in place, any other is
/// gathered into the view's own array.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "energy_audit/sundials/drop_in_layout.hpp"

namespace energy_audit::sun::detail {

class DropInStateView {
 public:
  /// The default layout of n coordinates: y = [q, v, λ...].
  explicit DropInStateView(int dofs)
      : dofs_(dofs), coordinates_(Part::consecutive(0)), velocities_(Part::consecutive(dofs)),
        multipliers_(Part::consecutive(2L * dofs)) {}

  /// Reads the state through `layout` from now on; throws InvalidArgument (naming `audit_name`
  /// and the index) for lists that are not n long, a negative index or one used twice.
  void use(const DropInLayout& layout, const char* audit_name);
  bool laid_out() const { return laid_out_; }

  /// Throws InvalidArgument when the state of `length` entries (this process's) does not hold
  /// the layout: an index at or past its end, a declared length that is not `length`, or, for
  /// the default layout, fewer than 2n (+ 1 with `multipliers`) entries. `solver` ("CVODE")
  /// names the solver in the message.
  void check(long length, bool multipliers, const char* audit_name, const char* solver) const;

  const double* coordinates(const double* y) { return coordinates_.read(y); }
  const double* velocities(const double* y) { return velocities_.read(y); }
  /// q and v of the state y at once: where both are strided alike (one body after another), in
  /// one pass over y.
  std::pair<const double*, const double*> coordinates_and_velocities(const double* y) {
    if (coordinates_.indices.empty() && velocities_.indices.empty() && coordinates_.stride == velocities_.stride &&
        coordinates_.stride > 1 && coordinates_.count == velocities_.count) {
      const long count = coordinates_.count, stride = coordinates_.stride;
      coordinates_.values.resize(static_cast<std::size_t>(count));
      velocities_.values.resize(static_cast<std::size_t>(count));
      const double* q = y + coordinates_.first;
      const double* v = y + velocities_.first;
      double* q_out = coordinates_.values.data();
      double* v_out = velocities_.values.data();
      for (long i = 0; i < count; ++i) {
        q_out[i] = q[i * stride];
        v_out[i] = v[i * stride];
      }
      return {q_out, v_out};
    }
    return {coordinates(y), velocities(y)};
  }
  const double* multipliers(const double* y) { return multipliers_.read(y); }
  /// The velocities' entries of another vector like the state (y' for the accelerations), into
  /// an array of their own.
  const double* velocities_of(const double* other) { return velocities_.read(other, rates_); }
  /// The coordinates' entries of y', q̇, into an array of their own.
  const double* coordinates_of(const double* other) { return coordinates_.read(other, rates_); }

 private:
  /// One part of the state: entries first, first + stride, ... (read in place when the stride is
  /// 1), or the entries `indices` gathered.
  struct Part {
    long first = 0, stride = 1;  // when `indices` is empty
    long count = 0;              // the entries when strided (0 for the default layout's λ: not gathered)
    std::vector<long> indices;   // the entries when neither
    std::vector<double> values;

    static Part consecutive(long first) { return Part{first, 1, 0, {}, {}}; }
    static Part of(const std::vector<long>& indices);
    const double* read(const double* y) { return read(y, values); }
    const double* read(const double* y, std::vector<double>& into) const {
      if (indices.empty()) {
        if (stride == 1) return y + first;
        into.resize(static_cast<std::size_t>(count));
        for (long i = 0; i < count; ++i) into[static_cast<std::size_t>(i)] = y[first + i * stride];
        return into.data();
      }
      into.resize(indices.size());
      for (std::size_t i = 0; i < indices.size(); ++i) into[i] = y[indices[i]];
      return into.data();
    }
  };

  int dofs_;
  bool laid_out_ = false;
  DropInLayout layout_;
  Part coordinates_, velocities_, multipliers_;
  std::vector<double> rates_;
};

}  // namespace energy_audit::sun::detail
