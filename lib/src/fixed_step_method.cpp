#include "energy_audit/steppers/fixed_step_method.hpp"

#include <string>

#include "energy_audit/error.hpp"

namespace energy_audit {

std::optional<FixedStepMethod> FixedStepMethod::named(std::string_view name) {
  const auto methods = fixed_step_methods();
  for (std::size_t i = 0; i < methods.size(); ++i) {
    if (methods[i].name == name) return FixedStepMethod(i);
  }
  return std::nullopt;
}

namespace {

/// Makes the stepper of the method at `index` in the variant.
template <class Steppers, std::size_t... i>
Steppers stepper_at(std::size_t index, std::index_sequence<i...>) {
  Steppers steppers;
  ((index == i ? (void)steppers.template emplace<i>() : void()), ...);
  return steppers;
}

}  // namespace

FixedStepper::FixedStepper(FixedStepMethod method)
    : method_(method),
      stepper_(stepper_at<Steppers>(method.index(), std::make_index_sequence<std::variant_size_v<Steppers>>{})) {}

void FixedStepper::throw_needs_partitioned() const {
  throw InvalidArgument(std::string(method_.info().name) +
                        " needs a system whose rates split into q and w (a PartitionedSystem: Lagrange's or "
                        "Hamilton's form)");
}

}  // namespace energy_audit
