#pragma once
/// \file
/// A first-order system behind a virtual interface, so that a program can choose the model at
/// run time (the command line does). Templates stay the fast path; this adds one indirect call
/// per right-hand-side evaluation.

#include <memory>
#include <utility>

#include "energy_audit/energy_sample.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

class AnySystem {
 public:
  virtual ~AnySystem() = default;
  virtual int dofs() const = 0;
  virtual Index size() const = 0;
  virtual bool carries_energy_flow() const = 0;
  virtual void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const = 0;
  virtual void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const = 0;
  virtual double energy_flow_rate(const ConstVectorRef& y, double t) const = 0;
  virtual void second_order_rates(const ConstVectorRef& q, const ConstVectorRef& v, double t,
                                  Eigen::Ref<Vector> a, double& z_dot) const = 0;
  virtual EnergySample sample(const ConstVectorRef& y, double t) const = 0;
  /// See energy_audit::rates_and_sample().
  virtual EnergySample rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const = 0;
};

/// Forwards AnySystem's interface to a System; Interface may be a subclass of AnySystem whose
/// own functions a further subclass forwards (AnyMultiplierSystemAdapter).
template <class System, class Interface = AnySystem>
class AnySystemAdapter : public Interface {
 public:
  explicit AnySystemAdapter(System system) : system_(std::move(system)) {}

  const System& system() const { return system_; }
  int dofs() const override { return system_.dofs(); }
  Index size() const override { return system_.size(); }
  bool carries_energy_flow() const override { return system_.carries_energy_flow(); }
  void operator()(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const override {
    system_(y, dydt, t);
  }
  void motion_rates(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const override {
    system_.motion_rates(y, dydt, t);
  }
  double energy_flow_rate(const ConstVectorRef& y, double t) const override {
    return system_.energy_flow_rate(y, t);
  }
  void second_order_rates(const ConstVectorRef& q, const ConstVectorRef& v, double t,
                          Eigen::Ref<Vector> a, double& z_dot) const override {
    system_.second_order_rates(q, v, t, a, z_dot);
  }
  EnergySample sample(const ConstVectorRef& y, double t) const override { return system_.sample(y, t); }
  EnergySample rates_and_sample(const ConstVectorRef& y, Eigen::Ref<Vector> dydt, double t) const override {
    return energy_audit::rates_and_sample(system_, y, dydt, t);
  }

 protected:
  System system_;
};

template <class System>
std::unique_ptr<AnySystem> make_any_system(System system) {
  return std::make_unique<AnySystemAdapter<System>>(std::move(system));
}

}  // namespace energy_audit
