#pragma once
/// \file
/// The mechanism of seed 000, "Sample calculations 1" (docs/models.md, mechanism,
/// mechanism-wrong, mechanism-wrong2). Body 1 (m1) slides on the horizontal x axis; body 2
/// (m2, inertia J2 about its centre, centre at distance e from the pin) is pinned to it at (x, 0)
/// and turned by the drive through the prescribed angle β(t) = sin 5t; a point mass m3 hangs on a
/// string of length l from the point of body 2 at distance h from the pin. q = [x, gamma], γ the
/// string angle from the downward vertical, positive towards +x. Rheonomic: T1 and T0 are not zero
/// and H = T2 − T0 + V differs from E = T + V; C = H + Z with Z the energy the drive supplied.

#include <array>
#include <cmath>
#include <string_view>

#include <energy_audit/model_description.hpp>

namespace energy_audit::examples {

struct Mechanism {
  static constexpr int dofs = 2;
  /// T depends on t through β(t) and has terms of degree 1 and 0 in v: the library splits T and
  /// differentiates T and V in t (a `true` here would be refuted when the system is built).
  static constexpr bool scleronomic = false;
  template <class S>
  using Coordinates = VectorN<S, dofs>;

  double m1 = 2.5;   // body 1 (slider) mass [kg]
  double m2 = 2.5;   // body 2 mass [kg]
  double m3 = 2.5;   // hanging point mass [kg]
  double J2 = 2.5;   // body 2 inertia about its centre [kg m^2]
  double h = 2.0;    // pin to the string's point on body 2 [m]
  double e = 0.5;    // pin to the centre of body 2 [m]
  double l = 0.1;    // string length [m]
  double g = 9.81;   // gravity [m/s^2]
  double x_0 = 0.0;  // initial slider position [m]
  double gamma_0 = 0.0;
  double x_dot_0 = 0.0;
  double gamma_dot_0 = 0.0;

  static constexpr Interval interval{0.0, 10.0};

  static constexpr std::array<std::string_view, dofs> coordinate_names() { return {"x", "gamma"}; }

  static constexpr auto parameters() {
    using P = Mechanism;
    return std::array{
        NamedMember<P>{"m1", &P::m1, "body 1 (slider) mass [kg]", Domain::Positive},
        NamedMember<P>{"m2", &P::m2, "body 2 mass [kg]", Domain::Positive},
        NamedMember<P>{"m3", &P::m3, "hanging point mass [kg]", Domain::Positive},
        NamedMember<P>{"J2", &P::J2, "body 2 inertia about its centre [kg m^2]", Domain::NonNegative},
        NamedMember<P>{"h", &P::h, "pin to the string's point on body 2 [m]", Domain::NonNegative},
        NamedMember<P>{"e", &P::e, "pin to the centre of body 2 [m]", Domain::NonNegative},
        NamedMember<P>{"l", &P::l, "string length [m]", Domain::Positive},
        NamedMember<P>{"g", &P::g, "gravity [m/s^2]", Domain::NonNegative},
    };
  }

  static constexpr auto initial_values() {
    using P = Mechanism;
    return std::array{
        NamedMember<P>{"x", &P::x_0, "slider position [m]"},
        NamedMember<P>{"gamma", &P::gamma_0, "string angle from the downward vertical [rad]"},
        NamedMember<P>{"x_dot", &P::x_dot_0, "slider velocity [m/s]"},
        NamedMember<P>{"gamma_dot", &P::gamma_dot_0, "string angular velocity [rad/s]"},
    };
  }

  InitialState<dofs> initial_state() const { return {{x_0, gamma_0}, {x_dot_0, gamma_dot_0}}; }

  /// The prescribed rotation of body 2: β = sin 5t [rad], β̇ [rad/s], β̈ [rad/s^2].
  template <class S>
  static S beta(const S& t) {
    using std::sin;
    return sin(5.0 * t);
  }
  template <class S>
  static S beta_dot(const S& t) {
    using std::cos;
    return 5.0 * cos(5.0 * t);
  }
  static double beta_ddot(double t) { return -25.0 * std::sin(5.0 * t); }

