// The three-dimensional truck crane of seed 000 (examples/models/crane3d.hpp) against an
// independent evaluation written here from the definitions of docs/models.md, crane3d: positions
// from rotation matrices, velocities and angular velocities by finite differences of positions and
// rotations along the path (q + s v, t + s), the mass matrix by polarization of that T, derivatives
// of V by finite differences. Then the runs: C constant where E is not, the wrong twin failing
// where the crane passes, Hamilton's form beside Lagrange's, the divergence bound.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/energy_flow.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/equation_check.hpp>
#include <energy_audit/equation_residual.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/lagrange_terms.hpp>
#include <energy_audit/natural_frequencies.hpp>
#include <energy_audit/positive_definite_solve.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "crane3d.hpp"

namespace ea = energy_audit;
using ea::examples::Crane3d;
using ea::examples::Crane3dStart;
using ea::examples::Crane3dWrong;
using Coordinates = Crane3d::Coordinates<double>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Eigen::Matrix3d;
using Eigen::Vector3d;

namespace {

// ---- The independent evaluation (docs/models.md, crane3d) ----

Matrix3d Rx(double a) {
  Matrix3d R;
  R << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return R;
}
Matrix3d Ry(double a) {
  Matrix3d R;
  R << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return R;
}
Matrix3d Rz(double a) {
  Matrix3d R;
  R << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return R;
}

const Vector3d o2(-1, 0, 1);
const std::array<Vector3d, 4> pads{Vector3d(3, 2.5, -1.2), Vector3d(3, -2.5, -1.2), Vector3d(-3, 2.5, -1.2),
                                   Vector3d(-3, -2.5, -1.2)};
const std::array<Vector3d, 4> anchors{Vector3d(3, 2.5, 0), Vector3d(3, -2.5, 0), Vector3d(-3, 2.5, 0),
                                      Vector3d(-3, -2.5, 0)};

/// Where everything is at (q, t).
struct Configuration {
  Matrix3d R1, R2;
  Vector3d r1, pivot, boom_centre, tip;
  std::array<Vector3d, 4> pad;
};

Configuration configuration(const Crane3d& c, const Coordinates& q, double t) {
  Configuration k;
  k.R1 = Rx(q[3]) * Ry(q[4]) * Rz(q[5]);
  k.R2 = k.R1 * Rz(c.w_s * t) * Ry(-(c.beta0 + c.w_l * t));
  k.r1 = q.head<3>();
  k.pivot = k.r1 + k.R1 * o2;
  const Vector3d e_b = k.R2 * Vector3d(1, 0, 0);
  k.boom_centre = k.pivot + 0.5 * c.Lb * e_b;
  k.tip = k.pivot + c.Lb * e_b;
  for (int i = 0; i < 4; ++i) k.pad[i] = k.r1 + k.R1 * pads[i];
  return k;
}

/// d/ds of f(q + s u, t + s w) at s = 0 by the fourth-order central difference.
template <class F>
auto rate_along(const F& f, const Coordinates& q, const Coordinates& u, double t, double w) {
  const double e = 1e-3;
  const auto at = [&](double s) { return f(Coordinates(q + s * u), t + s * w); };
  return ((8 * (at(e) - at(-e)) - (at(2 * e) - at(-2 * e))) / (12 * e)).eval();
}

/// vee of a skew-symmetric matrix: [a]× ↦ a.
Vector3d vee(const Matrix3d& S) { return Vector3d(S(2, 1), S(0, 2), S(1, 0)); }

/// T at (q, u) along the path (q + s u, t + s w): w = 1 gives T, w = 0 (time frozen) T2, u = 0
/// (coordinates frozen) T0.
double hand_kinetic_energy(const Crane3d& c, const Coordinates& q, const Coordinates& u, double t, double w) {
  const Configuration k = configuration(c, q, t);
  const auto velocity = [&](auto point) {
    return rate_along([&](const Coordinates& qs, double ts) -> Vector3d { return point(configuration(c, qs, ts)); },
                      q, u, t, w);
  };
  const Vector3d v1 = velocity([](const Configuration& x) { return x.r1; });
  const Vector3d v_pivot = velocity([](const Configuration& x) { return x.pivot; });
  const Vector3d v_boom = velocity([](const Configuration& x) { return x.boom_centre; });
  const Vector3d v_tip = velocity([](const Configuration& x) { return x.tip; });
  const Matrix3d R1_dot = rate_along([&](const Coordinates& qs, double ts) -> Matrix3d { return configuration(c, qs, ts).R1; },
                                     q, u, t, w);
  const Matrix3d R2_dot = rate_along([&](const Coordinates& qs, double ts) -> Matrix3d { return configuration(c, qs, ts).R2; },
                                     q, u, t, w);
  const Vector3d W1 = vee(k.R1.transpose() * R1_dot), W2 = vee(k.R2.transpose() * R2_dot);  // body axes
  const Vector3d w2 = k.R2 * W2;
  return 0.5 * (c.m1 * v1.squaredNorm() + c.J1 / 4 * W1[0] * W1[0] + c.J1 * (W1[1] * W1[1] + W1[2] * W1[2]) +
                c.m2 * v_pivot.squaredNorm() + c.J2 * w2.squaredNorm() + c.m3 * v_boom.squaredNorm() +
                c.J3 * (W2[1] * W2[1] + W2[2] * W2[2]) + c.m4 * v_tip.squaredNorm());
}

double hand_spring_potential(const Crane3d& c, const Coordinates& q) {
  const Configuration k = configuration(c, q, 0.0);
  double V = 0;
  for (int i = 0; i < 4; ++i) {
    const Vector3d d = k.pad[i] - anchors[i];
    V += 0.5 * (c.kh * (d[0] * d[0] + d[1] * d[1]) + c.kv * d[2] * d[2]);
  }
  return V;
}

double hand_gravity_potential(const Crane3d& c, const Coordinates& q, double t) {
  const Configuration k = configuration(c, q, t);
  return c.g * (c.m1 * k.r1[2] + c.m2 * k.pivot[2] + c.m3 * k.boom_centre[2] + c.m4 * k.tip[2]);
}

double hand_ground_potential(const Crane3d& c, const Coordinates& q, double t) {
  return hand_spring_potential(c, q) + hand_gravity_potential(c, q, t);
}

/// ∂f/∂q_i by the fourth-order central difference.
Coordinates gradient_by_differences(const std::function<double(const Coordinates&)>& f, const Coordinates& q,
                                    double e) {
  Coordinates gradient;
  for (int i = 0; i < 6; ++i) {
    const Coordinates u = Coordinates::Unit(i);
    gradient[i] = (8 * (f(q + e * u) - f(q - e * u)) - (f(q + 2 * e * u) - f(q - 2 * e * u))) / (12 * e);
  }
  return gradient;
}

// The probe state: every coordinate and velocity non-zero.
const double t_probe = 3.0;
const Coordinates q_probe(0.01, -0.02, 1.19, 0.003, -0.002, 0.01);
const Coordinates v_probe(0.1, -0.05, 0.2, 0.01, -0.02, 0.03);

template <class Model>
struct Run {
  ea::Audit audit;
  ea::IntegrationResult result;
  ea::Vector final_state;
  double max_energy_change = 0;  ///< sup |E(t) − E(t0)| [J]
};

/// The audit's observer, which also records sup |E − E(t0)|.
template <class System>
struct AuditAndEnergy {
  ea::AuditObserver<System> audit;
  const System& system;
  double& max_energy_change;
  double E0 = std::numeric_limits<double>::quiet_NaN();

