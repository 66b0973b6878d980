#pragma once
/// \file
/// A driven pendulum (docs/models.md, pendulum, pendulum-wrong): a point mass m on a massless rod
/// of length l, driven by a torque A cos(omega t) at the pivot. q = [theta], the angle from the
/// downward vertical. Separable (separable_model.hpp): T = ½ m l² theta_dot² has a constant
/// mass, and the drive depends on t alone, so ARKODE's symplectic methods (arkode-sprk) run it;
/// C = T + V + Z with Z the work the drive did, taken negative.

#include <array>
#include <cmath>
#include <energy_audit/model_description.hpp>
#include <string_view>

namespace energy_audit::examples {

struct PendulumParameters {
  double m = 1.0;            // bob mass [kg]
  double l = 1.0;            // rod length [m]
  double g = 9.81;           // gravity [m/s^2]
  double A = 0.5;            // drive torque amplitude [N m]
  double omega = 2.0;        // drive angular frequency [rad/s]
  double theta_0 = 1.0;      // initial angle from the downward vertical [rad]
  double theta_dot_0 = 0.0;  // initial angular velocity [rad/s]

  static constexpr Interval interval{0.0, 10.0};

  static constexpr auto parameters() {
    using P = PendulumParameters;
    return std::array{
        NamedMember<P>{"m", &P::m, "bob mass [kg]", Domain::Positive},
        NamedMember<P>{"l", &P::l, "rod length [m]", Domain::Positive},
        NamedMember<P>{"g", &P::g, "gravity [m/s^2]", Domain::NonNegative},
        NamedMember<P>{"A", &P::A, "drive torque amplitude [N m]"},
        NamedMember<P>{"omega", &P::omega, "drive angular frequency [rad/s]"},
    };
  }

  static constexpr auto initial_values() {
    using P = PendulumParameters;
    return std::array{
        NamedMember<P>{"theta", &P::theta_0, "angle from the downward vertical [rad]"},
        NamedMember<P>{"theta_dot", &P::theta_dot_0, "angular velocity [rad/s]"},
    };
  }
};

struct Pendulum : PendulumParameters {
  static constexpr int dofs = 1;
  static constexpr bool scleronomic = true;
  static constexpr bool separable = true;
  template <class S>
  using Coordinates = VectorN<S, dofs>;

  static constexpr std::array<std::string_view, dofs> coordinate_names() { return {"theta"}; }

  InitialState<dofs> initial_state() const {
    return {Coordinates<double>{theta_0}, Coordinates<double>{theta_dot_0}};
  }

  /// T [J].
  template <class S>
  S kinetic_energy(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    return 0.5 * m * l * l * v[0] * v[0];
  }

  /// V [J], zero at the pivot's height.
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& /*t*/) const {
    using std::cos;
    return -m * g * l * cos(q[0]);
  }

  /// The drive torque at the pivot.
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& /*v*/, const S& t) const {
    using std::cos;
    return Coordinates<S>{A * cos(omega * t)};
  }

  static constexpr std::array<std::string_view, 1> force_names() { return {"drive"}; }
  std::array<Coordinates<double>, 1> named_forces(const Coordinates<double>& q, const Coordinates<double>& v,
                                                  double t) const {
    return {forces(q, v, t)};
  }

  /// m l² theta_ddot = A cos(omega t) − m g l sin(theta), derived by hand.
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& /*v*/,
                                    double t) const {
    return accelerations_with_drive_sign(q, t, 1.0);
  }

 protected:
  Coordinates<double> accelerations_with_drive_sign(const Coordinates<double>& q, double t,
                                                    double drive_sign) const {
    return Coordinates<double>{(drive_sign * A * std::cos(omega * t) - m * g * l * std::sin(q[0])) /
                               (m * l * l)};
  }
};

/// The driven pendulum with the drive's sign flipped in its hand-derived accelerations: the
/// equations stay separable, so a symplectic method integrates them as smoothly, while the work
/// the model's own drive does no longer matches the motion. Energies, forces, parameters and
/// initial state stay those of Pendulum.
struct PendulumWrong : Pendulum {
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& /*v*/,
                                    double t) const {
    return accelerations_with_drive_sign(q, t, -1.0);
  }
};

}  // namespace energy_audit::examples
