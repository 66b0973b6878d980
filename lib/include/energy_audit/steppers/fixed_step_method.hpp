#pragma once
/// \file
/// The native fixed-step methods, listed once (FixedStepMethods), and one stepper type that
/// runs any of them. The list gives the command line's method names, `energy-audit list`'s
/// lines and the orders the tests expect; adding a method is one struct here and one entry in
/// the list.

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "energy_audit/integrate_const.hpp"
#include "energy_audit/steppers/euler_cromer.hpp"
#include "energy_audit/steppers/explicit_runge_kutta.hpp"
#include "energy_audit/steppers/verlet.hpp"
#include "energy_audit/system_concepts.hpp"

namespace energy_audit {

struct FixedStepMethodInfo {
  std::string_view name;         ///< as on the command line: "euler-cromer"
  std::string_view description;  ///< one line
  int order;                     ///< of the global error in h
  bool partitioned;              ///< needs a PartitionedSystem (updates q and w apart)
};

/// The methods: each names its stepper and says what it is.
namespace methods {
struct Euler {
  static constexpr FixedStepMethodInfo info{"euler", "explicit Euler, order 1", 1, false};
  using Stepper = ExplicitRungeKutta<euler_tableau()>;
};
struct EulerCromer {
  static constexpr FixedStepMethodInfo info{"euler-cromer", "semi-implicit (symplectic) Euler, order 1", 1, true};
  using Stepper = energy_audit::EulerCromer;
};
struct Rk2 {
  static constexpr FixedStepMethodInfo info{"rk2", "Heun's second-order Runge-Kutta", 2, false};
  using Stepper = ExplicitRungeKutta<heun_tableau()>;
};
struct Rk3 {
  static constexpr FixedStepMethodInfo info{"rk3", "Kutta's third-order Runge-Kutta", 3, false};
  using Stepper = ExplicitRungeKutta<kutta3_tableau()>;
};
struct Rk4 {
  static constexpr FixedStepMethodInfo info{"rk4", "classic fourth-order Runge-Kutta", 4, false};
  using Stepper = ExplicitRungeKutta<rk4_tableau()>;
};
struct Rkg {
  static constexpr FixedStepMethodInfo info{"rkg", "Runge-Kutta-Gill, order 4", 4, false};
  using Stepper = ExplicitRungeKutta<gill_tableau()>;
};
struct Verlet {
  static constexpr FixedStepMethodInfo info{"verlet", "Stormer-Verlet, order 2, symplectic for separable H", 2, true};
  using Stepper = StormerVerlet;
};
}  // namespace methods

/// The list of fixed-step methods, in the order `energy-audit list` shows them.
using FixedStepMethods = std::tuple<methods::Euler, methods::EulerCromer, methods::Rk2, methods::Rk3, methods::Rk4,
                                    methods::Rkg, methods::Verlet>;

namespace detail {

template <class Method, class List>
struct IndexIn;
template <class Method, class... Methods>
struct IndexIn<Method, std::tuple<Methods...>> {
  static constexpr std::size_t value = [] {
    constexpr std::array<bool, sizeof...(Methods)> same{std::is_same_v<Method, Methods>...};
    for (std::size_t i = 0; i < same.size(); ++i) {
      if (same[i]) return i;
    }
    return same.size();
  }();
  static_assert(value < sizeof...(Methods), "not a method of FixedStepMethods");
};

template <class List>
struct MethodTable;
template <class... Methods>
struct MethodTable<std::tuple<Methods...>> {
  static constexpr std::array<FixedStepMethodInfo, sizeof...(Methods)> infos{Methods::info...};
  using Steppers = std::variant<typename Methods::Stepper...>;
};

}  // namespace detail

/// Every method's description, in the list's order.
inline constexpr std::span<const FixedStepMethodInfo> fixed_step_methods() {
  return detail::MethodTable<FixedStepMethods>::infos;
}

/// A fixed-step method chosen at run time: a position in FixedStepMethods.
class FixedStepMethod {
 public:
  /// The method Method (a type of FixedStepMethods).
  template <class Method>
  static constexpr FixedStepMethod of() {
    return FixedStepMethod(detail::IndexIn<Method, FixedStepMethods>::value);
  }
  /// The method called `name` ("rk4"), if there is one.
  static std::optional<FixedStepMethod> named(std::string_view name);
  /// Every method, in the list's order.
  static constexpr std::array<FixedStepMethod, std::tuple_size_v<FixedStepMethods>> all() {
    return [&]<std::size_t... i>(std::index_sequence<i...>) {
      return std::array<FixedStepMethod, sizeof...(i)>{FixedStepMethod(i)...};
    }(std::make_index_sequence<std::tuple_size_v<FixedStepMethods>>{});
  }

  constexpr std::size_t index() const { return index_; }
  constexpr const FixedStepMethodInfo& info() const { return fixed_step_methods()[index_]; }
  friend constexpr bool operator==(FixedStepMethod, FixedStepMethod) = default;

 private:
  explicit constexpr FixedStepMethod(std::size_t index) : index_(index) {}
  std::size_t index_;
};

/// Runs any method of FixedStepMethods; the partitioned ones need a PartitionedSystem.
class FixedStepper {
 public:
  explicit FixedStepper(FixedStepMethod method);
  /// FixedStepper(methods::Rk4{}).
  template <class Method>
  explicit FixedStepper(Method) : FixedStepper(FixedStepMethod::of<Method>()) {}

  FixedStepMethod method() const { return method_; }

  int evaluations_per_step() const {
    return std::visit([](const auto& s) { return s.evaluations_per_step(); }, stepper_);
  }

  template <class System>
  void do_step(const System& system, Vector& y, double t, double h) {
    visit<System>([&](auto& stepper) { stepper.do_step(system, y, t, h); });
  }

  /// Calls f(stepper) with the concrete stepper of the method, so that a loop inside f is
  /// compiled for that method alone. Throws InvalidArgument for a partitioned method on a
  /// System that is not a PartitionedSystem.
  template <class System, class F>
  decltype(auto) visit(F&& f) {
    using Result = std::invoke_result_t<F&, std::variant_alternative_t<0, Steppers>&>;
    return std::visit(
        [&](auto& stepper) -> Result {
          constexpr bool fits = FixedStepStepper<std::decay_t<decltype(stepper)>, System>;
          if constexpr (!fits) {
            throw_needs_partitioned();
          } else {
            return f(stepper);
          }
        },
        stepper_);
  }

 private:
  using Steppers = detail::MethodTable<FixedStepMethods>::Steppers;

  [[noreturn]] void throw_needs_partitioned() const;

  FixedStepMethod method_;
  Steppers stepper_;
};

/// integrate_const for a FixedStepper: chooses the method once, not at every step.
template <class System, class Observer>
void integrate_const(IntegrationResult& result, FixedStepper& stepper, const System& system, Vector& y, double t0,
                     double t1, double h, Observer&& observer, const StopRequest* stop = nullptr) {
  stepper.visit<System>([&](auto& method) {
    integrate_const(result, method, system, y, t0, t1, h, std::forward<Observer>(observer), stop);
  });
}

template <class System, class Observer>
IntegrationResult integrate_const(FixedStepper& stepper, const System& system, Vector& y, double t0,
                                  double t1, double h, Observer&& observer, const StopRequest* stop = nullptr) {
  IntegrationResult result;
  integrate_const(result, stepper, system, y, t0, t1, h, std::forward<Observer>(observer), stop);
  return result;
}

}  // namespace energy_audit
