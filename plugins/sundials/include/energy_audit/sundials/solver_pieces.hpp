#pragma once
/// \file
/// Times at which a model's right-hand side jumps (a prescribed acceleration that changes piece,
/// say) cut the interval into pieces. A multistep solver that steps across such a time keeps a
/// history from the other side and cuts its step down by repeated error-test failures; the
/// adapters instead stop exactly at the jump (the stop time) and start the solver again there from
/// the state reached (CVodeReInit, IDAReInit; Z carried), as one continuous run for the observer.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "energy_audit/solver_counters.hpp"
#include "energy_audit/sundials/solver_error.hpp"

namespace energy_audit::sun {

/// The ends of the pieces that `breakpoints` cut [t0, t1] into, in order, t1 last; breakpoints
/// outside (t0, t1) are left out, and repeated ones count once.
inline std::vector<double> piece_ends(double t0, double t1, std::vector<double> breakpoints) {
  std::erase_if(breakpoints, [&](double t) { return !(t > t0 && t < t1); });
  // Iterators, not std::ranges::unique: its subrange does not compile with clang 14 and libstdc++ 12.
  std::sort(breakpoints.begin(), breakpoints.end());
  breakpoints.erase(std::unique(breakpoints.begin(), breakpoints.end()), breakpoints.end());
  breakpoints.push_back(t1);
  return breakpoints;
}

/// The pieces of one adaptive run, walked in order, with the counts of the pieces finished (a
/// restart sets the solver's counters to 0).
class SolverPieces {
 public:
  SolverPieces(double t0, double t1, const std::vector<double>& breakpoints)
      : ends_(piece_ends(t0, t1, breakpoints)) {}

  /// Where the current piece ends: the solver's stop time.
  double end() const { return ends_[index_]; }
  /// Whether the solver, at t, finished a piece that is not the last.
  bool finished_piece_at(double t) const { return t == ends_[index_] && index_ + 1 < ends_.size(); }
  /// Moves on to the next piece, keeping the solver's counts over the piece it finished.
  void begin_next_piece(const SolverCounters& finished_piece) {
    earlier_ += finished_piece;
    ++index_;
  }
  /// The counts of the whole run, given the solver's over the current piece.
  SolverCounters counters(const SolverCounters& current_piece) const {
    SolverCounters all = earlier_;
    all += current_piece;
    return all;
  }
  /// Runs step(); a SolverFailure it throws is thrown again with the counts of the whole run.
  template <class Step>
  void counting_every_piece(Step&& step) const {
    try {
      step();
    } catch (const SolverFailure& failure) {
      throw SolverFailure(failure, counters(failure.counters()));
    }
  }

 private:
  std::vector<double> ends_;
  std::size_t index_ = 0;
  SolverCounters earlier_;
};

}  // namespace energy_audit::sun
