#pragma once
/// \file
/// What SUNDIALS' C callbacks of an adapter reach through user_data: the guard that keeps
/// exceptions on this side of the C frames, SUNDIALS' last error message, and the warnings
/// printed so far.

#include <set>
#include <string>

#include <nvector/nvector_serial.h>

#include <energy_audit/all_finite.hpp>
#include <energy_audit/types.hpp>

#include "energy_audit/sundials/callback_guard.hpp"

namespace energy_audit::sun::detail {

/// The base of each adapter's problem; it is what user_data points to.
struct CallbackData {
  CallbackGuard guard;
  std::string last_message;             ///< SUNDIALS' last error message, kept instead of printed
  std::set<std::string> warnings_seen;  ///< the warnings of this run, each printed once
};

/// An error message of SUNDIALS: kept for the failure it comes with. Never throws.
void note_sundials_error(CallbackData& data, const char* message) noexcept;

/// A warning of SUNDIALS: printed to stderr ("energy-audit: SUNDIALS warning: ...", one line)
/// the first time its text appears in the run. Never throws.
void note_sundials_warning(CallbackData& data, const char* message) noexcept;

/// The message of a failure: SUNDIALS' own, or for the adapters' whole-run step
/// budget (too_much_work, which SUNDIALS did not see as such) the budget that ran out.
std::string failure_message(const CallbackData& data, bool too_much_work, long max_steps);

/// The problem of type Problem (derived from CallbackData) behind user_data.
template <class Problem>
Problem& problem_of(void* user_data) {
  return static_cast<Problem&>(*static_cast<CallbackData*>(user_data));
}

/// An Eigen view of a serial N_Vector (the adapters make only serial vectors).
inline Eigen::Map<Vector> view(N_Vector v) { return {NV_DATA_S(v), static_cast<Index>(NV_LENGTH_S(v))}; }

}  // namespace energy_audit::sun::detail