  void begin_run(double t0, double t1) const { audit.begin_run(t0, t1); }
  void end_run(ea::RunEnd end, double t) const { audit.end_run(end, t); }
  void operator()(const ea::ConstVectorRef& y, double t) {
    const double E = system.sample(y, t).energy.E();
    if (std::isnan(E0)) E0 = E;
    max_energy_change = std::max(max_energy_change, std::abs(E - E0));
    audit(y, t);
  }
};

/// Integrates Model's Lagrange form from its own start over [0, t_end].
template <class Model>
Run<Model> run(const Model& model, ea::FixedStepMethod method, double h, double t_end) {
  using System = ea::LagrangeSystem<Model>;
  const System system(model);
  const auto start = model.initial_state();
  Run<Model> r{ea::Audit{}, {}, system.initial_state(start.q, start.v)};
  ea::FixedStepper stepper(method);
  r.result = ea::integrate_const(stepper, system, r.final_state, 0.0, t_end, h,
                                 AuditAndEnergy<System>{ea::watch(system, r.audit), system, r.max_energy_change});
  return r;
}

const auto rk4 = ea::FixedStepMethod::of<ea::methods::Rk4>();
const auto rkg = ea::FixedStepMethod::of<ea::methods::Rkg>();

}  // namespace

BOOST_AUTO_TEST_CASE(probe_state_energies_match_an_independent_evaluation) {
  const Crane3d crane;
  const ea::EnergyTerms e = ea::split_energy_terms(crane, q_probe, v_probe, t_probe);
  const double T = hand_kinetic_energy(crane, q_probe, v_probe, t_probe, 1.0);
  const double T2 = hand_kinetic_energy(crane, q_probe, v_probe, t_probe, 0.0);
  const double T0 = hand_kinetic_energy(crane, q_probe, Coordinates::Zero(), t_probe, 1.0);
  const auto tolerance = boost::test_tools::tolerance(1e-9);
  BOOST_TEST(e.T == T, tolerance);
  BOOST_TEST(e.T2 == T2, tolerance);
  BOOST_TEST(e.T0 == T0, tolerance);
  BOOST_TEST(e.T1 == T - T2 - T0, tolerance);
  BOOST_TEST(e.T0 > 0.1 * T);  // rheonomic: body 2 moves with q' = 0
  BOOST_TEST(std::abs(e.T1) > 0.1 * T);

  BOOST_TEST(crane.spring_potential(q_probe) == hand_spring_potential(crane, q_probe), boost::test_tools::tolerance(1e-13));
  BOOST_TEST(crane.gravity_potential(q_probe, t_probe) == hand_gravity_potential(crane, q_probe, t_probe),
             boost::test_tools::tolerance(1e-13));
  // V is zero at the run's start (the equilibrium): V = Vground − Vground(q0, 0).
  const double V_start = hand_ground_potential(crane, crane.initial_state().q, 0.0);
  BOOST_TEST(e.V == hand_ground_potential(crane, q_probe, t_probe) - V_start, boost::test_tools::tolerance(1e-9));

  // Ż = ∂T/∂t − ∂V/∂t at fixed q and v, by differences in t.
  const double e_t = 1e-3;
  const auto T_at = [&](double t) { return hand_kinetic_energy(crane, q_probe, v_probe, t, 1.0); };
  const auto V_at = [&](double t) { return hand_gravity_potential(crane, q_probe, t); };
  const auto d_dt = [&](const auto& f) {
    return (8 * (f(t_probe + e_t) - f(t_probe - e_t)) - (f(t_probe + 2 * e_t) - f(t_probe - 2 * e_t))) / (12 * e_t);
  };
  BOOST_TEST(ea::energy_flow_rate(crane, q_probe, v_probe, t_probe) == d_dt(T_at) - d_dt(V_at),
             boost::test_tools::tolerance(1e-7));
}

