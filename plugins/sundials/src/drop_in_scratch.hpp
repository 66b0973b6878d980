#pragma once
/// \file
/// The vectors like the solver's state that a drop-in audit uses during one solve call: none is
/// kept between calls, so the audit holds no SUNDIALS object that could outlive its context.

#include <energy_audit/error.hpp>

#include <nvector/nvector_serial.h>

#include "energy_audit/sundials/handles.hpp"

namespace energy_audit::sun::detail {

/// A vector like the state, owned for one call only.
inline NVector clone(N_Vector state) {
  NVector vector(N_VClone(state));
  if (!vector) throw Error("N_VClone could not make a scratch vector for the audit");
  return vector;
}

/// A vector like the state for interpolation, made on its first use in a call: with Z as the
/// solver's quadrature most calls need none.
class Scratch {
 public:
  explicit Scratch(N_Vector state) : state_(state) {}
  N_Vector vector() {
    if (!owned_) owned_ = clone(state_);
    return owned_.get();
  }
  /// Frees the vector until its next use.
  void release() { owned_.reset(); }

 private:
  N_Vector state_;
  NVector owned_;
};

}  // namespace energy_audit::sun::detail
