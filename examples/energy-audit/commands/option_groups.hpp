#pragma once
/// \file
/// The option groups several commands share: the model and audit options (CommonOptions), the
/// SUNDIALS options (AdaptiveOptions), the progress line (ProgressOptions), and the checks that
/// refuse an option with no effect. The study commands' own group is study_frame.hpp.

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_model.hpp>

#include "cli_options.hpp"
#include "mpi_session.hpp"

namespace energy_audit::studies {
struct ModelEntry;
}

namespace energy_audit::cli {

using namespace energy_audit::studies;

/// Refuses an option the user gave that has no effect on this run.
void refuse_if_given(const CLI::Option* option, const std::string& why);

/// The options of `command` given on its command line, by their names without dashes ("rtol").
std::set<std::string> given_options(const CLI::App& command);

/// "a,b,c": a list as an option's default is written.
std::string comma_separated(const std::vector<std::string>& names);

/// The models run and stability accept: the audited ones (model_registry) and the kinematic ones.
std::vector<std::string> all_model_names();

/// The names of every method (see `energy-audit list`).
std::vector<std::string> method_names();
/// The names of the methods with `property` (Method::takes_fixed_step, ...), as help lists them:
/// "arkode-erk, arkode-dirk"; empty when none has it.
std::string methods_with(bool Method::*property);
/// Accepts a method's name among method_names(); refuses any other, saying why for a method that
/// energy-audit, as built, does not offer (arkode-sprk below SUNDIALS 6.6).
CLI::Validator known_method();

/// --quiet and --progress of the studies: their progress line on stderr (progress.hpp).
struct ProgressOptions {
  bool quiet = false, forced = false;

  void add_to(CLI::App& command);
  bool shown(const MpiSession& session) const { return progress_shown(quiet, forced, session.leads()); }
};

/// Options shared by run and the studies on an audited model: the model, its form, setup and
/// interval, and the audit's thresholds.
struct CommonOptions {
  std::string model;
  Form form = Form::Lagrange;
  std::vector<std::string> independent;
  double t_end = 0;
  std::vector<Assignment> sets, inits;
  double threshold = 1e-3;
  double drift_threshold = AuditOptions{}.drift_threshold;
  Stabilization stabilize = Stabilization::None;
  PiecePhase phase = PiecePhase::Right;
  std::array<double, 2> baumgarte{5.0, 5.0};
  bool no_equation_check = false;
  std::size_t equation_check_every = AuditOptions{}.equation_check_every;
  double equation_threshold = AuditOptions{}.equation_threshold;
  bool fail_on_verdict = false;
  const CLI::App* app = nullptr;  ///< the command parsed, for the options given
  CLI::Option *form_option = nullptr, *phase_option = nullptr, *t_end_option = nullptr, *threshold_option = nullptr,
              *drift_threshold_option = nullptr, *fail_on_verdict_option = nullptr,
              *no_equation_check_option = nullptr, *equation_check_every_option = nullptr,
              *equation_threshold_option = nullptr;

  void add_to(CLI::App& command);

  ModelSetup setup() const { return {sets, inits}; }
  RunSettings settings() const;

  /// Options that do not apply to the model are usage errors.
  void check_applicable(const ModelEntry& entry) const;

  /// The audit options that act on the verdict, refused with --no-audit.
  std::vector<const CLI::Option*> audit_options() const {
    return {threshold_option, drift_threshold_option, fail_on_verdict_option, no_equation_check_option,
            equation_check_every_option, equation_threshold_option};
  }
};

/// SUNDIALS options shared by run and the studies.
struct AdaptiveOptions {
  double rtol = 1e-8;
  double atol = 1e-10;
  long max_steps = 100000;
  studies::ZMode z_as = studies::ZMode::State;
  studies::NonlinearIteration iteration = studies::NonlinearIteration::Newton;
  double initial_step = 0;
  double max_step = 0;
  const CLI::App* app = nullptr;  ///< the command parsed, for the options given

  /// `with_rtol`: the single --rtol of run (the studies take their own list of rtols).
  void add_to(CLI::App& command, bool with_rtol);

  studies::AdaptiveSettings options() const;

  /// The options of the adaptive methods are usage errors when no adaptive method runs;
  /// --iteration when cvode-adams does not; --step when no fixed-step method does. The messages
  /// name every method an option applies to; `at_given_step`: the command runs arkode-erk and
  /// arkode-dirk at --step when it is given (run_model.hpp, runs_at_given_step).
  void check_applicable(const MethodsUsed& methods, bool at_given_step = false) const;
};

}  // namespace energy_audit::cli
