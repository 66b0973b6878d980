#pragma once
/// \file
/// The integration of one concrete system, compiled for its type and for the method families
/// given (method_family.hpp): the command line runs each model through the same templates a C++
/// program would call, with no virtual call per right-hand side.

#include <exception>

#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {

/// Integrates `system` from y over outcome.interval with the method of `settings`, by the family
/// of Families it belongs to, watched by outcome.audit when there is one. A failure ends the run
/// as RunEnd::Error with its message; it does not throw.
template <class Families, class System>
void run_system(RunOutcome& outcome, const System& system, Vector y, const RunSettings& settings) {
  try {
    Families::dispatch(settings.method, [&](auto family) { decltype(family)::run(outcome, system, y, settings); });
  } catch (const std::exception& e) {  // the model's own exceptions end the run the same way
    outcome.end = RunEnd::Error;
    outcome.error = e.what();
  }
}

}  // namespace energy_audit::studies