BOOST_AUTO_TEST_CASE(probe_state_mass_matrix_matches_the_polarization_of_t) {
  const Crane3d crane;
  // T = ½ vᵀ M v + bᵀ v + c, so M_ij = T(e_i + e_j) − T(e_i) − T(e_j) + T(0).
  const auto T = [&](const Coordinates& v) { return hand_kinetic_energy(crane, q_probe, v, t_probe, 1.0); };
  const double T_zero = T(Coordinates::Zero());
  Matrix6 hand;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      const Coordinates ei = Coordinates::Unit(i), ej = Coordinates::Unit(j);
      hand(i, j) = T(ei + ej) - T(ei) - T(ej) + T_zero;
    }
  }
  const Matrix6 M = ea::lagrange_terms(crane, q_probe, v_probe, t_probe).mass;
  BOOST_TEST((M - hand).cwiseAbs().maxCoeff() <= 1e-8 * hand.cwiseAbs().maxCoeff());
  BOOST_TEST((M - M.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * M.cwiseAbs().maxCoeff());
  BOOST_TEST(M(0, 0) == crane.m1 + crane.m2 + crane.m3 + crane.m4, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(the_equilibrium_is_a_stable_rest_of_v) {
  const Crane3d crane;
  const Coordinates q_eq = crane.initial_state().q;
  BOOST_TEST(crane.initial_state().v.isZero());
  const double weight = (crane.m1 + crane.m2 + crane.m3 + crane.m4) * crane.g;
  // ∇V(q_eq, 0) = 0, by differences of the independent V and by the model's own derivatives.
  const auto V0 = [&](const Coordinates& q) { return hand_ground_potential(crane, q, 0.0); };
  BOOST_TEST(gradient_by_differences(V0, q_eq, 1e-5).cwiseAbs().maxCoeff() < 1e-8 * weight);
  BOOST_TEST(ea::potential_derivatives(crane, q_eq, 0.0).gradient.cwiseAbs().maxCoeff() < 1e-12 * weight);
  // Symmetric in y: y = psi = phi = 0; the carrier sinks and tips towards the boom (+x).
  BOOST_TEST(std::abs(q_eq[1]) + std::abs(q_eq[3]) + std::abs(q_eq[5]) < 1e-15);
  BOOST_TEST(q_eq[2] < 1.2);
  // The pads carry the weight: Σ F_i = (m1 + m2 + m3 + m4) g, each pad in compression.
  const std::array<double, 4> F = crane.pad_forces(q_eq);
  BOOST_TEST(F[0] + F[1] + F[2] + F[3] == weight, boost::test_tools::tolerance(1e-12));
  for (double force : F) BOOST_TEST(force > 0);
  const auto named = Crane3d::extra_output_names();
  BOOST_TEST(named[0] == "F1");
  BOOST_TEST(crane.extra_outputs(q_eq, Coordinates::Zero(), 0.0) == F);
}

// The eigenvalues λ_i = (2π f_i)² of M⁻¹K are fixed by the power sums Σ λ_i^k = trace((M⁻¹K)^k),
// k = 1..6 (Newton's identities): checked with K by differences of the independent V and M by
// polarization of the independent T, without an eigenvalue solver.
BOOST_AUTO_TEST_CASE(natural_frequencies_match_a_finite_difference_hessian) {
  const Crane3d crane;
  const Coordinates q_eq = crane.initial_state().q;
  BOOST_TEST((crane.equilibrium() - q_eq).cwiseAbs().maxCoeff() == 0.0);
  const auto V0 = [&](const Coordinates& q) { return hand_ground_potential(crane, q, 0.0); };
  Matrix6 K;  // ∇²V by differences of the difference gradient
  const double e = 1e-4;
  for (int j = 0; j < 6; ++j) {
    const Coordinates u = Coordinates::Unit(j);
    K.col(j) = (gradient_by_differences(V0, q_eq + e * u, 1e-4) - gradient_by_differences(V0, q_eq - e * u, 1e-4)) /
               (2 * e);
  }
  const auto T = [&](const Coordinates& v) { return hand_kinetic_energy(crane, q_eq, v, 0.0, 0.0); };  // T2
  Matrix6 M;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) {
      const Coordinates ei = Coordinates::Unit(i), ej = Coordinates::Unit(j);
      M(i, j) = T(ei + ej) - T(ei) - T(ej);
    }
  }
  Matrix6 MinvK;
  for (int j = 0; j < 6; ++j) {
    Coordinates column;
    BOOST_TEST_REQUIRE(ea::solve_positive_definite<6>(M, Coordinates(K.col(j)), column));
    MinvK.col(j) = column;
  }
  const std::array<double, 6> frequencies = crane.natural_frequencies();
  Matrix6 power = Matrix6::Identity();
  for (int k = 1; k <= 6; ++k) {
    power = (power * MinvK).eval();
    double sum = 0;
    for (double f : frequencies) sum += std::pow(std::pow(2 * std::numbers::pi * f, 2), k);
    BOOST_TEST(sum == power.trace(), boost::test_tools::tolerance(1e-5));
  }
  for (int i = 0; i < 6; ++i) {
    BOOST_TEST_MESSAGE("f" << i + 1 << " = " << frequencies[i] << " Hz");
    BOOST_TEST(frequencies[i] > 0.5);  // every λ positive: the equilibrium is stable
  }
  BOOST_TEST(std::is_sorted(frequencies.begin(), frequencies.end()));
}

