#include "energy_audit/sundials/handles.hpp"

#include <energy_audit/error.hpp>

namespace energy_audit::sun {

NVector make_serial_vector(sunindextype length, SUNContext context) {
  NVector v(N_VNew_Serial(length, context));
  if (!v) throw energy_audit::Error("N_VNew_Serial could not allocate a vector");
  return v;
}

}  // namespace energy_audit::sun
