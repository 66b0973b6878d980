#include "energy_audit/steppers/fixed_step_method.hpp"

#include <algorithm>
#include <array>

#include "energy_audit/error.hpp"
#include "energy_audit/steppers/butcher_tableau.hpp"

namespace energy_audit {
namespace {

constexpr std::array<FixedStepMethodInfo, 6> methods{{
    {FixedStepMethod::Euler, "euler", "explicit Euler, order 1", 1},
    {FixedStepMethod::EulerCromer, "euler-cromer", "semi-implicit (symplectic) Euler, order 1", 1},
    {FixedStepMethod::Rk2, "rk2", "Heun's second-order Runge-Kutta", 2},
    {FixedStepMethod::Rk3, "rk3", "Kutta's third-order Runge-Kutta", 3},
    {FixedStepMethod::Rk4, "rk4", "classic fourth-order Runge-Kutta", 4},
    {FixedStepMethod::Rkg, "rkg", "Runge-Kutta-Gill, order 4", 4},
}};

}  // namespace

std::span<const FixedStepMethodInfo> fixed_step_methods() { return methods; }

const FixedStepMethodInfo& info(FixedStepMethod method) {
  return *std::find_if(methods.begin(), methods.end(),
                       [method](const FixedStepMethodInfo& m) { return m.method == method; });
}

std::optional<FixedStepMethod> parse_fixed_step_method(std::string_view name) {
  for (const FixedStepMethodInfo& m : methods) {
    if (m.name == name) return m.method;
  }
  return std::nullopt;
}

FixedStepper::FixedStepper(FixedStepMethod method) {
  switch (method) {
    case FixedStepMethod::Euler: stepper_.emplace<ExplicitRungeKutta<euler_tableau()>>(); return;
    case FixedStepMethod::Rk2: stepper_.emplace<ExplicitRungeKutta<heun_tableau()>>(); return;
    case FixedStepMethod::Rk3: stepper_.emplace<ExplicitRungeKutta<kutta3_tableau()>>(); return;
    case FixedStepMethod::Rk4: stepper_.emplace<ExplicitRungeKutta<rk4_tableau()>>(); return;
    case FixedStepMethod::Rkg: stepper_.emplace<ExplicitRungeKutta<gill_tableau()>>(); return;
    case FixedStepMethod::EulerCromer: stepper_.emplace<EulerCromer>(); return;
  }
  throw InvalidArgument("unknown fixed-step method");
}

void FixedStepper::throw_needs_second_order() {
  throw InvalidArgument("euler-cromer needs a system with a q/v split (second-order form)");
}

}  // namespace energy_audit
