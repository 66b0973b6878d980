// A planted violation for check_layering.cmake: studies/ including the SUNDIALS plugin.
#include <energy_audit/sundials/cvodes_options.hpp>
