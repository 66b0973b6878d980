/* arkode_drop_in.h compiles as C99 after the macros SUNDIALS' C examples define, names none of
 * them, and leaves them to the program. */
#include "sundials_example_macros.h"

#include <energy_audit/sundials/arkode_drop_in.h>

double c_arkode_header_macros_sum(void);

/* NEQ + Y1 + ONE + T0 + ZERO: the program's macros, 5 after the header too. */
double c_arkode_header_macros_sum(void) { return NEQ + Y1 + ONE + T0 + ZERO; }
