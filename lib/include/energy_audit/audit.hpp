#pragma once
/// \file
/// The energy audit: an observer that sees every accepted step and judges the drift of
/// C = H + Z (docs/mathematics.md).

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "energy_audit/energy_sample.hpp"
#include "energy_audit/equation_check.hpp"
#include "energy_audit/equation_residual.hpp"
#include "energy_audit/history.hpp"
#include "energy_audit/named_forces.hpp"
#include "energy_audit/run_end.hpp"
#include "energy_audit/run_progress.hpp"
#include "energy_audit/system_concepts.hpp"
#include "energy_audit/work_ledger.hpp"

namespace energy_audit {

struct AuditOptions {
  double threshold = 1e-3;  ///< pass when δ_C ≤ threshold (seed 000's criterion)
  /// Multiplier models: pass only when max ‖Φ‖ and max ‖ψ‖ = max ‖G v + g‖ are ≤ this, in the
  /// constraints' own units (‖Φ‖ in those of Φ, e.g. m; ‖ψ‖ in those per second, e.g. m/s).
  double drift_threshold = 1e-3;
  /// Systems with hand-derived accelerations: check Lagrange's equations at the first two states
  /// (at rest a wrong term in the velocities vanishes) and then at every k-th accepted step;
  /// 1 checks every step, 0 none. One check costs less than one evaluation of derived
  /// accelerations (docs/benchmarks.md).
  std::size_t equation_check_every = 100;
  /// Pass only when the equations' relative residual is ≤ this.
  double equation_threshold = default_equation_residual_threshold;
  std::size_t store_every = 1;       ///< keep every k-th accepted step; 0 keeps none
  std::vector<double> output_times;  ///< if given, keep instead the first step at or after each
  RowSink row_sink;                  ///< if given, stored rows go there instead of staying in memory
  RunProgress* progress = nullptr;   ///< if given, told the time and count of every accepted step
};

/// The outcome of an audit. Only a run that covered its whole interval can pass.
enum class Verdict {
  Pass,         ///< finished, and every check within its threshold
  Fail,         ///< finished, and a check (δ_C, constraint drift, equations) above its threshold
  Diverged,     ///< the state, or C, became non-finite before the end
  Error,        ///< the solver or the model failed before the end
  Interrupted,  ///< stopped on request before the end
  Incomplete,   ///< no run was begun and finished over its interval (or none reached its end)
};

/// "pass", "fail", "diverged", "error", "interrupted", "incomplete".
const char* verdict_name(Verdict verdict);

/// Watches an integration; never steps and never writes files. Thinning applies to what is
/// stored, never to what δ_C sees.
///
/// The integrators tell it the interval (begin_run) and how the run ended (end_run); a caller
/// who records samples by hand does the same. Without both, the verdict is Incomplete.
class Audit {
 public:
  explicit Audit(AuditOptions options = {});

  /// The run to be audited covers [t0, t1]. A second call continues the same audit over a
  /// following interval, when the first run finished exactly where the second begins.
  void begin_run(double t0, double t1);
  /// The run ended as `end`, its last observed state at t_reached.
  void end_run(RunEnd end, double t_reached);

  /// Called once per accepted step, the initial state included. Defined inline below: it runs
  /// at every step, and inlined into the integration loop it costs a few instructions.
  void record(const EnergySample& sample);

  /// δ_C = sup |C − C(t0)| / sup max(|E|, |T|, |V|); 0 when both are 0, +inf when only the scale
  /// is, and +inf when an energy was not finite.
  double relative_drift() const;
  double max_abs_drift() const { return max_abs_drift_; }  ///< sup |C − C(t0)| [J]
  /// The first time at which |C − C(t0)| reached its sup (t0 while the drift is 0).
  double time_of_max_drift() const { return time_of_max_drift_; }
  /// The time of the first sample at which |C − C(t0)| > threshold × (sup max(|E|, |T|, |V|) up to
  /// and with that sample); NaN while there is none. A run whose δ_C is above the threshold has
  /// one (docs/mathematics.md, when the drift appears).
  double time_first_above_threshold() const { return time_first_above_threshold_; }
  /// The end time of the accepted step over which |C − C(t0)| rose fastest per unit time, its
  /// increase over the step divided by the step's length; NaN while it has not risen.
  double time_of_fastest_growth() const { return time_of_fastest_growth_; }
  /// Whether an energy, and so C, was not finite at a state seen (its time: time_of_max_drift()):
  /// the run left the finite range there, even where the state itself is finite.
  bool energy_left_finite_range() const { return !std::isfinite(max_abs_drift_); }
  double energy_scale() const { return energy_scale_; }    ///< sup max(|E|, |T|, |V|) [J]
  double initial_control() const { return C0_; }           ///< C(t0) [J]
  double threshold() const { return options_.threshold; }
  double drift_threshold() const { return options_.drift_threshold; }
  Verdict verdict() const;
  bool passed() const { return verdict() == Verdict::Pass; }

