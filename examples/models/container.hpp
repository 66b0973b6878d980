#pragma once
/// \file
/// The container of seed 000, section 3 (docs/models.md, container-line,
/// container-circle and their wrong twins): a rigid load of mass m hangs at B on an
/// inextensible rope of length l whose upper end A(t) is driven along a prescribed path, on a
/// straight line or on a circle. q = [xB, yB, zB, psi, theta, phi]: the rope's lower end B and
/// the load's orientation R = Rx(psi) Ry(theta) Rz(phi) (body to inertial). One holonomic,
/// rheonomic constraint Φ = ½ (|B − A(t)|² − l²) with multiplier λ [N/m] (M a = r + Gᵀλ; the
/// rope tension is N = −λ l, positive while the rope is taut). T and V do not depend on t: the
/// drive does its work through the constraint force, Ż = −vᵀGᵀλ, so H = E and C = E + Z.
/// Z axis up, gravity (0, 0, −g).

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include <energy_audit/model_description.hpp>
#include <energy_audit/step_aware.hpp>

namespace energy_audit::examples {

/// The rope end on a straight line along +X in the plane z = 0 (docs/models.md, container-line):
/// accelerates at a until t1, cruises until t2, brakes at a until t3, then stands. Its
/// acceleration jumps at t1, t2 and t3. With PiecePhase::Right every evaluation takes the piece
/// that contains its time (t = t1 belongs to the cruise); with PiecePhase::Midpoint a fixed step
/// [t_n, t_n + h] takes, at every stage, the piece that contains t_n + h/2, its formulas used even
/// outside its interval.
struct LinePath {
  double a = 0.5;   // acceleration and braking of the rope end [m/s^2]
  double t1 = 2.0;  // end of the acceleration [s]
  double t2 = 6.0;  // start of the braking [s]
  double t3 = 8.0;  // stop [s]
  PiecePhase phase = PiecePhase::Right;

  /// With PiecePhase::Midpoint, fixes the piece of the fixed step [t, t + h] about to be taken
  /// (step_aware.hpp).
  void begin_step(double t, double h) const {
    if (phase == PiecePhase::Midpoint) pinned_piece_ = piece_at(t + h / 2);
  }

  static constexpr Interval interval{0.0, 20.0};

  /// The path's parameters as members of the model P that derives from it.
  template <class P>
  static constexpr std::array<NamedMember<P>, 4> path_parameters() {
    return {{{"a", &P::a, "acceleration and braking of the rope end [m/s^2]", Domain::NonNegative},
             {"t1", &P::t1, "end of the acceleration [s]"},
             {"t2", &P::t2, "start of the braking [s]"},
             {"t3", &P::t3, "stop [s]"}}};
  }

  /// The times at which the rope end's acceleration jumps: the adaptive solvers restart there.
  std::array<double, 3> breakpoints() const { return {t1, t2, t3}; }

  /// The rope end's position A(t) [m].
  template <class S>
  std::array<S, 3> rope_end(const S& t) const {
    const double v1 = a * t1, x1 = a * t1 * t1 / 2, x2 = x1 + v1 * (t2 - t1);
    const double x3 = x2 + v1 * (t3 - t2) - a * (t3 - t2) * (t3 - t2) / 2;
    const int piece = pinned_piece_ >= 0 ? pinned_piece_ : piece_at(t);
    S x;
    switch (piece) {
      case 0: x = a * t * t / 2; break;
      case 1: x = x1 + v1 * (t - t1); break;
      case 2: {
        const S tau = t - t2;
        x = x2 + v1 * tau - a * tau * tau / 2;
        break;
      }
      default: x = S(x3); break;
    }
    return {x, S(0.0), S(0.0)};
  }

 private:
  /// 0: accelerating, 1: cruising, 2: braking, 3: standing.
  template <class S>
  int piece_at(const S& t) const {
    return t < t1 ? 0 : t < t2 ? 1 : t < t3 ? 2 : 3;
  }
  mutable int pinned_piece_ = -1;  // the midpoint phase's piece for the current step; -1: none
};

/// The rope end on a circle of radius L (the jib) about the vertical axis, counter-clockwise
/// seen from +Z, at full speed from t = 0 (docs/models.md, container-circle).
struct CirclePath {
  double L = 12.0;      // jib length [m]
  double omega = 0.15;  // jib's angular velocity [rad/s]

  static constexpr Interval interval{0.0, 40.0};

  template <class P>
  static constexpr std::array<NamedMember<P>, 2> path_parameters() {
    return {{{"L", &P::L, "jib length [m]", Domain::Positive}, {"omega", &P::omega, "jib's angular velocity [rad/s]"}}};
  }