  /// T [J] from the velocities of the bodies: body-2 centre (x + e cos β, e sin β), the point
  /// mass at (x + h cos β + l sin γ, h sin β − l cos γ).
  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    using std::cos, std::sin;
    const S b = beta(t), b_dot = beta_dot(t), gamma = q[1], x_dot = v[0], gamma_dot = v[1];
    const S c2_x_dot = x_dot - e * sin(b) * b_dot, c2_y_dot = e * cos(b) * b_dot;
    const S m3_x_dot = x_dot - h * sin(b) * b_dot + l * cos(gamma) * gamma_dot;
    const S m3_y_dot = h * cos(b) * b_dot + l * sin(gamma) * gamma_dot;
    return 0.5 * m1 * x_dot * x_dot + 0.5 * m2 * (c2_x_dot * c2_x_dot + c2_y_dot * c2_y_dot) +
           0.5 * J2 * b_dot * b_dot + 0.5 * m3 * (m3_x_dot * m3_x_dot + m3_y_dot * m3_y_dot);
  }

  /// V [J], zero level at the pin's height y = 0.
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::cos, std::sin;
    const S b = beta(t);
    return m2 * g * e * sin(b) + m3 * g * (h * sin(b) - l * cos(q[1]));
  }

  /// No non-potential forces: the drive's power enters through ∂T/∂t and ∂V/∂t.
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& /*v*/, const S& /*t*/) const {
    return {S(0.0), S(0.0)};
  }

  /// Lagrange's equations solved by hand (docs/models.md, mechanism), exact for any β(t).
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double t) const {
    return accelerations_with_signs(q, v, t, -1.0, +1.0);
  }

  static constexpr std::array<std::string_view, 1> extra_output_names() { return {"p_x"}; }

  /// p_x = ∂T/∂ẋ = MT ẋ + m3 l cos γ γ̇ − ME β̇ sin β [kg m/s]: x is cyclic with no x-force, so
  /// p_x is conserved (0 from the rest state).
  std::array<double, 1> extra_outputs(const Coordinates<double>& q, const Coordinates<double>& v,
                                      double t) const {
    const double MT = m1 + m2 + m3, ME = m2 * e + m3 * h;
    return {MT * v[0] + m3 * l * std::cos(q[1]) * v[1] - ME * beta_dot(t) * std::sin(beta(t))};
  }

 protected:
  /// The hand-derived accelerations with the signs of two terms of γ̈'s numerator as given:
  /// `centripetal_sign` on m3 l sin γ cos γ γ̇² (−1 is right), `excitation_sign` on
  /// MT h β̇² cos(γ − β) (+1 is right). ẍ follows from γ̈ by ṗ_x = 0.
  Coordinates<double> accelerations_with_signs(const Coordinates<double>& q, const Coordinates<double>& v,
                                               double t, double centripetal_sign,
                                               double excitation_sign) const {
    const double gamma = q[1], gamma_dot = v[1];
    const double b = beta(t), b_dot = beta_dot(t), b_ddot = beta_ddot(t);
    const double MT = m1 + m2 + m3, ME = m2 * e + m3 * h;
    const double sg = std::sin(gamma), cg = std::cos(gamma);
    const double A = ME * (b_ddot * std::sin(b) + b_dot * b_dot * std::cos(b));
    const double gamma_ddot = (centripetal_sign * m3 * l * sg * cg * gamma_dot * gamma_dot +
                               excitation_sign * MT * h * b_dot * b_dot * std::cos(gamma - b) -
                               MT * h * b_ddot * std::sin(gamma - b) - MT * g * sg - A * cg) /
                              (l * (MT - m3 * cg * cg));
    const double x_ddot = (m3 * l * sg * gamma_dot * gamma_dot + A - m3 * l * cg * gamma_ddot) / MT;
    return {x_ddot, gamma_ddot};
  }
};

/// The mechanism with one sign flipped in γ̈: +m3 l sin γ cos γ γ̇² (docs/models.md,
/// mechanism-wrong). Zero at the rest start, so the run begins as the right one does.
struct MechanismWrong : Mechanism {
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double t) const {
    return accelerations_with_signs(q, v, t, +1.0, +1.0);
  }
};

/// The mechanism with the excitation term of γ̈ flipped: −MT h β̇² cos(γ − β), acting from t = 0
/// (docs/models.md, mechanism-wrong2).
struct MechanismWrong2 : Mechanism {
  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v,
                                    double t) const {
    return accelerations_with_signs(q, v, t, -1.0, -1.0);
  }
};

}  // namespace energy_audit::examples
