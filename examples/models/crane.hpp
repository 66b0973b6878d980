#pragma once
/// \file
/// The trolley crane of seed 002 (docs/models.md, crane, crane-wrong): a trolley (m1) on a
/// horizontal line, tied to the frame by a spring s and a damper k, with a uniform rod (m2, l)
/// pinned to it. q = [x1, phi]; scleronomic, so C = T + V + Z with Z the energy the damper took.

#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include <energy_audit/model_description.hpp>

namespace energy_audit::examples {

/// The crane's parameters, initial values and interval, shared by crane and crane-dae.
struct CraneParameters {
  double m1 = 10.0;    // trolley mass [kg]
  double m2 = 1.0;     // rod mass [kg]
  double l = 1.0;      // rod length [m]
  double g = 9.81;     // gravity [m/s^2]
  double k = 50.0;     // damper [N s/m]
  double s = 3000.0;   // spring [N/m]
  double x1_0 = 0.5;   // initial trolley position [m]
  double phi_0 = -std::numbers::pi / 6;  // initial rod angle [rad]
  double x1_dot_0 = 0.0;
  double phi_dot_0 = 0.0;

  static constexpr Interval interval{0.0, 5.0};

  static constexpr auto parameters() {
    using P = CraneParameters;
    return std::array{
        NamedMember<P>{"m1", &P::m1, "trolley mass [kg]", Domain::Positive},
        NamedMember<P>{"m2", &P::m2, "rod mass [kg]", Domain::Positive},
        NamedMember<P>{"l", &P::l, "rod length [m]", Domain::Positive},
        NamedMember<P>{"g", &P::g, "gravity [m/s^2]", Domain::NonNegative},
        NamedMember<P>{"k", &P::k, "damper on the trolley [N s/m]", Domain::NonNegative},
        NamedMember<P>{"s", &P::s, "spring on the trolley [N/m]", Domain::NonNegative},
    };
  }

  static constexpr auto initial_values() {
    using P = CraneParameters;
    return std::array{
        NamedMember<P>{"x1", &P::x1_0, "trolley position [m]"},
        NamedMember<P>{"phi", &P::phi_0, "rod angle, -pi/2 hanging [rad]"},
        NamedMember<P>{"x1_dot", &P::x1_dot_0, "trolley velocity [m/s]"},
        NamedMember<P>{"phi_dot", &P::phi_dot_0, "rod angular velocity [rad/s]"},
    };
  }
};

struct Crane : CraneParameters {
  static constexpr int dofs = 2;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = VectorN<S, dofs>;

  static constexpr std::array<std::string_view, dofs> coordinate_names() { return {"x1", "phi"}; }

  InitialState<dofs> initial_state() const { return {{x1_0, phi_0}, {x1_dot_0, phi_dot_0}}; }

  /// T [J]. The rod centre is x2 = (l/2) cos phi - x1, y2 = (l/2) sin phi (seed 002 eq. 13, taken
  /// literally: x2 counts opposite to x1).
  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& /*t*/) const {
    using std::cos, std::sin;
    const S x2_dot = -(l / 2) * sin(q[1]) * v[1] - v[0];
    const S y2_dot = (l / 2) * cos(q[1]) * v[1];
    const double J = m2 * l * l / 12;
    return 0.5 * m1 * v[0] * v[0] + 0.5 * m2 * (x2_dot * x2_dot + y2_dot * y2_dot) +
           0.5 * J * v[1] * v[1];
  }

  /// V [J], zero with the spring unstretched and the rod horizontal.
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& /*t*/) const {
    using std::sin;
    return 0.5 * s * q[0] * q[0] + m2 * g * (l / 2) * sin(q[1]);
  }

  /// The damper on the trolley.
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& v, const S& /*t*/) const {
    return {-k * v[0], S(0.0)};
  }

  /// f by name, for the work ledger: the damper is the only force.
  static constexpr std::array<std::string_view, 1> force_names() { return {"damper"}; }
  std::array<Coordinates<double>, 1> named_forces(const Coordinates<double>& q, const Coordinates<double>& v,
                                                  double t) const {
    return {forces(q, v, t)};
  }

  /// Seed 002 eq. 19, derived by hand.
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double /*t*/) const {
    return accelerations_with_coupling_sign(q, v, -1.0);
  }

 protected:
  /// Eq. 19 with the sign of its velocity-squared term -2 m2 l cos(phi) phi_dot^2 in x1'' as given.
  Coordinates<double> accelerations_with_coupling_sign(const Coordinates<double>& q,
                                                       const Coordinates<double>& v,
                                                       double coupling_sign) const {
    const double x1 = q[0], phi = q[1], x1_dot = v[0], phi_dot = v[1];
    const double c = std::cos(phi), sn = std::sin(phi);
    const double delta = 4 * m1 + m2 + 3 * m2 * c * c;
    const double x1_ddot = (coupling_sign * 2 * m2 * l * c * phi_dot * phi_dot - 4 * k * x1_dot -
                            4 * s * x1 + 1.5 * m2 * g * std::sin(2 * phi)) /
                           delta;
    const double phi_ddot = (3 * m2 * l * c * sn * phi_dot * phi_dot + 6 * sn * (s * x1 + k * x1_dot) -
                             6 * g * (m1 + m2) * c) /
                            (l * delta);
    return {x1_ddot, phi_ddot};
  }
};

/// Crane with one sign flipped in x1'' (+2 m2 l cos(phi) phi_dot^2): seed 000's wrong-equations
/// demonstration. Energies, forces, parameters and initial state stay those of Crane.
struct CraneWrong : Crane {
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double /*t*/) const {
    return accelerations_with_coupling_sign(q, v, +1.0);
  }
};

/// Crane whose damper is left out of f: its hand-derived accelerations (eq. 19) keep the damper,
/// its forces() and named forces leave it out, so Z misses the damper's work and C falls at the
/// damper's power −k x1_dot² (docs/models.md, crane-damper-missing). Energies, parameters and
/// initial state stay those of Crane.
struct CraneDamperMissing : Crane {
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& /*v*/, const S& /*t*/) const {
    return {S(0.0), S(0.0)};
  }
  static constexpr std::array<std::string_view, 0> force_names() { return {}; }
  std::array<Coordinates<double>, 0> named_forces(const Coordinates<double>&, const Coordinates<double>&,
                                                  double) const {
    return {};
  }
};

}  // namespace energy_audit::examples
