#pragma once
/// \file
/// The progress line of a study (compare, sweep, stability, advise) on standard error, and of a
/// single run of the Python module on sys.stderr:
///
///     sweep of crane: 12/48 runs, 3.1 s elapsed, about 9.3 s left
///     energy_audit.run crane cvode-bdf: t = 2.5 of 5 (50%), 1234 steps, 0.3 s elapsed, about 0.3 s left
///
/// rewritten in place (carriage return) as runs finish, at most every 0.2 s, and ended with a
/// newline and the final count when the stage ends. A stage whose work is not known in advance
/// (advise's searches, stability's boundary searches) shows what is done and the time elapsed,
/// no estimate. The runs are counted by the run pool (run_pool.hpp) as they finish; a study only
/// starts its stages. Shown on a terminal, or when asked for (--progress); never with --quiet,
/// and only by the leading MPI rank. Standard output is untouched.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace energy_audit::studies {

/// Whether a study shows its progress line: --quiet turns it off, --progress on, and by default
/// it is shown when standard error is a terminal; only the leading rank of an MPI job shows it.
bool progress_shown(bool quiet, bool forced, bool leads);

/// A duration as progress lines show it: "4.2 s", "3 min 07 s", "2 h 05 min".
std::string duration_text(double seconds);

class ProgressLine {
 public:
  /// A line that shows nothing: every call returns at once.
  ProgressLine() = default;
  /// Where the line's text goes, written and flushed at once (a redraw starts with a carriage
  /// return, the stage's end ends with a newline).
  using Sink = std::function<void(const std::string& text)>;
  /// A line on standard error when `shown`, or into `sink` when one is given.
  explicit ProgressLine(bool shown, Sink sink = {});
  /// Ends an open stage, so that what follows starts on its own line.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Starts a stage, ending the one before: `what` ("sweep of crane"), `total` items of `unit`
  /// ("runs"; total 0: not known in advance) and, for searches of unknown length, one named
  /// counter per item (advise: the probes of each method's search).
  void start(std::string what, std::size_t total, std::string unit = "runs",
             std::vector<std::string> counters = {});
  /// Starts a stage that covers [t0, t1] in time (an adaptive run: its steps are not known in
  /// advance), ending the one before; reach() tells it how far it got.
  void start_interval(std::string what, double t0, double t1);
  /// `count` more units done.
  void advance(std::size_t count);
  /// `done` units done in all (a run that counts its own steps); in a stage over an interval,
  /// the time `t` reached too.
  void reach(std::size_t done, double t = 0);
  /// One more on item `item`'s counter (advise: a probe of that method).
  void count(std::size_t item);
  /// Item `item`'s counter is `count`: what a search on another MPI rank made, once gathered.
  void set_count(std::size_t item, std::size_t count);
  /// Item `item` is done (its counter, if any, leaves the running line).
  void close(std::size_t item);
  /// Ends the stage: the final count and a newline.
  void finish();

  bool shown() const { return shown_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Counter {
    std::string name;
    std::size_t count = 0;
    bool closed = false;
  };
  /// Opens a stage (the mutex held).
  void open_stage(std::string what, std::size_t total, std::string unit, std::vector<std::string> counters);
  /// Draws the line when 0.2 s have passed since the last drawing, or when `now_anyway`.
  void draw(bool now_anyway);
  std::string text(bool final) const;
  /// Into the sink, or onto standard error.
  void write(const std::string& text);

  bool shown_ = false;
  Sink sink_;
  std::mutex mutex_;
  bool open_ = false;
  std::string what_, unit_;
  std::size_t total_ = 0, done_ = 0;
  bool over_interval_ = false;  ///< a stage over [t0_, t1_], at t_
  double t0_ = 0, t1_ = 0, t_ = 0;
  std::vector<Counter> counters_;
  Clock::time_point started_, drawn_;
  std::size_t drawn_length_ = 0;  ///< of the line last drawn, which the next one overwrites
};

}  // namespace energy_audit::studies
