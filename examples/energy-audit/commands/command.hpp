#pragma once
/// \file
/// A command of energy-audit: added to the application before the arguments are parsed, executed
/// after; and the exit statuses it returns.

#include <functional>

#include <CLI/CLI.hpp>

#include "mpi_session.hpp"

namespace energy_audit::cli {

/// Exit statuses: 0 finished (whatever the verdict), 1 run-time failure or divergence, 2 usage
/// error, 3 failed verdict with --fail-on-verdict, 128 + N after signal N (130, 143).
inline constexpr int exit_finished = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_verdict = 3;

/// 128 + the signal's number after an interruption, else `status`.
int exit_status(int status);

/// A command added to the application: its subcommand, and what runs it once parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int(const MpiSession&)> execute;
  /// Whether the command spreads its runs over MPI ranks under mpirun (compare, sweep, advise,
  /// stability); the others refuse more than one rank.
  bool spreads_over_ranks = false;
};

}  // namespace energy_audit::cli
