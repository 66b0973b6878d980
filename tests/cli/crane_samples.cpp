#include "crane_samples.hpp"

#include <sstream>

#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane.hpp"

namespace {

template <class Model>
std::string samples_of() {
  namespace ea = energy_audit;
  const Model model;
  const ea::LagrangeSystem<Model> system(model, ea::AccelerationSource::Hand, ea::EnergyFlow::Off);
  const auto start = model.initial_state();
  ea::Vector y(4);
  y << start.q, start.v;
  std::string csv = "t,x1,phi,x1_dot,phi_dot,x1_ddot,phi_ddot\n";
  ea::FixedStepper rk4(ea::methods::Rk4{});
  std::size_t step = 0;
  ea::integrate_const(rk4, system, y, 0.0, 5.0, 1e-4, [&](const ea::ConstVectorRef& state, double t) {
    if (step++ % 100 != 0) return;
    const typename Model::template Coordinates<double> q(state[0], state[1]), v(state[2], state[3]);
    const auto a = model.accelerations(q, v, t);
    std::ostringstream row;
    row.precision(17);
    row << t << "," << q[0] << "," << q[1] << "," << v[0] << "," << v[1] << "," << a[0] << "," << a[1] << "\n";
    csv += row.str();
  });
  return csv;
}

}  // namespace

std::string crane_samples_csv(CraneEquations equations) {
  return equations == CraneEquations::Correct ? samples_of<energy_audit::examples::Crane>()
                                              : samples_of<energy_audit::examples::CraneWrong>();
}

std::array<double, 2> crane_accelerations(double t, const std::array<double, 2>& q, const std::array<double, 2>& v) {
  using Coordinates = energy_audit::examples::Crane::Coordinates<double>;
  const Coordinates a =
      energy_audit::examples::Crane{}.accelerations(Coordinates(q[0], q[1]), Coordinates(v[0], v[1]), t);
  return {a[0], a[1]};
}
