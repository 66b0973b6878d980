#pragma once
/// \file
/// ARKODE as a method family of the studies (energy_audit/studies/method_family.hpp):
/// arkode-erk (ERKStep, an explicit Butcher table by name) and arkode-dirk (ARKStep, a diagonally
/// implicit table by name), run by integrate_arkode. Both are adaptive, and run at a fixed step in the variant
/// at_fixed_step gives. With SUNDIALS 7, arkode-sprk (SPRKStep, a symplectic partitioned method by
/// name) at a fixed step, for separable models (separable_model.hpp). Needs EnergyAudit::arkode
/// besides EnergyAudit::studies_sundials.

#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/adaptive_settings.hpp>
#include <energy_audit/studies/kinematic_run.hpp>
#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_integrator.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/arkode_options.hpp>
#include <energy_audit/sundials/butcher_tables.hpp>
#include <energy_audit/sundials/integrate_arkode.hpp>
#include <energy_audit/sundials/studies_settings.hpp>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace energy_audit::sun {

struct ArkodeMethods {
  static constexpr const char* name = "arkode";

  static const std::vector<studies::Method>& methods() {
    static const std::vector<studies::Method> list = [] {
      const auto adaptive = [](std::string method_name, std::string description, std::size_t variant) {
        studies::Method method{std::move(method_name), std::move(description), name, variant};
        method.chooses_steps = true;
        method.takes_fixed_step = true;
        method.interval_problem = adaptive_interval_problem;
        return method;
      };
      std::vector<studies::Method> family{
          adaptive("arkode-erk",
                   "ARKODE ERKStep, explicit Runge-Kutta, a Butcher table by name (--table, default " +
                       default_table(TableKind::Explicit).name + "); adaptive, or at a fixed step with --step",
                   0),
          adaptive("arkode-dirk",
                   "ARKODE ARKStep, diagonally implicit Runge-Kutta, a Butcher table by name (--table, default " +
                       default_table(TableKind::DiagonallyImplicit).name +
                       "), Newton with a dense linear solver; adaptive, or at a fixed step with --step",
                   1)};
      if (arkode_has_sprk) {
        const ArkodeTable& sprk_default = default_table(TableKind::Symplectic);
        studies::Method sprk{"arkode-sprk",
                             "ARKODE SPRKStep, symplectic partitioned Runge-Kutta, a method by name (--table, "
                             "default " +
                                 sprk_default.name + "), at a fixed step (--step); separable models only",
                             name, 2};
        sprk.order = sprk_default.order;
        sprk.partitioned = true;
        sprk.needs_separable_model = true;
        family.push_back(std::move(sprk));
      }
      return family;
    }();
    return list;
  }

  /// Why arkode-sprk is not offered where ARKODE has no SPRKStep for it; empty otherwise.
  static std::string unavailable(const std::string& method_name) {
    if (method_name == "arkode-sprk" && !arkode_has_sprk) return arkode_sprk_problem();
    return {};
  }

  /// What --table means for the family's methods (help).
  static std::string table_help() {
    std::string help =
        "arkode-erk, arkode-dirk: its Butcher table by ARKODE's name (default: the stepper's of order 4; with "
        "--relax on arkode-dirk, the relaxation default)";
    if (arkode_has_sprk) {
      help += "; arkode-sprk: its SPRK method (default " + default_table(TableKind::Symplectic).name + ")";
    }
    return help;
  }

  /// What --relax means for the family's methods (help).
  static std::string relax_help() {
    return "arkode-erk, arkode-dirk: ARKODE's relaxation, each step scaled to conserve the model's H = T + V "
           "(SUNDIALS >= 6.6; scleronomic models, not in form maggi)";
  }

  /// The stepper of one of the family's methods.
  static ArkodeStepper stepper(const studies::Method& method) {
    if (!studies::belongs_to<ArkodeMethods>(method)) {
      throw std::invalid_argument(method.name + " is not an ARKODE method");
    }
    switch (method.variant) {
      case 0: return ArkodeStepper::Erk;
      case 1: return ArkodeStepper::Dirk;
      default: return ArkodeStepper::Sprk;
    }
  }

