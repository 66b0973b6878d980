/* cvode_drop_in.h compiles as C99 after the macros SUNDIALS' C examples define, names none of
 * them, and leaves them to the program. */
#define T0 SUN_RCONST(0.0)
#define T1 SUN_RCONST(0.4)
#define TOUT SUN_RCONST(1.0)
#define NEQ 3
#define NOUT 12
#define RTOL SUN_RCONST(1.0e-4)
#define ATOL SUN_RCONST(1.0e-8)
#define Y1 SUN_RCONST(1.0)
#define ZERO SUN_RCONST(0.0)
#define HALF SUN_RCONST(0.5)
#define ONE SUN_RCONST(1.0)
#define TWO SUN_RCONST(2.0)
#define PI SUN_RCONST(3.141592653589793)
#define GRAV SUN_RCONST(13.75)
#define Ith(v, i) NV_Ith_S(v, i - 1)
#define IJth(A, i, j) SM_ELEMENT_D(A, i - 1, j - 1)
#define SQR(x) ((x) * (x))

#include <energy_audit/sundials/cvode_drop_in.h>

double c_header_macros_sum(void);

/* NEQ + Y1 + ONE + T0 + ZERO: the program's macros, 5 after the header too. */
double c_header_macros_sum(void) { return NEQ + Y1 + ONE + T0 + ZERO; }
