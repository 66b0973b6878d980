#pragma once
/// \file
/// One run: a model and a method (a fixed step, or SUNDIALS tolerances), watched by the audit.

#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/history.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/run_end.hpp>
#include <energy_audit/step_aware.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/adaptive_settings.hpp>
#include <energy_audit/solver_counters.hpp>

#include <energy_audit/studies/assignment.hpp>
#include <energy_audit/studies/forms.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/piece_phase_names.hpp>
#include <energy_audit/studies/stabilization.hpp>

namespace energy_audit::studies {

struct ModelEntry;

/// Most steps a fixed-step run may take: more is a usage error (a mistyped step), not a
/// run of hours.
inline constexpr double max_fixed_steps = 1e9;

/// The names of the options that set a run's fields, for messages: the command line's by
/// default; a study that takes lists names its own method, step and rtol options (--methods,
/// --steps, --rtols); Python's keyword arguments with keyword_arguments().
struct OptionNames {
  std::string method = "--method";
  std::string step = "--step";
  std::string rtol = "--rtol";
  bool keywords = false;  ///< spell the other options as keyword arguments (max_steps, not --max-steps)

  /// The option the command line calls `--name` ("max-steps") as this caller spells it.
  std::string operator()(std::string_view name) const;
  /// Python's names: step, rtol, max_steps, ...
  static OptionNames keyword_arguments() { return {"method", "step", "rtol", true}; }
};

/// What the user changed in the model: --set and --init.
struct ModelSetup {
  std::vector<Assignment> parameters;
  std::vector<Assignment> initial_values;
};

/// A model's extra outputs (extra_outputs.hpp) at the state of a history row (its t, q and w),
/// written into `values` (one per name, in the model's order).
using ExtraOutputFunction =
    std::function<void(const HistoryLayout& layout, std::span<const double> row, std::span<double> values)>;

/// What a run saw of the model's extra outputs, at every state the audit saw.
struct ExtraOutputRecord {
  std::vector<std::string> names;
  std::vector<double> initial;         ///< at t0
  std::vector<double> last;            ///< at the last state observed, that of the audit's last row
  std::vector<double> max_abs_change;  ///< sup over the states of |X(t) − X(t0)|, +inf if X was not finite
  std::size_t states = 0;              ///< states observed

  explicit ExtraOutputRecord(std::vector<std::string> output_names);
  void observe(std::span<const double> values);
};

struct RunSettings {
  std::optional<Form> form;           ///< the model's first form when absent
  std::vector<std::string> independent;  ///< Maggi's form: the independent velocities (the model's when empty)
  Method method = default_method();
  double step = 1e-3;                 ///< fixed-step methods
  AdaptiveSettings adaptive;          ///< adaptive methods
  std::string table;                  ///< arkode-erk: its Butcher table by ARKODE's name (empty: its default)
  /// arkode-erk: ARKODE's relaxation with the model's H (SUNDIALS >= 6.6; a model
  /// with an energy gradient, not in Maggi's form).
  bool relax = false;
  Stabilization stabilization = Stabilization::None;
  Baumgarte baumgarte{5.0, 5.0};      ///< used with Stabilization::Baumgarte
  std::optional<double> t_end;        ///< the model's own when absent
  std::optional<PiecePhase> phase;    ///< models with a piecewise excitation (--phase); the model's own when absent
  AuditOptions audit;                 ///< thresholds, what is stored and where it goes
  bool audited = true;  ///< false: y = [q, v], no Ż, no observer (overhead measurements)
  const StopRequest* stop = nullptr;  ///< ends the run at the next step boundary when requested
  OptionNames options;  ///< named in usage errors
  /// The options the caller gave rather than left at their defaults, by their command-line names
  /// without dashes ("rtol", "max-steps"): one that has no effect on the run is a usage error.
  std::set<std::string> given;
  /// The caller's models with constraints (the command line's example models), named by the
  /// message that refuses a method that runs only those to a model without; none: the message
  /// says so in words.
  std::vector<std::string> models_with_constraints;
};

struct RunOutcome {
  std::string model;
  Form form = Form::Lagrange;
  std::vector<std::string> independent;  ///< Maggi's form: the independent velocities, in u's order
  Method method;
  double step = 0;             ///< fixed-step methods
  AdaptiveSettings adaptive;   ///< adaptive methods: the settings they ran with (Z carried in the state
                               ///< where the method has no quadratures or the run is not audited)
  std::string table;           ///< arkode-erk: the Butcher table it ran, by ARKODE's name
  Stabilization stabilization = Stabilization::None;
  Baumgarte baumgarte;
  Interval interval;
  std::optional<PiecePhase> phase;     ///< models with a piecewise excitation: the phase in effect
  std::vector<Assignment> parameters;  ///< the values in effect, in the model's order
  std::size_t steps = 0;       ///< accepted steps
  std::size_t rhs_evaluations = 0;
  std::optional<SolverCounters> solver_counters;  ///< adaptive methods
  std::optional<Audit> audit;  ///< absent when the run was not audited
  /// Models with extra outputs, when the run is audited: their values, tracked beside the audit.
  std::optional<ExtraOutputRecord> extra_outputs;
  double wall_seconds = 0;
  RunEnd end = RunEnd::Finished;
  double t_reached = 0;        ///< time of the last computed (finite) state
  double t_diverged = 0;       ///< RunEnd::Diverged: end of the step that left the state non-finite
  std::string error;           ///< RunEnd::Error: the failure, with SUNDIALS' flag and t