  /// Refuses a table (`option`, by ARKODE's name) for a method other than arkode-erk and
  /// arkode-dirk, a name ARKODE does not have for the method's stepper (naming its tables), and
  /// for adaptive steps (`adaptive`) a table without an embedded method. An empty table is the
  /// stepper's default. Throws SettingsError.
  static void check_table(const studies::Method& method, const std::string& table, bool adaptive,
                          const std::string& option) {
    if (table.empty()) return;
    if (!studies::belongs_to<ArkodeMethods>(method)) {
      throw studies::SettingsError(option + ": applies to arkode-erk, arkode-dirk and arkode-sprk only, not to " + method.name);
    }
    const TableKind kind = table_kind(stepper(method));
    const ArkodeTable* found = find_table(kind, table);
    if (!found) {
      const char* family = kind == TableKind::Explicit             ? "explicit tables"
                           : kind == TableKind::DiagonallyImplicit ? "diagonally implicit tables"
                                                                   : "SPRK methods";
      throw studies::SettingsError(option + ": unknown " + table_kind_name(kind) + " table '" + table + "' for " +
                                   method.name + " (ARKODE's " + family + ": " + table_names(kind) + ")");
    }
    if (adaptive && found->embedded_order == 0) {
      throw studies::SettingsError(
          option + ": " + table + " has no embedded method to choose adaptive steps with; give a fixed step");
    }
  }

  /// Refuses relaxation (`option`) for a method other than arkode-erk and arkode-dirk, below
  /// SUNDIALS 6.6 (naming the SUNDIALS found), and with a table (`table`, as check_table takes it)
  /// that relaxation cannot take (naming why and the tables it takes). Without a table the run
  /// takes the relaxation default (relaxation_default_table). Throws SettingsError.
  static void check_relax(const studies::Method& method, const std::string& table, const std::string& option,
                          const std::string& table_option = "--table") {
    if (!studies::belongs_to<ArkodeMethods>(method) || stepper(method) == ArkodeStepper::Sprk) {
      throw studies::SettingsError(option + ": applies to arkode-erk and arkode-dirk only, not to " + method.name);
    }
    if (!arkode_has_relaxation) throw studies::SettingsError(option + ": " + arkode_relaxation_problem());
    const TableKind kind = table_kind(stepper(method));
    const ArkodeTable* chosen = chosen_table(kind, table, true);
    if (!chosen) return;  // check_table names it
    if (const std::string problem = relaxation_problem(*chosen); !problem.empty()) {
      throw studies::SettingsError(option + ": " + table_option + " " + problem + " (the tables relaxation takes for " +
                                   method.name + ": " + relaxable_table_names(kind) + ")");
    }
  }

  /// `method` at a fixed step: not adaptive, of the order of the table it takes (`table`, empty
  /// for the stepper's default, or with `relax` the relaxation default). arkode-sprk always takes
  /// a fixed step: it gets the order of its method.
  static studies::Method at_fixed_step(studies::Method method, const std::string& table, bool relax = false) {
    method.chooses_steps = false;
    if (const ArkodeTable* chosen = chosen_table(table_kind(stepper(method)), table, relax)) {
      method.order = chosen->order;
    }  // an unknown table: check_table refuses it
    return method;
  }

  /// The adapter's options for a run of `method` with the studies' adaptive options (or at
  /// `step`, for the fixed-step variant).
  static ArkodeOptions options(const studies::Method& method, const studies::AdaptiveSettings& adaptive, double step,
                               const std::string& table) {
    ArkodeOptions options;
    options.stepper = stepper(method);
    options.table = table;
    if (method.adaptive()) {
      options = detail::with_step_control(adaptive, std::move(options));
    } else {
      options.fixed_step = step;
      options.max_steps = std::numeric_limits<long>::max();  // the studies bound the number of fixed steps
    }
    return options;
  }

  template <class System>
  static void run(studies::RunOutcome& outcome, const System& system, Vector& y,
                  const studies::RunSettings& settings) {
    ArkodeOptions options =
        ArkodeMethods::options(settings.method, settings.adaptive, settings.step, settings.table);
    options.breakpoints = studies::breakpoints_of(system);
    options.relax = settings.relax;
    outcome.adaptive.z_mode = studies::ZMode::State;  // ARKODE has no quadratures
    const ArkodeTable* table = chosen_table(table_kind(options.stepper), options.table, options.relax);
    outcome.table = table ? table->name : options.table;  // an unknown one: integrate_arkode refuses it
    const Interval& i = outcome.interval;
    studies::run_integrator<ArkodeResult>(outcome, system, [&](ArkodeResult& result, auto&& observer) {
      integrate_arkode(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
    });
  }

  template <class Model, class Observer>
  static void run_kinematic(studies::KinematicOutcome& outcome, const KinematicSystem<Model>& system,
                            Vector& q, Observer& observer, const studies::KinematicSettings& settings,
                            StopRequest& stop) {
    const ArkodeOptions options = ArkodeMethods::options(settings.method, settings.adaptive, settings.step, {});
    studies::run_kinematic_integrator<ArkodeResult>(outcome, [&](ArkodeResult& result) {
      integrate_arkode(result, system, q, outcome.interval.t0, outcome.interval.t_end, observer, options,
                       &stop);
    });
  }
};

}  // namespace energy_audit::sun
