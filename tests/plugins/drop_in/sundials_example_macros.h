/* Macros SUNDIALS' C examples define (times T0..T3, tolerances, constants, index helpers), and the
 * names of them that Eigen or the core use (C3, L), for the header-hygiene tests of the drop-in
 * headers in C++ (drop_in_header_hygiene_test.cpp) and in C (c_header_after_macros.c). Included
 * after SUNDIALS' own headers and before the header under test; valid C and C++. */
#ifndef ENERGY_AUDIT_TESTS_SUNDIALS_EXAMPLE_MACROS_H
#define ENERGY_AUDIT_TESTS_SUNDIALS_EXAMPLE_MACROS_H

#define T0 SUN_RCONST(0.0)
#define T1 SUN_RCONST(0.4)
#define T2 SUN_RCONST(0.8)
#define T3 SUN_RCONST(1.2)
#define C3 SUN_RCONST(3.0)
#define L SUN_RCONST(2.0)
#define TOUT SUN_RCONST(1.0)
#define TMULT SUN_RCONST(10.0)
#define DTOUT SUN_RCONST(0.5)
#define NEQ 3
#define NOUT 12
#define RTOL SUN_RCONST(1.0e-4)
#define ATOL SUN_RCONST(1.0e-8)
#define ATOL1 SUN_RCONST(1.0e-8)
#define ATOL2 SUN_RCONST(1.0e-14)
#define ATOL3 SUN_RCONST(1.0e-6)
#define Y1 SUN_RCONST(1.0)
#define Y2 SUN_RCONST(0.0)
#define Y3 SUN_RCONST(0.0)
#define ZERO SUN_RCONST(0.0)
#define HALF SUN_RCONST(0.5)
#define ONE SUN_RCONST(1.0)
#define TWO SUN_RCONST(2.0)
#define PI SUN_RCONST(3.141592653589793)
#define GRAV SUN_RCONST(13.75)
#define GSYM "g"
#define ESYM "e"
#define FSYM "f"
#define Ith(v, i) NV_Ith_S(v, i - 1)
#define IJth(A, i, j) SM_ELEMENT_D(A, i - 1, j - 1)
#define SIN(x) (sin((x)))
#define COS(x) (cos((x)))
#define SQRT(x) (sqrt((x)))
#define ABS(x) (fabs((x)))

#endif