  bool finished() const { return end == RunEnd::Finished; }
  /// The audit's verdict (verdict_name), "unaudited" for a finished run without audit, and
  /// otherwise how the run ended: "diverged", "error" or "interrupted".
  std::string verdict() const;
  /// "diverged at t = 0.61", "interrupted at t = 1.2", "error: CVode failed ..."; empty when finished.
  std::string stop_description() const;
  /// The parameter a compare table varies: the step, or the relative tolerance.
  double resolution() const { return method.adaptive() ? adaptive.rtol : step; }
};

/// The form a run takes: --form, or the model's first.
Form form_of(const ModelEntry& model, const RunSettings& settings);
/// The independent velocities of a run in Maggi's form: --independent, or the model's.
const std::vector<std::string>& independent_velocities_of(const ModelEntry& model, const RunSettings& settings);

/// The methods a run or a study integrates with, for the options that act on some methods only.
struct MethodsUsed {
  bool fixed_step = false, adaptive = false, adams = false;
  std::string names;  ///< as the message names them: "rk4", "rk4, cvode-bdf", "the methods"
};
/// The methods used by one run.
MethodsUsed methods_used(const Method& method);
/// The methods used by a study's runs, named `names` in messages.
MethodsUsed methods_used(const std::vector<Method>& methods, std::string names);
/// Refuses a study's list of steps when none of `used` is a fixed-step method, its list of rtols
/// when none is adaptive; `names` spells the lists (names.step, names.rtol).
void check_lists_apply(const MethodsUsed& used, const OptionNames& names, bool steps_given, bool rtols_given);
/// The methods that run `model` with `setup` and the other settings of `base` (idas runs only the
/// models with constraints): advise's methods when none are named.
std::vector<Method> methods_that_run(const ModelEntry& model, const ModelSetup& setup, const RunSettings& base);

/// Refuses an option given (settings.given) that has no effect on `model` run in its form: the
/// Baumgarte factors without Baumgarte's stabilization, the constraint drift threshold without
/// constraints, the equation check's options where nothing hand-derived is checked or the check
/// is off. Throws SettingsError naming the option as settings.options spells it.
void check_model_options_apply(const ModelEntry& model, const RunSettings& settings);
/// Refuses an option in `given` that has no effect with `methods`: the step without a fixed-step
/// method, the adaptive methods' options without one, the iteration without a method that chooses
/// it (cvode-adams). The messages name the methods of `offered` (every method the caller has) that
/// the option applies to; `at_given_step`: the caller runs an adaptive method that also takes a
/// fixed step at the step given (runs_at_given_step: run does, the studies do not), and the step's
/// message names those methods too.
void check_method_options_apply(const std::set<std::string>& given, const OptionNames& names,
                                const MethodsUsed& methods, const std::vector<Method>& offered,
                                bool at_given_step = false);

/// Whether a run of `method` takes the step given rather than choosing its own: an adaptive
/// method that also runs at a fixed step (Method::takes_fixed_step, ARKODE's) does when `given`
/// holds "step". Such a run takes no tolerances or step bounds: one in `given` (rtol, atol,
/// max-steps, initial-step, max-step) is refused, SettingsError naming it as `names` spells it.
/// The run then takes its component's fixed-step variant of the method.
bool runs_at_given_step(const Method& method, const std::set<std::string>& given, const OptionNames& names);

/// Checks the settings and the model setup (--set, --init) and returns the interval; throws
/// SettingsError naming the option at fault, before anything runs or is written. An adaptive
/// method's rtol must be in (0, 1): at 1 or more it accepts any step.
Interval check_settings(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings);

/// Usage checks of a fixed step over `interval`: finite and > 0, no longer than the interval, and
/// at most max_fixed_steps steps. Throws SettingsError naming the step option as `options` spell it.
void check_fixed_step(const OptionNames& options, double step, const Interval& interval);

/// Checks as check_settings does, then integrates. A run-time failure does not throw: the
/// outcome says how the run ended, with the history computed so far (handed to the row sink).
RunOutcome run_model(const ModelEntry& model, const ModelSetup& setup, const RunSettings& settings);

}  // namespace energy_audit::studies