BOOST_AUTO_TEST_CASE(the_start_follows_the_case_and_the_initial_values) {
  Crane3d drop(Crane3dStart::Drop);
  BOOST_TEST(drop.initial_state().q == Coordinates(0, 0, 1.2, 0, 0, 0));
  BOOST_TEST(drop.potential_energy(drop.initial_state().q, 0.0) == 0.0);
  BOOST_TEST(drop.ground_potential(drop.initial_state().q, 0.0) == hand_gravity_potential(drop, Coordinates(0, 0, 1.2, 0, 0, 0), 0.0),
             boost::test_tools::tolerance(1e-14));  // springs unstretched

  Crane3d crane;
  const Coordinates q_eq = crane.initial_state().q;
  crane.dz = 0.01;
  crane.theta_dot = 0.02;
  crane.prepare();
  BOOST_TEST((crane.initial_state().q - (q_eq + Coordinates(0, 0, 0.01, 0, 0, 0))).cwiseAbs().maxCoeff() < 1e-15);
  BOOST_TEST(crane.initial_state().v[4] == 0.02);
  BOOST_TEST(crane.potential_energy(crane.initial_state().q, 0.0) == 0.0);  // V follows the start

  crane.m4 = 5000;  // a heavier load: a new equilibrium
  crane.dz = 0;
  crane.prepare();
  BOOST_TEST(crane.initial_state().q[2] < q_eq[2]);
  BOOST_TEST(ea::potential_derivatives(crane, crane.initial_state().q, 0.0).gradient.cwiseAbs().maxCoeff() < 1e-6);
}

