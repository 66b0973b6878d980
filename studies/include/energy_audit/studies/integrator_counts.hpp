#pragma once
/// \file
/// What an integrator's result counted, the same way for every integrator: a fixed-step result
/// counts its steps and right-hand sides itself, an adaptive solver's in its counters
/// (solver_counters.hpp), where the right-hand sides of its difference-quotient Jacobians count too.

#include <cstddef>

namespace energy_audit::studies {

struct IntegratorCounts {
  std::size_t steps = 0;
  std::size_t rhs_evaluations = 0;
};

template <class Result>
IntegratorCounts counts_of(const Result& result) {
  if constexpr (requires { result.counters; }) {
    return {static_cast<std::size_t>(result.counters.steps),
            static_cast<std::size_t>(result.counters.rhs_evaluations + result.counters.jacobian_rhs_evaluations)};
  } else {
    return {result.steps, result.rhs_evaluations};
  }
}

}  // namespace energy_audit::studies
