// arkode_drop_in.hpp compiles after the macros SUNDIALS' C examples define, names none of them,
// and leaves them to the program (arkode_audit_test.cpp calls this).
// clang-format off
#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>

#include "sundials_example_macros.h"

#include <energy_audit/sundials/arkode_drop_in.hpp>
// clang-format on

/// NEQ + Y1 + ONE + T0 + ZERO after the header, with an ArkodeAudit made there: 5 when the
/// macros are still the program's.
double arkode_header_macros_sum() {
  const energy_audit::sun::ArkodeAudit audit(
      1, {[](const double*, const double* v, double) { return 0.5 * v[0] * v[0]; },
          [](const double* q, double) { return 0.5 * q[0] * q[0]; }});
  return audit.dofs() == 1 ? NEQ + Y1 + ONE + T0 + ZERO : -1.0;
}
