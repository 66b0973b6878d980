#pragma once
// Test model: a damped pendulum whose support moves as a given function of time,
// (xs, ys) = (A sin(w t), B sin(u t)). theta from the downward vertical. Rheonomic: T1, T0,
// dT/dt and dV/dt are all non-zero. The hand formulas below are written out independently of
// the library's automatic split and differentiation.

#include <cmath>

#include <energy_audit/types.hpp>

namespace energy_audit::testing {

struct MovingSupportPendulum {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = VectorN<S, 1>;

  double m = 1.5, l = 0.8, g = 9.81, c = 0.05;  // mass, length, gravity, damping torque
  double A = 0.3, w = 2.0, B = 0.2, u = 3.0;    // support amplitudes and frequencies

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    using std::cos, std::sin;
    const S xs_dot = A * w * cos(w * t), ys_dot = B * u * cos(u * t);
    const S vx = xs_dot + l * cos(q[0]) * v[0], vy = ys_dot + l * sin(q[0]) * v[0];
    return 0.5 * m * (vx * vx + vy * vy);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::cos, std::sin;
    return m * g * (B * sin(u * t) - l * cos(q[0]));
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return Coordinates<S>(-c * v[0]);
  }
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double t) const {
    const double th = q[0];
    return Coordinates<double>(-(xs_ddot(t) * std::cos(th) + (ys_ddot(t) + g) * std::sin(th)) / l -
                               c * v[0] / (m * l * l));
  }

  // Hand formulas.
  double xs_dot(double t) const { return A * w * std::cos(w * t); }
  double ys_dot(double t) const { return B * u * std::cos(u * t); }
  double xs_ddot(double t) const { return -A * w * w * std::sin(w * t); }
  double ys_ddot(double t) const { return -B * u * u * std::sin(u * t); }
  double T2(double th_dot) const { return 0.5 * m * l * l * th_dot * th_dot; }
  double T1(double th, double th_dot, double t) const {
    return m * l * th_dot * (xs_dot(t) * std::cos(th) + ys_dot(t) * std::sin(th));
  }
  double T0(double t) const { return 0.5 * m * (xs_dot(t) * xs_dot(t) + ys_dot(t) * ys_dot(t)); }
  double V(double th, double t) const { return m * g * (B * std::sin(u * t) - l * std::cos(th)); }
  double T_t(double th, double th_dot, double t) const {
    return m * ((xs_dot(t) + l * std::cos(th) * th_dot) * xs_ddot(t) +
                (ys_dot(t) + l * std::sin(th) * th_dot) * ys_ddot(t));
  }
  double V_t(double t) const { return m * g * ys_dot(t); }
};

}  // namespace energy_audit::testing
