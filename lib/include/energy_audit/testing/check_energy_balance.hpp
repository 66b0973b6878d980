#pragma once
/// \file
/// The energy balance as an assertion in a user's own test suite. In Boost.Test:
///
///     EA_CHECK_ENERGY_BALANCE(model, "rk4", 1e-3, 1e-6);
///
/// and with any framework, through the report (GoogleTest):
///
///     const auto report = energy_audit::testing::check_energy_balance(model, "rk4", 1e-3, 1e-6);
///     EXPECT_TRUE(report.passed) << report;
///
/// The model is a LagrangeModel: its own initial state and interval when it describes them
/// (DescribedModel), or the ones given. Only the macro needs Boost.Test, and only where it is used.

#include <optional>
#include <string>
#include <string_view>

#include "energy_audit/audit.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/integrate_const.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_system.hpp"
#include "energy_audit/model_description.hpp"
#include "energy_audit/steppers/fixed_step_method.hpp"
#include "energy_audit/testing/energy_balance_report.hpp"

namespace energy_audit::testing {

/// The method called `name`; throws InvalidArgument naming it and the methods there are.
inline FixedStepMethod fixed_step_method_named(std::string_view name) {
  if (const std::optional<FixedStepMethod> method = FixedStepMethod::named(name)) return *method;
  std::string known;
  for (const FixedStepMethodInfo& info : fixed_step_methods()) known += (known.empty() ? "" : ", ") + std::string(info.name);
  throw InvalidArgument("no fixed-step method '" + std::string(name) + "'; the methods are " + known);
}

/// Integrates `model` from `start` over `interval` with `method` and step `step`, audits every
/// step (δ_C, and Lagrange's equations when the model derives its accelerations by hand), and
/// reports whether δ_C ≤ threshold and the equations hold. A model error propagates as its
/// exception; a diverged run is reported, and fails.
template <LagrangeModel M>
EnergyBalanceReport check_energy_balance(const M& model, FixedStepMethod method, double step, double threshold,
                                         const InitialState<M::dofs>& start, Interval interval) {
  const LagrangeSystem<M> system{model};
  Vector y = system.initial_state(start.q, start.v);
  FixedStepper stepper(method);
  Audit audit({.threshold = threshold, .equation_check_every = 1, .store_every = 0});
  integrate_const(stepper, system, y, interval.t0, interval.t_end, step, watch(system, audit));
  return report_of(audit, method.info().name, step);
}

/// The method by name ("rk4"); an unknown name throws InvalidArgument.
template <LagrangeModel M>
EnergyBalanceReport check_energy_balance(const M& model, std::string_view method, double step, double threshold,
                                         const InitialState<M::dofs>& start, Interval interval) {
  return check_energy_balance(model, fixed_step_method_named(method), step, threshold, start, interval);
}

/// From the model's own initial state and interval.
template <DescribedModel M>
EnergyBalanceReport check_energy_balance(const M& model, FixedStepMethod method, double step, double threshold) {
  return check_energy_balance(model, method, step, threshold, model.initial_state(), M::interval);
}
template <DescribedModel M>
EnergyBalanceReport check_energy_balance(const M& model, std::string_view method, double step, double threshold) {
  return check_energy_balance(model, fixed_step_method_named(method), step, threshold);
}

}  // namespace energy_audit::testing

/// Boost.Test: a failed check (not a fatal one) when the energy balance of `model` run with
/// `method` ("rk4" or a FixedStepMethod) and step `step` does not hold to `threshold`; the
/// message is the report's line. A model that does not describe its start and interval takes
/// them as two more arguments (an InitialState and an Interval).
#define EA_CHECK_ENERGY_BALANCE(model, method, step, threshold, ...)                                   \
  do {                                                                                                 \
    const ::energy_audit::testing::EnergyBalanceReport ea_energy_balance_report =                      \
        ::energy_audit::testing::check_energy_balance((model), (method), (step),                       \
                                                      (threshold)__VA_OPT__(, ) __VA_ARGS__);          \
    BOOST_CHECK_MESSAGE(ea_energy_balance_report.passed, ea_energy_balance_report.explanation);        \
  } while (false)
