#pragma once
/// \file
/// The three-dimensional truck crane of seed 000, section 2 (docs/models.md, crane3d,
/// crane3d-drop, crane3d-wrong): a carrier (body 1, six coordinates) standing on four elastic
/// outrigger pads, and an upper structure (body 2: turntable, boom and load, rigidly joined) whose
/// motion relative to the carrier is prescribed, slewing alpha = w_s t and luffing
/// beta = beta0 + w_l t. q = [x, y, z, psi, theta, phi]: the carrier's mass centre and its Cardan
/// angles, R1 = Rx(psi) Ry(theta) Rz(phi). Rheonomic: C = T2 − T0 + V + Z with
/// Ż = ∂T/∂t − ∂V/∂t, the work of the drive that enforces the prescribed motion. f = 0; the
/// accelerations are derived by the library from T and V. The seed does not state the whole
/// geometry: the geometry, the mapping of the seed's masses and the cases below are a
/// reconstruction, given with their values in this file (docs/models.md, crane3d).
///
/// Inertial frame O XYZ, Z up, gravity (0, 0, −g); the pads' anchors lie in the ground Z = 0.

#include <array>
#include <cmath>
#include <string_view>

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products

#include <energy_audit/dual.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/lagrange_terms.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/natural_frequencies.hpp>
#include <energy_audit/positive_definite_solve.hpp>

namespace energy_audit::examples {

/// Where a crane3d run starts (velocities zero in both, unless set).
enum class Crane3dStart {
  /// Static equilibrium of V at t = 0, found by Newton's method: the carrier rests on its
  /// compressed pads, and the upper structure starts slewing and luffing.
  Equilibrium,
  /// q = [0, 0, 1.2, 0, 0, 0]: pads exactly on their anchors, springs unstretched; the crane is
  /// released onto the springs while slewing and luffing start.
  Drop,
};

/// The crane's parameters (the command line's --set names), its start and the interval.
struct Crane3dParameters {
  double m1 = 16000.0;   // carrier mass [kg]
  double m2 = 1900.0;    // turntable mass [kg]
  double m3 = 3900.0;    // boom mass [kg]
  double m4 = 3500.0;    // load mass [kg]
  double J1 = 62000.0;   // carrier inertia about its y and z axes (J1/4 about x) [kg m^2]
  double J2 = 1200.0;    // turntable inertia, isotropic [kg m^2]
  double J3 = 100000.0;  // boom inertia about the axes normal to it through its centre [kg m^2]
  double g = 9.81;       // gravity [m/s^2]
  double Lb = 17.5;      // boom length [m]
  double kv = 4.0e6;     // vertical stiffness of a pad [N/m]
  double kh = 1.0e6;     // horizontal stiffness of a pad, each direction [N/m]
  double w_s = 0.1;      // slewing rate [rad/s]
  double beta0 = 1.0;    // boom elevation above the turntable plane at t = 0 [rad]
  double w_l = 0.02;     // luffing rate [rad/s]

  /// The case: the configuration that the displacements below are added to.
  Crane3dStart start = Crane3dStart::Equilibrium;
  // Initial displacements from the case's configuration [m, rad] and initial velocities.
  double dx = 0.0, dy = 0.0, dz = 0.0, dpsi = 0.0, dtheta = 0.0, dphi = 0.0;
  double x_dot = 0.0, y_dot = 0.0, z_dot = 0.0, psi_dot = 0.0, theta_dot = 0.0, phi_dot = 0.0;

  static constexpr Interval interval{0.0, 20.0};

