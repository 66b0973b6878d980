#pragma once
/// \file
/// The native fixed-step methods as a method family (method_family.hpp): euler, euler-cromer,
/// rk2, rk3, rk4, rkg and verlet (FixedStepMethods), each run by the FixedStepper of its method.

#include <stdexcept>
#include <vector>

#include <energy_audit/integrate_const.hpp>
#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/transverse_multiplier.hpp>

#include <energy_audit/studies/kinematic_run.hpp>
#include <energy_audit/studies/method_family.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/run_integrator.hpp>
#include <energy_audit/studies/run_model.hpp>

namespace energy_audit::studies {

struct FixedStepFamily {
  static constexpr const char* name = "fixed-step";

  static const std::vector<Method>& methods() { return fixed_step_methods(); }

  /// The stepper's method of one of the family's methods; throws std::invalid_argument for another.
  static FixedStepMethod fixed_step_method(const Method& method) {
    if (!belongs_to<FixedStepFamily>(method)) throw std::invalid_argument(method.name + " is not a fixed-step method");
    return FixedStepMethod::all().at(method.variant);
  }

  template <class System>
  static void run(RunOutcome& outcome, const System& system, Vector& y, const RunSettings& settings) {
    FixedStepper stepper(fixed_step_method(settings.method));
    const Interval& i = outcome.interval;
    run_integrator<IntegrationResult>(outcome, system, [&](IntegrationResult& result, auto&& observer) {
      integrate_const(result, stepper, system, y, i.t0, i.t_end, settings.step, observer, settings.stop);
    });
  }

  /// With the transverse multiplier of the method averaged over Model::constraint_points.
  template <class Model, class Observer>
  static void run_kinematic(KinematicOutcome& outcome, const KinematicSystem<Model>& system, Vector& q,
                            Observer& observer, const KinematicSettings& settings, StopRequest& stop) {
    FixedStepper stepper(fixed_step_method(settings.method));
    run_kinematic_integrator<IntegrationResult>(outcome, [&](IntegrationResult& result) {
      integrate_const(result, stepper, system, q, outcome.interval.t0, outcome.interval.t_end, settings.step, observer,
                      &stop);
      if (settings.multiplier_points > 0) {
        outcome.transverse_multiplier = transverse_multiplier(stepper, system, settings.step, outcome.interval.t0,
                                                              Model::constraint_points(settings.multiplier_points));
      }
    });
  }
};

}  // namespace energy_audit::studies
