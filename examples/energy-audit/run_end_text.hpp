#pragma once
/// \file
/// How a run ended, as the records and verdicts name it.

#include <energy_audit/run_end.hpp>

namespace energy_audit::cli {

/// "finished", "diverged", "error" or "interrupted": the JSON records' "end", and the verdict of
/// a run that did not finish.
constexpr const char* run_end_name(RunEnd end) {
  switch (end) {
    case RunEnd::Diverged: return "diverged";
    case RunEnd::Error: return "error";
    case RunEnd::Interrupted: return "interrupted";
    case RunEnd::Finished: break;
  }
  return "finished";
}

}  // namespace energy_audit::cli