  /// The rope end's position A(t) [m].
  template <class S>
  std::array<S, 3> rope_end(const S& t) const {
    using std::cos, std::sin;
    return {L * cos(omega * t), L * sin(omega * t), S(0.0)};
  }
};

template <class Path>
struct Container : Path {
  static constexpr int dofs = 6;
  static constexpr int constraints = 1;
  static constexpr bool scleronomic = true;  // T and V; the constraint alone depends on t
  /// Maggi's form stops when the rope comes within 0.1 l of horizontal (|dz| < 0.1 |d|): żB,
  /// the dependent velocity, is then no longer determined well.
  static constexpr double maggi_singularity_threshold = 0.1;
  template <class S>
  using Coordinates = VectorN<S, dofs>;

  double m = 5000.0;    // load mass [kg]
  double Jx = 5000.0;   // central moment of inertia about body axis X1 [kg m^2]
  double Jy = 6250.0;   // about Y1 [kg m^2]
  double Jz = 10000.0;  // about Z1 [kg m^2]
  double l = 8.0;       // rope length [m]
  double xi = 0.05;     // centre of mass from B along X1 [m]
  double eta = 0.05;    // along Y1 [m]
  double zeta = -0.5;   // along Z1 (up) [m]
  double g = 9.81;      // gravity [m/s^2]

  static constexpr Interval interval = Path::interval;

  static constexpr std::array<std::string_view, dofs> coordinate_names() {
    return {"xB", "yB", "zB", "psi", "theta", "phi"};
  }
  static constexpr std::array<std::string_view, constraints> multiplier_names() { return {"lambda"}; }
  /// The rope can only pull (λ < 0): a λ that turns positive means the rope would go slack.
  static constexpr std::array<std::string_view, constraints> one_sided_multipliers() { return {"lambda"}; }
  /// Maggi's form by default: every velocity but żB, which the rope determines.
  static constexpr std::array<std::string_view, dofs - constraints> independent_velocities() {
    return {"xB", "yB", "psi", "theta", "phi"};
  }

  static constexpr auto parameters() {
    using P = Container;
    const std::array<NamedMember<P>, 9> load{{
        {"m", &P::m, "load mass [kg]", Domain::Positive},
        {"Jx", &P::Jx, "central moment of inertia about body axis X1 [kg m^2]", Domain::Positive},
        {"Jy", &P::Jy, "about Y1 [kg m^2]", Domain::Positive},
        {"Jz", &P::Jz, "about Z1 [kg m^2]", Domain::Positive},
        {"l", &P::l, "rope length [m]", Domain::Positive},
        {"xi", &P::xi, "centre of mass from B along X1 [m]"},
        {"eta", &P::eta, "centre of mass from B along Y1 [m]"},
        {"zeta", &P::zeta, "centre of mass from B along Z1, up [m]"},
        {"g", &P::g, "gravity [m/s^2]", Domain::NonNegative},
    }};
    constexpr auto path = Path::template path_parameters<P>();
    std::array<NamedMember<P>, load.size() + path.size()> all{};
    std::ranges::copy(load, all.begin());
    std::ranges::copy(path, all.begin() + load.size());
    return all;
  }
  static constexpr std::array<NamedMember<Container>, 0> initial_values() { return {}; }

  /// Static equilibrium under A(0) at rest, in closed form (docs/models.md, the container): B
  /// straight below A, the centre of mass straight below B, phi = 0.
  InitialState<dofs> initial_state() const {
    const std::array<double, 3> A = this->rope_end(interval.t0);
    const double theta = std::atan(-xi / zeta);
    const double w = -xi * std::sin(theta) + zeta * std::cos(theta);
    const double psi = std::atan(eta / w);
    return {{A[0], A[1], A[2] - l, psi, theta, 0.0}, Coordinates<double>::Zero()};
  }

