#pragma once
// A planted violation for check_layering.cmake: lib/ including the studies and SUNDIALS.
#include <energy_audit/studies/run_model.hpp>
#include <cvodes/cvodes.h>
