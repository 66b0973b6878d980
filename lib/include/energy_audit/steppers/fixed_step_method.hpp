#pragma once
/// \file
/// The native fixed-step methods by name, and one stepper type that runs any of them.

#include <optional>
#include <span>
#include <string_view>
#include <variant>

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
    if (auto* rk = std::get_if<ExplicitRungeKutta>(&stepper_)) {
      rk->do_step(system, y, t, h);
    } else if constexpr (SecondOrderSystem<System>) {
      std::get<EulerCromer>(stepper_).do_step(system, y, t, h);
    } else {
      throw_needs_second_order();
    }
  }

 private:
  [[noreturn]] static void throw_needs_second_order();

  std::variant<ExplicitRungeKutta, EulerCromer> stepper_;
};

}  // namespace energy_audit