  static constexpr auto parameters() {
    using P = Crane3dParameters;
    return std::array{
        NamedMember<P>{"m1", &P::m1, "carrier mass [kg]", Domain::Positive},
        NamedMember<P>{"m2", &P::m2, "turntable mass [kg]", Domain::Positive},
        NamedMember<P>{"m3", &P::m3, "boom mass [kg]", Domain::Positive},
        NamedMember<P>{"m4", &P::m4, "load mass [kg]", Domain::Positive},
        NamedMember<P>{"J1", &P::J1, "carrier inertia about y and z, J1/4 about x [kg m^2]", Domain::Positive},
        NamedMember<P>{"J2", &P::J2, "turntable inertia [kg m^2]", Domain::NonNegative},
        NamedMember<P>{"J3", &P::J3, "boom inertia normal to the boom [kg m^2]", Domain::NonNegative},
        NamedMember<P>{"g", &P::g, "gravity [m/s^2]", Domain::NonNegative},
        NamedMember<P>{"Lb", &P::Lb, "boom length [m]", Domain::Positive},
        NamedMember<P>{"kv", &P::kv, "vertical pad stiffness [N/m]", Domain::Positive},
        NamedMember<P>{"kh", &P::kh, "horizontal pad stiffness [N/m]", Domain::Positive},
        NamedMember<P>{"w_s", &P::w_s, "slewing rate [rad/s]"},
        NamedMember<P>{"beta0", &P::beta0, "initial boom elevation [rad]"},
        NamedMember<P>{"w_l", &P::w_l, "luffing rate [rad/s]"},
    };
  }

  static constexpr auto initial_values() {
    using P = Crane3dParameters;
    return std::array{
        NamedMember<P>{"dx", &P::dx, "x displacement from the case's start [m]"},
        NamedMember<P>{"dy", &P::dy, "y displacement from the case's start [m]"},
        NamedMember<P>{"dz", &P::dz, "z displacement from the case's start [m]"},
        NamedMember<P>{"dpsi", &P::dpsi, "psi displacement from the case's start [rad]"},
        NamedMember<P>{"dtheta", &P::dtheta, "theta displacement from the case's start [rad]"},
        NamedMember<P>{"dphi", &P::dphi, "phi displacement from the case's start [rad]"},
        NamedMember<P>{"x_dot", &P::x_dot, "initial x velocity [m/s]"},
        NamedMember<P>{"y_dot", &P::y_dot, "initial y velocity [m/s]"},
        NamedMember<P>{"z_dot", &P::z_dot, "initial z velocity [m/s]"},
        NamedMember<P>{"psi_dot", &P::psi_dot, "initial psi rate [rad/s]"},
        NamedMember<P>{"theta_dot", &P::theta_dot, "initial theta rate [rad/s]"},
        NamedMember<P>{"phi_dot", &P::phi_dot, "initial phi rate [rad/s]"},
    };
  }
};

/// Fixed geometry, in body-1 axes from the carrier's mass centre (pads 6 m × 5 m apart, 1.2 m
/// below it), and the pads' anchors in the ground.
struct Crane3dGeometry {
  static constexpr std::array<double, 3> pivot{-1.0, 0.0, 1.0};  // o2: turntable and boom pivot [m]
  static constexpr std::array<std::array<double, 3>, 4> pads{{
      {3.0, 2.5, -1.2}, {3.0, -2.5, -1.2}, {-3.0, 2.5, -1.2}, {-3.0, -2.5, -1.2}}};  // p_i [m]
  static constexpr std::array<std::array<double, 3>, 4> anchors{{
      {3.0, 2.5, 0.0}, {3.0, -2.5, 0.0}, {-3.0, 2.5, 0.0}, {-3.0, -2.5, 0.0}}};  // a_i, inertial [m]
  static constexpr double unstretched_height = 1.2;  // z with every pad on its anchor [m]
};

struct Crane3d : Crane3dParameters, Crane3dGeometry {
  static constexpr int dofs = 6;
  template <class S>
  using Coordinates = VectorN<S, dofs>;
  template <class S>
  using Vector3 = Eigen::Matrix<S, 3, 1>;
  template <class S>
  using Matrix3 = Eigen::Matrix<S, 3, 3>;

  /// A run whose |q_i| or |v_i| exceeds this stops as diverged (the crane has toppled or the
  /// step is past the stability limit): the reference's rule for this model.
  static constexpr double divergence_bound = 1e3;

  static constexpr std::array<std::string_view, dofs> coordinate_names() {
    return {"x", "y", "z", "psi", "theta", "phi"};
  }

