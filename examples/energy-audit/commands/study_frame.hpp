#pragma once
/// \file
/// What every study command (compare, sweep, advise, diagnose, stability) shares: its options
/// --threads, --quiet and --progress (StudyOptions), and the frame of its run (StudyFrame): the
/// progress line and the pool of runs first, the outputs opened and the interruption handlers
/// installed just before the runs, and at the end the progress line finished, the result printed
/// and the outputs committed.

#include <functional>
#include <iosfwd>
#include <string>

#include <CLI/CLI.hpp>

#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_pool.hpp>

#include "command_outputs.hpp"
#include "mpi_session.hpp"
#include "option_groups.hpp"

namespace energy_audit::cli {

/// The machine's cores, at least 1: the studies' default number of threads.
unsigned machine_cores();

struct StudyOptions {
  unsigned threads = machine_cores();  ///< the default of --threads
  ProgressOptions progress;
  CLI::Option* threads_option = nullptr;

  /// Adds --threads (`threads_help` says what runs on them) and the progress options; `threads`
  /// is the default.
  void add_to(CLI::App& command, const std::string& threads_help);
};

class StudyFrame {
 public:
  /// The progress line (shown as `options` and the session say) and the pool of the study's runs:
  /// the MPI ranks, or --threads threads (run_pool).
  StudyFrame(const StudyOptions& options, const MpiSession& session);
  StudyFrame(const StudyFrame&) = delete;
  StudyFrame& operator=(const StudyFrame&) = delete;

  const RunPool& pool() const { return pool_; }
  bool leads() const { return pool_.leads(); }

  /// Checks `outputs` and opens them (across ranks, rank 0 writes), then installs the
  /// interruption handlers: from here on an interruption ends the runs at their next step
  /// boundary and the outputs hold what was computed. Returns the request the runs watch.
  const StopRequest* start(CommandOutputs& outputs);

  /// Finishes the progress line, prints the result on standard output and flushes it, then
  /// commits the outputs (`commit`, which calls outputs.commit for each).
  void finish(const std::function<void(std::ostream&)>& print, const std::function<void()>& commit);

 private:
  ProgressLine progress_line_;
  RunPool pool_;
};

}  // namespace energy_audit::cli
