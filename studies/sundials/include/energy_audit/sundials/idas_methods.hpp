#pragma once
/// \file
/// IDAS as a method family of the studies (energy_audit/studies/method_family.hpp): idas, BDF on
/// the residual form of a multiplier model (index 1, or GGL with --stabilize ggl), and on Maggi's
/// form of one as an explicit residual. Part of EnergyAudit::studies_sundials.

#include <vector>

#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/idas_options.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#include <energy_audit/sundials/integrate_idas_explicit.hpp>
#include <energy_audit/sundials/studies_settings.hpp>

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
      idas.carries_quadrature = true;
      idas.interval_problem = adaptive_interval_problem;
      return std::vector<studies::Method>{idas};
    }();
    return list;
  }

  /// The adaptive settings are the studies'; the stabilization chooses the residual form.
  template <class System>
  static void run(studies::RunOutcome& outcome, const System& system, Vector& y, const studies::RunSettings& settings) {
    IdasOptions options = idas_options(settings.adaptive);
    if (!outcome.audit) {  // nothing to carry: y = [q, v]
      options.z_mode = ZMode::State;
      outcome.adaptive.z_mode = studies::ZMode::State;
    }
    options.form = settings.stabilization == studies::Stabilization::Ggl ? DaeForm::Ggl : DaeForm::Index1;
    if (settings.stabilization == studies::Stabilization::Baumgarte) options.baumgarte = settings.baumgarte;
    options.breakpoints = studies::breakpoints_of(system);
    const Interval& i = outcome.interval;
    studies::run_integrator<IdasResult>(outcome, system, [&](IdasResult& result, auto&& observer) {
      integrate_idas(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
    });
  }
};

}  // namespace energy_audit::sun
