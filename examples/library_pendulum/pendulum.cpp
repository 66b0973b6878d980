// The README's library example, compiled and run by the build: a damped pendulum written once
// as templates, integrated by rk4 and judged by the audit.
#include <cstdio>

#include <energy_audit/energy_audit.hpp>
namespace ea = energy_audit;

struct Pendulum {                            // what: a damped pendulum, theta from the vertical
  static constexpr int dofs = 1;
  template <class S> using Coordinates = ea::VectorN<S, dofs>;
  double m = 1, l = 1, g = 9.81, c = 0.1;   // [kg], [m], [m/s^2], [N m s]
  template <class S> S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * l * l * v[0] * v[0]; }
  template <class S> S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos; return -m * g * l * cos(q[0]); }
  template <class S> Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return Coordinates<S>(-c * v[0]); }     // non-potential: the damper
};

int main() {
  const ea::LagrangeSystem<Pendulum> system{Pendulum{}};   // y = [q, v, Z], accelerations derived
  ea::Vector y = system.initial_state(Pendulum::Coordinates<double>(1.0), Pendulum::Coordinates<double>(0.0));
  ea::FixedStepper stepper(ea::methods::Rk4{});      // how
  ea::Audit audit({.threshold = 1e-3});                    // watching
  const ea::IntegrationResult run = ea::integrate_const(stepper, system, y, 0.0, 10.0, 1e-3, ea::watch(system, audit));
  std::printf("delta_C = %.3e after %zu steps to t = %g: %s\n", audit.relative_drift(), run.steps, run.t_reached,
              ea::verdict_name(audit.verdict()));   // pass only if the run also reached t = 10
  return audit.passed() ? 0 : 1;
}