  /// How the run ended (absent before end_run), and the time of the last state observed.
  std::optional<RunEnd> run_end() const { return run_end_; }
  double t_reached() const { return t_reached_; }
  double t_begin() const { return t_begin_; }  ///< start of the interval given to begin_run
  double t_end() const { return t_end_; }      ///< end of the interval given to begin_run

  /// sup ‖Φ‖ and sup ‖ψ‖ over every step, for multiplier models (‖Φ‖ NaN for kinematic ones).
  std::optional<ConstraintDrift> max_constraint_drift() const { return max_constraint_drift_; }
  /// Whether the constraint drift is within drift_threshold (true without constraints).
  bool constraint_drift_within_threshold() const;
  /// For each multiplier (multiplier models; empty otherwise), the first time its sign differed
  /// from its sign at t0, NaN while it has not and for one that was 0 at t0. A rope's multiplier
  /// that changes sign means the rope would have to push: it goes slack there.
  const std::vector<double>& multiplier_sign_changes() const { return multiplier_sign_changes_; }

  /// Hands the rows held to the row sink (AuditOptions::row_sink), if any; last_row() stays.
  void flush_history();

  /// Whether the equations are due for a check at the step just recorded (every
  /// equation_check_every-th); the observer then hands the residual to record_equation_residual.
  bool equation_check_due();
  /// The residual at the state recorded last, at its time.
  void record_equation_residual(const EquationResidual& residual) { equation_check_.add(residual, t_reached_); }
  /// The equation check so far; checked_steps() is 0 when the system's equations were not checked.
  const EquationCheck& equation_check() const { return equation_check_; }

  /// Systems whose model names its forces: the work ledger (work_ledger.hpp) of every step
  /// recorded, which the observer opens and feeds; absent otherwise.
  const std::optional<WorkLedger>& work_ledger() const { return work_ledger_; }
  void open_work_ledger(std::vector<std::string> force_names) {
    work_ledger_.emplace(std::move(force_names), /*keep_residual_power=*/false);
  }
  /// The named forces' powers and ∂T/∂t − ∂V/∂t at the step just recorded (the ledger open).
  void record_work(std::span<const double> force_powers, double explicit_time_power);
  /// Whether the observer checks that the named forces sum to f at the step just recorded: at
  /// the first two (at rest a velocity-dependent mismatch vanishes).
  bool named_forces_check_due() const { return !work_ledger_ || work_ledger_->steps() < 2; }

  std::size_t accepted_steps() const { return accepted_steps_; }  ///< samples seen
  const History& history() const { return history_; }
  /// The row of the last sample seen, stored or not; empty before the first.
  std::span<const double> last_row() const;
  /// The columns of last_row() and of the history rows.
  const HistoryLayout& layout() const { return layout_; }

 private:
  void start(const EnergySample& sample);  ///< the first sample: C(t0) and the row layout
  void record_constraint_drift(const ConstraintDrift& drift);
  void record_multiplier_signs(const Vector& multipliers, double t);
  bool should_store(double t);
  bool reached_output_time(double t);
  void record_drift_onset(double drift, double t);

