#pragma once
/// \file
/// IDAS as a method family of the studies (energy_audit/studies/method_family.hpp): idas, BDF on
/// the residual form of a multiplier model (index 1, or GGL with --stabilize ggl), and on Maggi's
/// form of one as an explicit residual. Part of EnergyAudit::studies_sundials.

#include <vector>

#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/cvodes_options.hpp>
#include <energy_audit/sundials/idas_options.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#include <energy_audit/sundials/integrate_idas_explicit.hpp>

#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_integrator.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::sun {

struct IdasMethods {
  static constexpr const char* name = "idas";

  static const std::vector<studies::Method>& methods() {
    static const std::vector<studies::Method> list = [] {
      studies::Method idas{"idas", "IDAS BDF on the residual form of a multiplier model (index 1 or GGL)", name, 0};
      idas.chooses_steps = true;
      idas.needs_multipliers = true;
      idas.takes_residual_form = true;
      idas.interval_problem = adaptive_interval_problem;
      return std::vector<studies::Method>{idas};
    }();
    return list;
  }

  /// The adaptive options (rtol, atol, steps, Z mode) are the run's CVODES options; the
  /// stabilization chooses the residual form.
  template <class System>
  static void run(studies::RunOutcome& outcome, const System& system, Vector& y, const studies::RunSettings& settings) {
    IdasOptions options;
    options.rtol = settings.cvodes.rtol;
    options.atol = settings.cvodes.atol;
    options.max_steps = settings.cvodes.max_steps;
    options.initial_step = settings.cvodes.initial_step;
    options.max_step = settings.cvodes.max_step;
    options.z_mode = outcome.audit ? settings.cvodes.z_mode : ZMode::State;
    options.quadrature_error_control = settings.cvodes.quadrature_error_control;
    options.form = settings.stabilization == studies::Stabilization::Ggl ? DaeForm::Ggl : DaeForm::Index1;
    if (settings.stabilization == studies::Stabilization::Baumgarte) options.baumgarte = settings.baumgarte;
    options.breakpoints = studies::breakpoints_of(system);
    outcome.cvodes.z_mode = options.z_mode;
    const Interval& i = outcome.interval;
    studies::run_integrator<IdasResult>(outcome, system, [&](IdasResult& result, auto&& observer) {
      integrate_idas(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
    });
  }
};

}  // namespace energy_audit::sun