  /// The equilibrium case with the default parameters, ready to run.
  Crane3d() { prepare(); }
  explicit Crane3d(Crane3dStart case_start) {
    start = case_start;
    prepare();
  }

  /// Computes what depends on both the parameters and the initial values: the start q0 (the
  /// equilibrium by Newton's method, or the drop configuration, plus the displacements) and the
  /// zero level of V there. The constructors call it; call it again after changing a parameter
  /// or an initial value (the command line does so after --set and --init).
  void prepare() {
    const Coordinates<double> configuration =
        start == Crane3dStart::Equilibrium ? equilibrium() : unstretched_configuration();
    start_.q = configuration + Coordinates<double>(dx, dy, dz, dpsi, dtheta, dphi);
    start_.v = Coordinates<double>(x_dot, y_dot, z_dot, psi_dot, theta_dot, phi_dot);
    ground_potential_at_start_ = ground_potential(start_.q, 0.0);
  }

  InitialState<dofs> initial_state() const { return start_; }

  /// T [J]: the carrier (translation and rotation), the turntable (a point mass at the pivot and
  /// an isotropic inertia turning with body 2), the boom (mass at its centre, inertia J3 about
  /// the axes normal to it, none about it) and the load (a point mass at the boom tip).
  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S& t) const {
    const Matrix3<S> Rx = rotation_x(q[3]), Ry = rotation_y(q[4]), Rz = rotation_z(q[5]);
    const Matrix3<S> Rxy = Rx * Ry;
    const Matrix3<S> R1 = Rxy * Rz;
    const Matrix3<S> slew = rotation_z(S(w_s * t));
    const Matrix3<S> R2 = R1 * slew * rotation_y(S(-(beta0 + w_l * t)));

    // Angular velocities, inertial components: the Cardan rates about their own axes; body 2
    // adds the slewing rate about the carrier's z and the luffing rate about the slewed −y.
    const Vector3<S> w1 = Vector3<S>(v[3], S(0.0), S(0.0)) + v[4] * Rx.col(1) + v[5] * Rxy.col(2);
    const Vector3<S> w2 = w1 + w_s * R1.col(2) - w_l * (R1 * slew.col(1));
    const Vector3<S> W1 = R1.transpose() * w1, W2 = R2.transpose() * w2;  // body axes

    const Vector3<S> v1(v[0], v[1], v[2]);
    const Vector3<S> boom = Lb * R2.col(0);  // pivot to tip
    const Vector3<S> v_pivot = v1 + w1.cross(body_to_inertial(R1, pivot));
    const Vector3<S> v_boom_centre = v_pivot + S(0.5) * w2.cross(boom);
    const Vector3<S> v_tip = v_pivot + w2.cross(boom);

    const S carrier = m1 * v1.squaredNorm() + 0.25 * J1 * W1[0] * W1[0] + J1 * (W1[1] * W1[1] + W1[2] * W1[2]);
    const S turntable = m2 * v_pivot.squaredNorm() + J2 * w2.squaredNorm();
    const S boom_part = m3 * v_boom_centre.squaredNorm() + J3 * (W2[1] * W2[1] + W2[2] * W2[2]);
    const S load = m4 * v_tip.squaredNorm();
    return 0.5 * (carrier + turntable + boom_part + load);
  }