BOOST_AUTO_TEST_CASE(c_stays_constant_while_e_does_not) {
  const Crane3d crane;
  const auto r = run(crane, rk4, 0.005, Crane3d::interval.t_end);
  BOOST_TEST_REQUIRE(r.result.finished());
  BOOST_TEST_MESSAGE("rk4 h = 0.005: delta_C = " << r.audit.relative_drift() << ", sup |E - E0| = "
                                                 << r.max_energy_change << " J, energy scale " << r.audit.energy_scale());
  BOOST_TEST(r.audit.relative_drift() < 1e-9);
  BOOST_TEST(r.max_energy_change > 1e-2 * r.audit.energy_scale());  // the drive does work: E is not conserved
}

BOOST_AUTO_TEST_CASE(the_twins_start_identical) {
  const Crane3d crane;
  const Crane3dWrong wrong;
  const auto start = crane.initial_state();
  BOOST_TEST(wrong.initial_state().q == start.q);
  const double weight_moment = (crane.m1 + crane.m2 + crane.m3 + crane.m4) * crane.g * crane.Lb;
  BOOST_TEST(std::abs(crane.gravity_moment_about_x(start.q, 0.0)) < 1e-15 * weight_moment);
  const Coordinates a = ea::derived_accelerations(crane, start.q, start.v, 0.0);
  const Coordinates a_wrong = wrong.accelerations(start.q, start.v, 0.0);
  BOOST_TEST((a - a_wrong).cwiseAbs().maxCoeff() <= 1e-13 * a.cwiseAbs().maxCoeff());
  // The flipped term is ∂Vg/∂psi: the model's formula against differences of the independent Vg.
  const auto Vg = [&](const Coordinates& q) { return hand_gravity_potential(crane, q, t_probe); };
  BOOST_TEST(crane.gravity_moment_about_x(q_probe, t_probe) == gradient_by_differences(Vg, q_probe, 1e-4)[3],
             boost::test_tools::tolerance(1e-7));
  // Elsewhere the twin's accelerations solve M a = r + 2 ∂Vg/∂psi e_psi, r the correct right-hand side.
  const auto terms = ea::lagrange_terms(crane, q_probe, v_probe, t_probe);
  Coordinates r = terms.rhs;
  r[3] += 2 * gradient_by_differences(Vg, q_probe, 1e-4)[3];
  const Coordinates residual = terms.mass * wrong.accelerations(q_probe, v_probe, t_probe) - r;
  BOOST_TEST(residual.cwiseAbs().maxCoeff() < 1e-7 * r.cwiseAbs().maxCoeff());
}

// The demonstration: at the same method and step the wrong twin fails δ_C ≤ 1e-3 and the
// equation check, the correct crane passes both; both reach t_end with a plausible motion.
BOOST_AUTO_TEST_CASE(the_wrong_twin_fails_where_the_crane_passes) {
  for (double h : {0.04, 0.01}) {
    const auto right = run(Crane3d{}, rkg, h, Crane3d::interval.t_end);
    const auto wrong = run(Crane3dWrong{}, rkg, h, Crane3d::interval.t_end);
    BOOST_TEST_MESSAGE("rkg h = " << h << ": delta_C " << right.audit.relative_drift() << " (crane3d), "
                                  << wrong.audit.relative_drift() << " (crane3d-wrong)");
    BOOST_TEST_REQUIRE(right.result.finished());
    BOOST_TEST_REQUIRE(wrong.result.finished());
    BOOST_TEST(right.audit.passed(), "h = " << h);
    BOOST_TEST(!wrong.audit.passed(), "h = " << h);
    BOOST_TEST(right.audit.relative_drift() < 1e-6);
    BOOST_TEST(wrong.audit.relative_drift() > 3e-3);
    // Plausible: the carrier leans by milliradians in both.
    BOOST_TEST(std::abs(wrong.final_state[3]) < 0.05);
    BOOST_TEST(std::abs(wrong.final_state[3] - right.final_state[3]) > 1e-4);  // but mirrored
  }
  // The equation check flags the twin's accelerations as soon as the boom has slewed.
  const Crane3dWrong wrong;
  const ea::LagrangeSystem<Crane3dWrong> system(wrong);
  BOOST_TEST(system.checks_equations());
  const auto right = run(Crane3d{}, rkg, 0.04, 5.0);
  ea::EquationCheck check;
  check.add(system.equation_residual(right.final_state, 5.0));
  BOOST_TEST_MESSAGE("equation residual at t = 5: " << check.relative_residual());
  BOOST_TEST(!check.passed());
  BOOST_TEST(check.relative_residual() > 1e-3);
  ea::EquationCheck at_start;
  at_start.add(system.equation_residual(system.initial_state(wrong.initial_state().q, wrong.initial_state().v), 0.0));
  BOOST_TEST(at_start.passed());  // ∂Vg/∂psi = 0 at t = 0
}

