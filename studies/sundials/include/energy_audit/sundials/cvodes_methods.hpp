#pragma once
/// \file
/// CVODES as a method family of the studies (energy_audit/studies/method_family.hpp):
/// cvode-bdf and cvode-adams, run by integrate_cvodes. Part of EnergyAudit::studies_sundials.

#include <stdexcept>
#include <vector>

#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/sundials/studies_settings.hpp>

#include <energy_audit/studies/kinematic_run.hpp>
#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_integrator.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::sun {

struct CvodesMethods {
  static constexpr const char* name = "cvodes";

  static const std::vector<studies::Method>& methods() {
    static const std::vector<studies::Method> list = [] {
      const auto adaptive = [](std::string method_name, std::string description, std::size_t variant) {
        studies::Method method{std::move(method_name), std::move(description), name, variant};
        method.chooses_steps = true;
        method.carries_quadrature = true;
        method.interval_problem = adaptive_interval_problem;
        return method;
      };
      std::vector<studies::Method> entries{
          adaptive("cvode-bdf", "CVODES BDF, variable order 1-5, Newton with a dense linear solver", 0),
          adaptive("cvode-adams", "CVODES Adams-Moulton, variable order 1-12, Newton or fixed point", 1)};
      entries[1].chooses_iteration = true;
      return entries;
    }();
    return list;
  }

  /// The linear multistep formula of one of the family's methods.
  static Multistep multistep(const studies::Method& method) {
    if (!studies::belongs_to<CvodesMethods>(method)) throw std::invalid_argument(method.name + " is not a CVODES method");
    return method.variant == 0 ? Multistep::Bdf : Multistep::Adams;
  }

  template <class System>
  static void run(studies::RunOutcome& outcome, const System& system, Vector& y, const studies::RunSettings& settings) {
    CvodesOptions options = cvodes_options(settings.adaptive, multistep(settings.method));
    options.breakpoints = studies::breakpoints_of(system);
    if (!outcome.audit) {  // nothing to carry: y = [q, v]
      options.z_mode = ZMode::State;
      outcome.adaptive.z_mode = studies::ZMode::State;
    }
    const Interval& i = outcome.interval;
    studies::run_integrator<CvodesResult>(outcome, system, [&](CvodesResult& result, auto&& observer) {
      integrate_cvodes(result, system, y, i.t0, i.t_end, observer, options, settings.stop);
    });
  }

  template <class Model, class Observer>
  static void run_kinematic(studies::KinematicOutcome& outcome, const KinematicSystem<Model>& system, Vector& q,
                            Observer& observer, const studies::KinematicSettings& settings, StopRequest& stop) {
    const CvodesOptions options = cvodes_options(settings.adaptive, multistep(settings.method));
    studies::run_kinematic_integrator<CvodesResult>(outcome, [&](CvodesResult& result) {
      integrate_cvodes(result, system, q, outcome.interval.t0, outcome.interval.t_end, observer, options, &stop);
    });
  }
};

}  // namespace energy_audit::sun