  /// V [J], the primary zero level: Vground − Vground(q0, 0), zero at the run's start q0.
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    return ground_potential(q, t) - ground_potential_at_start_;
  }

  /// Vground [J]: V with springs unstretched and gravity zero at the ground Z = 0 (the
  /// reference's "ground datum").
  template <class S>
  S ground_potential(const Coordinates<S>& q, const S& t) const {
    return spring_potential(q) + gravity_potential(q, t);
  }

  /// Vs [J]: the four linear pad springs, ½ dᵀ diag(kh, kh, kv) d with d = pad − anchor.
  template <class S>
  S spring_potential(const Coordinates<S>& q) const {
    const Matrix3<S> R1 = carrier_rotation(q);
    S energy(0.0);
    for (int i = 0; i < 4; ++i) {
      const Vector3<S> d = pad_position(q, R1, i) - to_vector<S>(anchors[i]);
      energy += 0.5 * (kh * (d[0] * d[0] + d[1] * d[1]) + kv * d[2] * d[2]);
    }
    return energy;
  }

  /// Vg [J]: gravity on the four masses, zero at Z = 0.
  template <class S>
  S gravity_potential(const Coordinates<S>& q, const S& t) const {
    const Matrix3<S> R1 = carrier_rotation(q);
    const S pivot_height = q[2] + body_to_inertial(R1, pivot)[2];
    const S boom_rise = Lb * boom_axis(R1, t)[2];  // pivot to tip, vertical
    return g * (m1 * q[2] + m2 * pivot_height + m3 * (pivot_height + 0.5 * boom_rise) +
                m4 * (pivot_height + boom_rise));
  }

  /// No damping, no drive force: only potential forces act (the drive's work is in Z).
  template <class S>
  Coordinates<S> forces(const Coordinates<S>& /*q*/, const Coordinates<S>& /*v*/, const S& /*t*/) const {
    return Coordinates<S>::Zero();
  }

  /// ∂Vg/∂psi [N m]: the gravity moment about the inertial X axis, g [(m2 + m3 + m4) (R1 o2)_Y +
  /// (m3/2 + m4) Lb (e_b)_Y], since ∂(R1 u)_Z/∂psi = (R1 u)_Y. Zero while the upper structure
  /// stays in the carrier's x–z plane on a level carrier (t = 0).
  double gravity_moment_about_x(const Coordinates<double>& q, double t) const {
    const Matrix3<double> R1 = carrier_rotation(q);
    return g * ((m2 + m3 + m4) * body_to_inertial(R1, pivot)[1] + (0.5 * m3 + m4) * Lb * boom_axis(R1, t)[1]);
  }

  /// The extra outputs: the vertical pad forces F_i = −kv (pad_i)_Z [N], positive in compression.
  static constexpr std::array<std::string_view, 4> extra_output_names() { return {"F1", "F2", "F3", "F4"}; }
  std::array<double, 4> extra_outputs(const Coordinates<double>& q, const Coordinates<double>& /*v*/,
                                      double /*t*/) const {
    return pad_forces(q);
  }
  std::array<double, 4> pad_forces(const Coordinates<double>& q) const {
    const Matrix3<double> R1 = carrier_rotation(q);
    std::array<double, 4> forces{};
    for (int i = 0; i < 4; ++i) forces[i] = -kv * pad_position(q, R1, i)[2];
    return forces;
  }

  /// The static equilibrium of the case Equilibrium (without the displacements), at the
  /// current parameters.
  Coordinates<double> equilibrium() const { return static_equilibrium(unstretched_configuration()); }

  /// The natural frequencies about equilibrium() [Hz], ascending: sqrt(max(λ, 0)) / (2π) for
  /// the eigenvalues λ of M(q_eq, 0)⁻¹ ∇²V(q_eq, 0) (natural_frequencies.hpp).
  std::array<double, dofs> natural_frequencies() const {
    return energy_audit::natural_frequencies(*this, equilibrium(), 0.0);
  }

  /// The static equilibrium ∇V(q, 0) = 0 by Newton's method with the exact Hessian (by automatic
  /// differentiation) from q, stopped when max |Δq| < 1e-15. Throws energy_audit::Error after
  /// 50 iterations without that, or at a Hessian that is not positive definite (no stable rest
  /// near q).
  Coordinates<double> static_equilibrium(Coordinates<double> q) const {
    for (int iteration = 0; iteration < 50; ++iteration) {
      const PotentialDerivatives<dofs> d = potential_derivatives(*this, q, 0.0);
      Coordinates<double> step;
      if (!solve_positive_definite(d.hessian, Coordinates<double>(-d.gradient), step)) {
        throw Error("crane3d: the Hessian of V is not positive definite on the way to the equilibrium");
      }
      q += step;
      if (step.cwiseAbs().maxCoeff() < 1e-15) return q;
    }
    throw Error("crane3d: Newton's method found no static equilibrium in 50 iterations");
  }

 protected:
  /// [0, 0, 1.2, 0, 0, 0]: every pad on its anchor, the carrier level.
  static Coordinates<double> unstretched_configuration() {
    return Coordinates<double>(0.0, 0.0, unstretched_height, 0.0, 0.0, 0.0);
  }

  template <class S>
  static Matrix3<S> rotation_x(const S& a) {
    using std::cos, std::sin;
    const S c = cos(a), s = sin(a);
    Matrix3<S> R;
    R << S(1.0), S(0.0), S(0.0), S(0.0), c, -s, S(0.0), s, c;
    return R;
  }
  template <class S>
  static Matrix3<S> rotation_y(const S& a) {
    using std::cos, std::sin;
    const S c = cos(a), s = sin(a);
    Matrix3<S> R;
    R << c, S(0.0), s, S(0.0), S(1.0), S(0.0), -s, S(0.0), c;
    return R;
  }
  template <class S>
  static Matrix3<S> rotation_z(const S& a) {
    using std::cos, std::sin;
    const S c = cos(a), s = sin(a);
    Matrix3<S> R;
    R << c, -s, S(0.0), s, c, S(0.0), S(0.0), S(0.0), S(1.0);
    return R;
  }

  /// R1 = Rx(psi) Ry(theta) Rz(phi): body-1 components to inertial ones.
  template <class S>
  static Matrix3<S> carrier_rotation(const Coordinates<S>& q) {
    return rotation_x(q[3]) * rotation_y(q[4]) * rotation_z(q[5]);
  }

  /// e_b = R1 Rz(alpha) [cos beta, 0, sin beta]ᵀ: the boom axis, inertial components.
  template <class S>
  Vector3<S> boom_axis(const Matrix3<S>& R1, const S& t) const {
    using std::cos, std::sin;
    const S alpha = w_s * t, beta = beta0 + w_l * t;
    const Vector3<S> in_carrier(cos(alpha) * cos(beta), sin(alpha) * cos(beta), sin(beta));
    return R1 * in_carrier;
  }

  /// R u for a constant body vector u: R's columns weighted by numbers, cheaper on Duals than a
  /// product with u made of Duals.
  template <class S>
  static Vector3<S> body_to_inertial(const Matrix3<S>& R, const std::array<double, 3>& u) {
    return R.col(0) * u[0] + R.col(1) * u[1] + R.col(2) * u[2];
  }

  template <class S>
  static Vector3<S> to_vector(const std::array<double, 3>& u) {
    return Vector3<S>(S(u[0]), S(u[1]), S(u[2]));
  }

  /// rp_i = r1 + R1 p_i, inertial.
  template <class S>
  static Vector3<S> pad_position(const Coordinates<S>& q, const Matrix3<S>& R1, int i) {
    return Vector3<S>(q[0], q[1], q[2]) + body_to_inertial(R1, pads[i]);
  }

 private:
  InitialState<dofs> start_{};
  double ground_potential_at_start_ = 0.0;  // Vground(q0, 0) [J]
};

/// crane3d with one sign flipped in its equations of motion (docs/models.md, crane3d-wrong): in the
/// psi row, the gravity part −∂Vg/∂psi of −∂V/∂q becomes +∂Vg/∂psi. T, V, Ż and C stay those of
/// Crane3d. Its accelerations are its own (the "hand-derived" ones the equation check compares
/// with Lagrange's equations of T and V): the correct terms M and r from the library with
/// 2 ∂Vg/∂psi added to r_psi, solved with M.
struct Crane3dWrong : Crane3d {
  using Crane3d::Crane3d;

  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v, double t) const {
    const Crane3d& correct = *this;
    LagrangeTerms<dofs> terms = lagrange_terms(correct, q, v, t);
    terms.rhs[3] += 2 * gravity_moment_about_x(q, t);
    Coordinates<double> a;
    if (!solve_positive_definite(terms.mass, terms.rhs, a)) {
      throw Error("crane3d-wrong: mass matrix d2T/dv2 is not positive definite at t = " + to_text(t));
    }
    return a;
  }
};

}  // namespace energy_audit::examples