BOOST_AUTO_TEST_CASE(hamilton_and_lagrange_forms_agree) {
  const Crane3d crane(Crane3dStart::Drop);
  const auto start = crane.initial_state();
  const ea::LagrangeSystem<Crane3d> lagrange(crane);
  const ea::HamiltonSystem<Crane3d> hamilton(crane);
  ea::Vector y_lagrange = lagrange.initial_state(start.q, start.v);
  ea::Vector y_hamilton = hamilton.initial_state(start.q, start.v, 0.0);
  ea::FixedStepper stepper(rk4);
  ea::Audit audit_lagrange, audit_hamilton;
  const double t_end = 1.0, h = 0.005;
  BOOST_TEST_REQUIRE(ea::integrate_const(stepper, lagrange, y_lagrange, 0.0, t_end, h, ea::watch(lagrange, audit_lagrange)).finished());
  BOOST_TEST_REQUIRE(ea::integrate_const(stepper, hamilton, y_hamilton, 0.0, t_end, h, ea::watch(hamilton, audit_hamilton)).finished());
  const Coordinates q = y_lagrange.head<6>(), v = y_lagrange.segment<6>(6);
  const Coordinates q_h = y_hamilton.head<6>(), p_h = y_hamilton.segment<6>(6);
  BOOST_TEST((q - q_h).cwiseAbs().maxCoeff() < 1e-9);
  BOOST_TEST((v - hamilton.velocities(q_h, p_h, t_end)).cwiseAbs().maxCoeff() < 1e-7);
  BOOST_TEST(y_lagrange[12] == y_hamilton[12], boost::test_tools::tolerance(1e-6));  // Z
  BOOST_TEST(std::abs(q[2] - 1.2) > 1e-3);  // the carrier has dropped onto the springs
  // The drop excites every mode at once: δ_C is larger than from rest.
  BOOST_TEST(audit_lagrange.relative_drift() < 1e-5);
  BOOST_TEST(audit_hamilton.relative_drift() == audit_lagrange.relative_drift(), boost::test_tools::tolerance(0.05));
}

// crane3d's divergence rule (docs/models.md, crane3d): a step that leaves |q_i| or |v_i| above 1e3
// ends the run as diverged, in both forms, although the state is still finite.
BOOST_AUTO_TEST_CASE(a_state_beyond_the_divergence_bound_ends_the_run) {
  Crane3d crane(Crane3dStart::Drop);
  crane.kv = 4e10;  // pads so stiff that rkg at h = 0.04 is far past its stability limit
  crane.prepare();
  const auto start = crane.initial_state();
  const ea::LagrangeSystem<Crane3d> lagrange(crane);
  const ea::HamiltonSystem<Crane3d> hamilton(crane);
  ea::FixedStepper stepper(rkg);
  ea::Vector y = lagrange.initial_state(start.q, start.v);
  BOOST_TEST(lagrange.within_divergence_bound(y, 0.0));
  const auto result = ea::integrate_const(stepper, lagrange, y, 0.0, 20.0, 0.04);
  BOOST_TEST(result.diverged());
  BOOST_TEST(result.t_diverged < 1.0);  // long before the state overflows
  BOOST_TEST(ea::all_finite(y));
  BOOST_TEST(y.head<12>().cwiseAbs().maxCoeff() > Crane3d::divergence_bound);
  ea::Vector y_h = hamilton.initial_state(start.q, start.v, 0.0);
  const auto result_h = ea::integrate_const(stepper, hamilton, y_h, 0.0, 20.0, 0.04);
  BOOST_TEST(result_h.diverged());
  BOOST_TEST(result_h.t_diverged == result.t_diverged);
}