  /// T = ½ m |v_C|² + ½ (Jx ω1² + Jy ω2² + Jz ω3²) [J], v_C = Ḃ + R (ω × ρ), ω in body axes.
  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& /*t*/) const {
    using std::cos, std::sin;
    const S cps = cos(q[3]), sps = sin(q[3]), cth = cos(q[4]), sth = sin(q[4]), cph = cos(q[5]), sph = sin(q[5]);
    const S w1 = v[3] * cth * cph + v[4] * sph;
    const S w2 = -v[3] * cth * sph + v[4] * cph;
    const S w3 = v[5] + v[3] * sth;
    // ω × ρ in body axes, then R (ω × ρ) row by row.
    const S b1 = w2 * zeta - w3 * eta, b2 = w3 * xi - w1 * zeta, b3 = w1 * eta - w2 * xi;
    const S R11 = cth * cph, R12 = -cth * sph, R13 = sth;
    const S R21 = cps * sph + sps * sth * cph, R22 = cps * cph - sps * sth * sph, R23 = -sps * cth;
    const S R31 = sps * sph - cps * sth * cph, R32 = sps * cph + cps * sth * sph, R33 = cps * cth;
    const S vx = v[0] + R11 * b1 + R12 * b2 + R13 * b3;
    const S vy = v[1] + R21 * b1 + R22 * b2 + R23 * b3;
    const S vz = v[2] + R31 * b1 + R32 * b2 + R33 * b3;
    return 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.5 * (Jx * w1 * w1 + Jy * w2 * w2 + Jz * w3 * w3);
  }

  /// V = m g (zC − zC0) [J], zC0 = −(l + |ρ|) the height of C at rest below a rope end in z = 0.
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& /*t*/) const {
    return m * g * (centre_height(q) + l + std::sqrt(xi * xi + eta * eta + zeta * zeta));
  }

  /// No forces but gravity and the rope's.
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& /*v*/, const S& /*t*/) const {
    return Coordinates<S>::Zero();
  }

  /// Φ = ½ (dᵀd − l²), d = B − A(t).
  template <class S>
  VectorN<S, constraints> position_constraints(const Coordinates<S>& q, const S& t) const {
    const std::array<S, 3> A = this->rope_end(t);
    const S dx = q[0] - A[0], dy = q[1] - A[1], dz = q[2] - A[2];
    return VectorN<S, constraints>(0.5 * (dx * dx + dy * dy + dz * dz - l * l));
  }

  static constexpr std::array<std::string_view, 2> extra_output_names() { return {"rope_drift", "psi_c"}; }

  /// The rope's length drift |d| − l [m] and the velocity constraint ψc = dᵀ(Ḃ − Ȧ) [m^2/s].
  std::array<double, 2> extra_outputs(const Coordinates<double>& q, const Coordinates<double>& v, double t) const {
    const double dt = 1e-7 * std::max(1.0, std::abs(t));
    const std::array<double, 3> A = this->rope_end(t), A_later = this->rope_end(t + dt), A_earlier = this->rope_end(t - dt);
    double length2 = 0, psi_c = 0;
    for (int i = 0; i < 3; ++i) {
      const double d = q[i] - A[i];
      length2 += d * d;
      psi_c += d * (v[i] - (A_later[i] - A_earlier[i]) / (2 * dt));
    }
    return {std::sqrt(length2) - l, psi_c};
  }

 protected:
  /// zC = zB + R31 ξ + R32 η + R33 ζ.
  template <class S>
  S centre_height(const Coordinates<S>& q) const {
    using std::cos, std::sin;
    const S cps = cos(q[3]), sps = sin(q[3]), cth = cos(q[4]), sth = sin(q[4]), cph = cos(q[5]), sph = sin(q[5]);
    return q[2] + (sph * sps - sth * cph * cps) * xi + (sph * sth * cps + cph * sps) * eta + cps * cth * zeta;
  }
};

/// The container with the sign of ∂V/∂phi flipped in its equations of motion (docs/models.md,
/// container-wrong): r_phi = Q_phi − ∂V/∂phi becomes Q_phi + ∂V/∂phi, an error of 2 ∂V/∂phi
/// on the right-hand side. T, V, Ż and C stay the container's. ∂V/∂phi = 0 at the start, so the
/// twins part only once the load moves.
template <class Path>
struct ContainerWrong : Container<Path> {
  VectorN<double, 6> equation_error(const VectorN<double, 6>& q, const VectorN<double, 6>& /*v*/, double /*t*/) const {
    const double cps = std::cos(q[3]), sps = std::sin(q[3]), sth = std::sin(q[4]);
    const double cph = std::cos(q[5]), sph = std::sin(q[5]);
    const double dV_dphi = this->m * this->g * (this->xi * (cph * sps + sth * sph * cps) +
                                                this->eta * (cph * sth * cps - sph * sps));
    VectorN<double, 6> error = VectorN<double, 6>::Zero();
    error[5] = 2 * dV_dphi;
    return error;
  }
};

using ContainerLine = Container<LinePath>;
using ContainerCircle = Container<CirclePath>;
using ContainerLineWrong = ContainerWrong<LinePath>;
using ContainerCircleWrong = ContainerWrong<CirclePath>;

}  // namespace energy_audit::examples
