#pragma once
/// \file
/// A multiplier system behind a virtual interface, for programs that choose the model at run
/// time; residual (DAE) integrators reach its constraint terms through dae_terms().

#include <memory>
#include <utility>

#include "energy_audit/any_system.hpp"
#include "energy_audit/multiplier_system.hpp"

namespace energy_audit {

class AnyMultiplierSystem : public AnySystem {
 public:
  virtual int constraint_count() const = 0;
  virtual bool holonomic() const = 0;
  virtual DaeTerms dae_terms(const ConstVectorRef& q, const ConstVectorRef& v, double t) const = 0;
};

template <class System>
class AnyMultiplierSystemAdapter final : public AnySystemAdapter<System, AnyMultiplierSystem> {
 public:
  using AnySystemAdapter<System, AnyMultiplierSystem>::AnySystemAdapter;

  int constraint_count() const override { return this->system_.constraint_count(); }
  bool holonomic() const override { return this->system_.holonomic(); }
  DaeTerms dae_terms(const ConstVectorRef& q, const ConstVectorRef& v, double t) const override {
    return this->system_.dae_terms(q, v, t);
  }
};

template <class System>
std::unique_ptr<AnyMultiplierSystem> make_any_multiplier_system(System system) {
  return std::make_unique<AnyMultiplierSystemAdapter<System>>(std::move(system));
}

}  // namespace energy_audit
