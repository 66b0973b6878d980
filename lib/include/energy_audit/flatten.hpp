#pragma once
/// \file
/// EA_FLATTEN marks the few functions whose whole call tree GCC should inline into one body
/// (GCC's `flatten`): the derivative evaluations whose nested Dual products and the model's T
/// and V are only fast when the compiler sees them together (lagrange_terms.hpp).
///
/// Under AddressSanitizer the attribute is left out. Instrumenting those flattened bodies, with
/// a model of several coordinates inlined into each, takes many times longer to compile than the
/// same code called out of line, and a sanitizer build checks what the code does, not how fast.
/// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; EA_NO_FLATTEN turns it off by hand.

#if defined(__SANITIZE_ADDRESS__) || defined(EA_NO_FLATTEN)
#define EA_FLATTEN
#else
#define EA_FLATTEN [[gnu::flatten]]
#endif
