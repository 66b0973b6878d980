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
class AnyMultiplierSystemAdapter final : public AnyMultiplierSystem {
 public:
  explicit AnyMultiplierSystemAdapter(System system) : system_(std::move(system)) {}

  int dofs() const override { return system_.dofs(); }
  Index size() const override { return system_.size(); }
  bool carries_energy_flow() const override { return system_.carries_energy_flow(); }
  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const override { system_(y, dydt, t); }
  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const override {
    system_.motion_rates(y, dydt, t);
  }
  double energy_flow_rate(const ConstVectorRef& y, double t) const override { return system_.energy_flow_rate(y, t); }
  void second_order_rates(const ConstVectorRef& q, const ConstVectorRef& v, double t, Eigen::Ref<Vector> a,
                          double& z_dot) const override {
    system_.second_order_rates(q, v, t, a, z_dot);
  }
  EnergySample sample(const ConstVectorRef& y, double t) const override { return system_.sample(y, t); }
  int constraint_count() const override { return system_.constraint_count(); }
  bool holonomic() const override { return system_.holonomic(); }
  DaeTerms dae_terms(const ConstVectorRef& q, const ConstVectorRef& v, double t) const override {
    return system_.dae_terms(q, v, t);
  }

 private:
  System system_;
};

template <class System>
std::unique_ptr<AnyMultiplierSystem> make_any_multiplier_system(System system) {
  return std::make_unique<AnyMultiplierSystemAdapter<System>>(std::move(system));
}

}  // namespace energy_audit