  AuditOptions options_;
  History history_;
  HistoryLayout layout_;
  std::vector<double> unstored_row_;  ///< the row of the last sample when it was not stored
  bool last_row_stored_ = false;
  std::size_t steps_to_next_store_ = 0;  ///< with store_every: steps left before the next stored one
  std::optional<ConstraintDrift> max_constraint_drift_;
  std::vector<int> initial_multiplier_signs_;
  std::vector<double> multiplier_sign_changes_;
  EquationCheck equation_check_;
  std::optional<WorkLedger> work_ledger_;
  std::size_t steps_to_next_equation_check_ = 0;
  std::size_t accepted_steps_ = 0;
  std::size_t next_output_ = 0;
  double last_C_ = 0;  ///< C at the sample recorded last (the work ledger's)
  double C0_ = 0, max_abs_drift_ = 0, time_of_max_drift_ = 0, energy_scale_ = 0;
  double time_first_above_threshold_ = std::numeric_limits<double>::quiet_NaN();
  double time_of_fastest_growth_ = std::numeric_limits<double>::quiet_NaN();
  double fastest_growth_ = 0;              ///< the largest rise of |C − C(t0)| per unit time
  double previous_drift_ = 0, previous_t_ = 0;  ///< |C − C(t0)| and t at the sample before
  bool begun_ = false;
  double t_begin_ = 0, t_end_ = 0, t_reached_ = 0;
  std::optional<RunEnd> run_end_;
};

[[gnu::always_inline]] inline void Audit::record(const EnergySample& sample) {
  if (accepted_steps_ == 0) start(sample);
  const EnergyTerms& e = sample.energy;
  // A NaN compares false: a non-finite C (or C0) makes the drift +inf for good, which fails the
  // audit, where std::max would drop the NaN. A NaN energy makes C NaN, so the scale may skip it.
  last_C_ = sample.C();
  const double drift = std::abs(last_C_ - C0_);
  if (!(drift <= max_abs_drift_)) {
    max_abs_drift_ = std::isnan(drift) ? std::numeric_limits<double>::infinity() : drift;
    time_of_max_drift_ = sample.t;
  }
  const double scale = std::max(std::max(std::abs(e.E()), std::abs(e.T)), std::abs(e.V));
  if (scale > energy_scale_) energy_scale_ = scale;
  record_drift_onset(drift, sample.t);
  if (sample.constraint_drift) record_constraint_drift(*sample.constraint_drift);
  if (sample.multipliers) record_multiplier_signs(*sample.multipliers, sample.t);
  ++accepted_steps_;
  t_reached_ = sample.t;
  if (options_.progress != nullptr) options_.progress->record(sample.t, accepted_steps_);

  // The row is written once, where it stays.
  last_row_stored_ = should_store(sample.t);
  if (last_row_stored_) {
    History::make_row(sample, history_.append_row(layout_));
  } else {
    History::make_row(sample, unstored_row_);  // sized by start()
  }
}

/// When the drift appears: a comparison per sample, and a division where |C − C(t0)| rose.
[[gnu::always_inline]] inline void Audit::record_drift_onset(double drift, double t) {
  // A NaN drift is above every threshold (!(NaN <= x)), as δ_C is +inf then.
  if (std::isnan(time_first_above_threshold_) && !(drift <= options_.threshold * energy_scale_)) {
    time_first_above_threshold_ = t;
  }
  if (accepted_steps_ > 0 && drift > previous_drift_ && t > previous_t_) {
    const double growth = (drift - previous_drift_) / (t - previous_t_);
    if (growth > fastest_growth_) {
      fastest_growth_ = growth;
      time_of_fastest_growth_ = t;
    }
  }
  previous_drift_ = drift;
  previous_t_ = t;
}

inline bool Audit::equation_check_due() {
  if (options_.equation_check_every == 0) return false;
  if (accepted_steps_ <= 2) {  // the initial state and the first step
    steps_to_next_equation_check_ = options_.equation_check_every - 1;
    return true;
  }
  if (steps_to_next_equation_check_ > 0) {
    --steps_to_next_equation_check_;
    return false;
  }
  steps_to_next_equation_check_ = options_.equation_check_every - 1;
  return true;
}

[[gnu::always_inline]] inline void Audit::record_work(std::span<const double> force_powers,
                                                     double explicit_time_power) {
  work_ledger_->record(t_reached_, force_powers, explicit_time_power, last_C_);
}

inline bool Audit::should_store(double t) {
  if (!options_.output_times.empty()) return reached_output_time(t);
  if (options_.store_every == 0) return false;
  if (steps_to_next_store_ > 0) {  // a countdown: cheaper than k % store_every
    --steps_to_next_store_;
    return false;
  }
  steps_to_next_store_ = options_.store_every - 1;
  return true;
}

/// The rates of `system` at (y, t) into dydt, and the sample of y: in one evaluation for a
/// RatesAndSampleSystem, in two otherwise.
template <SampledSystem System>
EnergySample rates_and_sample(const System& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) {
  if constexpr (RatesAndSampleSystem<System>) {
    return system.rates_and_sample(y, dydt, t);
  } else {
    system(y, dydt, t);
    return system.sample(y, t);
  }
}

/// The same with the named forces' powers at y: in one evaluation for a
/// RatesSampleWithPowersSystem, in two otherwise.
template <NamedForcesSystem System>
auto rates_sample_with_powers(const System& system, const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t,
                              bool check_sum) {
  if constexpr (RatesSampleWithPowersSystem<System>) {
    return system.rates_sample_with_powers(y, dydt, t, check_sum);
  } else {
    system(y, dydt, t);
    return system.sample_with_powers(y, t, check_sum);
  }
}

/// The observer (y, t) -> audit.record(system.sample(y, t)) that integrators call; for a
/// NamedForcesSystem it feeds the work ledger from the same evaluation, and for an
/// EquationCheckedSystem it also checks the equations when the audit says they are due.
template <SampledSystem System>
class AuditObserver {
 public:
  AuditObserver(const System& system, Audit& audit) : system_(system), audit_(audit) {}
  void begin_run(double t0, double t1) const { audit_.begin_run(t0, t1); }
  void end_run(RunEnd end, double t_reached) const { audit_.end_run(end, t_reached); }
  /// The integrators end a run as diverged once C is not finite (run_observer.hpp).
  bool left_finite_range() const { return audit_.energy_left_finite_range(); }
  void operator()(const ConstVectorRef& y, double t) const {
    if constexpr (NamedForcesSystem<System>) {
      record(system_.sample_with_powers(y, t, audit_.named_forces_check_due()));
    } else {
      audit_.record(system_.sample(y, t));
    }
    if constexpr (EquationCheckedSystem<System>) {
      if (system_.checks_equations() && audit_.equation_check_due()) {
        audit_.record_equation_residual(system_.equation_residual(y, t));
      }
    }
  }
  /// Evaluates the system's rates at (y, t) into dydt and records y, sharing what the two have
  /// in common: integrate_const calls it for the first stage of the step that leaves y. It takes
  /// the stepper's own vectors, which stay in registers across the call.
  void evaluate_and_observe(const Vector& y, Vector& dydt, double t) const {
    try {
      if constexpr (NamedForcesSystem<System>) {
        record(rates_sample_with_powers(system_, y, dydt, t, audit_.named_forces_check_due()));
      } else {
        audit_.record(rates_and_sample(system_, y, dydt, t));
      }
    } catch (...) {
      audit_.record(system_.sample(y, t));  // y was accepted: the audit sees it even if its rates fail
      throw;
    }
    if constexpr (EquationCheckedSystem<System>) {  // the accelerations at y are in dydt already
      if (system_.checks_equations() && audit_.equation_check_due()) {
        audit_.record_equation_residual(system_.equation_residual_from_rates(y, dydt, t));
      }
    }
  }

 private:
  /// The sample, and the named forces' powers into the work ledger.
  template <std::size_t K>
  [[gnu::always_inline]] void record(const SampleWithPowers<K>& state) const {
    audit_.record(state.sample);
    if (!audit_.work_ledger()) audit_.open_work_ledger(system_.force_names());
    audit_.record_work(state.powers.forces, state.powers.explicit_time);
  }

  const System& system_;
  Audit& audit_;
};

/// watch(system, audit): the observer for integrate_const and the SUNDIALS plugins.
template <SampledSystem System>
AuditObserver<System> watch(const System& system, Audit& audit) {
  return {system, audit};
}

}  // namespace energy_audit
