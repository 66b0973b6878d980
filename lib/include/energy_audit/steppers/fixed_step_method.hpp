#pragma once
/// \file
/// The native fixed-step methods by name, and one stepper type that runs any of them.

#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "energy_audit/integrate_const.hpp"
#include "energy_audit/steppers/euler_cromer.hpp"
#include "energy_audit/steppers/explicit_runge_kutta.hpp"

namespace energy_audit {

enum class FixedStepMethod { Euler, EulerCromer, Rk2, Rk3, Rk4, Rkg };

struct FixedStepMethodInfo {
  FixedStepMethod method;
  std::string_view name;         ///< as on the command line: "euler-cromer"
  std::string_view description;  ///< one line
  int order;
};

/// All methods, euler first.
std::span<const FixedStepMethodInfo> fixed_step_methods();
const FixedStepMethodInfo& info(FixedStepMethod method);
std::optional<FixedStepMethod> parse_fixed_step_method(std::string_view name);

/// Runs any FixedStepMethod; Euler–Cromer needs a SecondOrderSystem.
class FixedStepper {
 public:
  explicit FixedStepper(FixedStepMethod method);

  int evaluations_per_step() const {
    return std::visit([](const auto& s) { return s.evaluations_per_step(); }, stepper_);
  }

  template <class System>
  void do_step(const System& system, Vector& y, double t, double h) {
    visit<System>([&](auto& stepper) { stepper.do_step(system, y, t, h); });
  }

  /// Calls f(stepper) with the concrete stepper of the method, so that a loop inside f is
  /// compiled for that method alone. Throws InvalidArgument for Euler–Cromer on a System
  /// without the q/v split.
  template <class System, class F>
  decltype(auto) visit(F&& f) {
    using Result = std::invoke_result_t<F&, ExplicitRungeKutta<euler_tableau()>&>;
    return std::visit(
        [&](auto& stepper) -> Result {
          if constexpr (std::is_same_v<std::decay_t<decltype(stepper)>, EulerCromer> &&
                        !SecondOrderSystem<System>) {
            throw_needs_second_order();
          } else {
            return f(stepper);
          }
        },
        stepper_);
  }

 private:
  [[noreturn]] static void throw_needs_second_order();

  std::variant<ExplicitRungeKutta<euler_tableau()>, ExplicitRungeKutta<heun_tableau()>,
               ExplicitRungeKutta<kutta3_tableau()>, ExplicitRungeKutta<rk4_tableau()>,
               ExplicitRungeKutta<gill_tableau()>, EulerCromer>
      stepper_;
};

/// integrate_const for a FixedStepper: chooses the method once, not at every step.
template <class System, class Observer>
IntegrationResult integrate_const(FixedStepper& stepper, const System& system, Vector& y, double t0,
                                  double t1, double h, Observer&& observer, const StopRequest* stop = nullptr) {
  return stepper.visit<System>([&](auto& method) {
    return integrate_const(method, system, y, t0, t1, h, std::forward<Observer>(observer), stop);
  });
}

}  // namespace energy_audit
