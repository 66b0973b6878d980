// Seed 000's mechanism (examples/models/mechanism.hpp) against references from outside the code
// under test: the closed forms of docs/models.md for T2, T1, T0, V and Ż, the accelerations the
// library derives from T and V, C(t0) at the rest start, p_x(0) = 0 for the conserved momentum, and
// Hamilton's form of the same model. Its wrong twins fail where it passes.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/derived_accelerations.hpp>
#include <energy_audit/energy_flow.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/extra_outputs.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>

#include "mechanism.hpp"

namespace ea = energy_audit;
using energy_audit::examples::Mechanism;
using energy_audit::examples::MechanismWrong;
using energy_audit::examples::MechanismWrong2;
using Coordinates = Mechanism::Coordinates<double>;
using boost::test_tools::tolerance;

namespace {

/// The closed forms of docs/models.md, mechanism, written out here apart from the model's code.
struct ClosedForms {
  Mechanism m;
  double MT() const { return m.m1 + m.m2 + m.m3; }
  double ME() const { return m.m2 * m.e + m.m3 * m.h; }
  double I0() const { return m.m2 * m.e * m.e + m.J2 + m.m3 * m.h * m.h; }  // +m2 e^2, not seed 000's -m2 e^2
  static double beta(double t) { return std::sin(5 * t); }
  static double beta_dot(double t) { return 5 * std::cos(5 * t); }
  static double beta_ddot(double t) { return -25 * std::sin(5 * t); }

  double T2(const Coordinates& q, const Coordinates& v) const {
    return 0.5 * (MT() * v[0] * v[0] + 2 * m.m3 * m.l * std::cos(q[1]) * v[0] * v[1] + m.m3 * m.l * m.l * v[1] * v[1]);
  }
  double T1(const Coordinates& q, const Coordinates& v, double t) const {
    const double b = beta(t);
    return beta_dot(t) * (-ME() * std::sin(b) * v[0] + m.m3 * m.h * m.l * std::sin(q[1] - b) * v[1]);
  }
  double T0(double t) const { return 0.5 * I0() * beta_dot(t) * beta_dot(t); }
  double V(const Coordinates& q, double t) const {
    return m.g * ME() * std::sin(beta(t)) - m.m3 * m.g * m.l * std::cos(q[1]);
  }
  /// Ż = ∂T/∂t − ∂V/∂t, with seed 000's misprint "sin β ẍ β̇²" read as "sin β ẋ β̈".
  double Z_dot(const Coordinates& q, const Coordinates& v, double t) const {
    const double b = beta(t), bd = beta_dot(t), bdd = beta_ddot(t), gamma = q[1];
    return bdd * (-ME() * std::sin(b) * v[0] + m.m3 * m.h * m.l * std::sin(gamma - b) * v[1]) +
           bd * bd * (-ME() * std::cos(b) * v[0] - m.m3 * m.h * m.l * std::cos(gamma - b) * v[1]) + I0() * bd * bdd -
           m.g * ME() * std::cos(b) * bd;
  }
  double p_x(const Coordinates& q, const Coordinates& v, double t) const {
    return MT() * v[0] + m.m3 * m.l * std::cos(q[1]) * v[1] - ME() * beta_dot(t) * std::sin(beta(t));
  }
  /// The size of p_x's terms: ME |β̇|max, the momentum the drive gives the slider.
  double momentum_scale() const { return ME() * 5; }
};

struct RandomStates {
  std::mt19937 random{2000};
  std::uniform_real_distribution<double> position{-1.0, 1.0}, angle{-std::numbers::pi, std::numbers::pi},
      speed{-5.0, 5.0}, angular_speed{-40.0, 40.0}, time{0.0, 10.0};
  Coordinates q() { return {position(random), angle(random)}; }
  Coordinates v() { return {speed(random), angular_speed(random)}; }
  double t() { return time(random); }
};

struct Run {
  ea::Audit audit;
  ea::Vector y;
};

/// Runs `system` from y0 over the mechanism's interval [0, 10], every step stored.
template <class System>
Run run(const System& system, ea::Vector y0, ea::FixedStepMethod method, double h) {
  Run r{ea::Audit{}, std::move(y0)};
  ea::FixedStepper stepper(method);
  const ea::IntegrationResult result =
      ea::integrate_const(stepper, system, r.y, Mechanism::interval.t0, Mechanism::interval.t_end, h,
                          ea::watch(system, r.audit));
  BOOST_REQUIRE(result.finished());
  return r;
}

template <class Model>
Run lagrange_run(double h, ea::FixedStepMethod method = ea::FixedStepMethod::of<ea::methods::Rk4>()) {
  const ea::LagrangeSystem<Model> system{Model{}};
  const auto start = Model{}.initial_state();
  return run(system, system.initial_state(start.q, start.v), method, h);
}

Run hamilton_run(double h) {
  const ea::HamiltonSystem<Mechanism> system{Mechanism{}};
  const auto start = Mechanism{}.initial_state();
  return run(system, system.initial_state(start.q, start.v, 0.0), ea::FixedStepMethod::of<ea::methods::Rk4>(), h);
}

/// Column `offset + i` of every stored row.
std::vector<double> column(const ea::History& history, std::size_t index) {
  std::vector<double> values;
  for (std::size_t r = 0; r < history.rows(); ++r) values.push_back(history.row(r)[index]);
  return values;
}

Coordinates q_of(std::span<const double> row) { return {row[1], row[2]}; }
Coordinates w_of(std::span<const double> row) { return {row[3], row[4]}; }

}  // namespace

BOOST_AUTO_TEST_CASE(energies_and_energy_flow_match_the_closed_forms) {
  const ClosedForms closed;
  RandomStates states;
  for (int i = 0; i < 200; ++i) {
    const Coordinates q = states.q(), v = states.v();
    const double t = states.t();
    const ea::EnergyTerms e = ea::split_energy_terms(closed.m, q, v, t);
    const double scale = closed.T0(0.0) + closed.MT() * 25 + closed.m.m3 * closed.m.l * closed.m.l * 1600;
    BOOST_TEST(std::abs(e.T2 - closed.T2(q, v)) <= 1e-14 * scale);
    BOOST_TEST(std::abs(e.T1 - closed.T1(q, v, t)) <= 1e-14 * scale);
    BOOST_TEST(std::abs(e.T0 - closed.T0(t)) <= 1e-14 * scale);
    BOOST_TEST(std::abs(e.V - closed.V(q, t)) <= 1e-14 * scale);
    // Ż's terms reach 25 I0 |β̇| and |β̇|^2 ME |ẋ|: compare relative to them.
    const double flow_scale = 25 * 5 * closed.I0() + 25 * closed.ME() * 5 + 25 * 5 * closed.m.m3 * closed.m.h * 40;
    BOOST_TEST(std::abs(ea::energy_flow_rate(closed.m, q, v, t) - closed.Z_dot(q, v, t)) <= 1e-14 * flow_scale);
  }
}

BOOST_AUTO_TEST_CASE(hand_accelerations_agree_with_the_derived_ones_to_round_off) {
  const Mechanism model;
  RandomStates states;
  for (int i = 0; i < 500; ++i) {
    const Coordinates q = states.q(), v = states.v();
    const double t = states.t();
    const Coordinates hand = model.accelerations(q, v, t);
    const Coordinates derived = ea::derived_accelerations(model, q, v, t);
    // The size of the terms: gravity, the drive (h β̈, h β̇^2 up to 50 m/s^2 over l) and l γ̇^2.
    const double scale = hand.cwiseAbs().maxCoeff() + (model.g + 50 * model.h) / model.l + 1600;
    BOOST_TEST((hand - derived).cwiseAbs().maxCoeff() <= 1e-13 * scale, "q = " << q.transpose() << ", v = "
                                                                              << v.transpose() << ", t = " << t);
  }
}

// C = H + Z stays at C(t0) to the solver's accuracy while E = T + V swings by order one: the drive
// feeds and takes energy, and H = T2 − T0 + V is not E.
BOOST_AUTO_TEST_CASE(c_is_constant_while_e_swings_by_order_one) {
  const ClosedForms closed;
  const Run r = lagrange_run<Mechanism>(1e-4);
  // At the rest start T2 = T1 = 0, T0 = I0 β̇(0)^2 / 2 and V = −m3 g l: C(t0) = H(t0) = −T0 + V.
  BOOST_TEST(r.audit.initial_control() == -0.5 * closed.I0() * 25 - closed.m.m3 * closed.m.g * closed.m.l,
             tolerance(1e-14));
  BOOST_TEST_MESSAGE("rk4 h = 1e-4: delta_C = " << r.audit.relative_drift());
  BOOST_TEST(r.audit.relative_drift() < 1e-11);
  BOOST_TEST(r.audit.passed());

  const ea::HistoryLayout& layout = r.audit.history().layout();
  const std::size_t energy = layout.energy_offset();  // T, T2, T1, T0, V, E, H, Z, C
  const std::vector<double> E = column(r.audit.history(), energy + 5), H = column(r.audit.history(), energy + 6),
                            C = column(r.audit.history(), energy + 8);
  const auto [E_min, E_max] = std::minmax_element(E.begin(), E.end());
  const double scale = r.audit.energy_scale();
  BOOST_TEST_MESSAGE("E in [" << *E_min << ", " << *E_max << "] J, energy scale " << scale << " J");
  BOOST_TEST((*E_max - *E_min) > 0.5 * scale);
  double max_H_minus_E = 0, max_C_change = 0;
  for (std::size_t i = 0; i < E.size(); ++i) {
    max_H_minus_E = std::max(max_H_minus_E, std::abs(H[i] - E[i]));
    max_C_change = std::max(max_C_change, std::abs(C[i] - C[0]));
  }
  BOOST_TEST(max_H_minus_E > 0.5 * scale);
  BOOST_TEST(max_C_change < 1e-11 * (*E_max - *E_min));
}

// x is cyclic with no x-force: p_x = ∂T/∂ẋ stays at p_x(0) = 0. In Hamilton's form p_x is a state
// entry with rate exactly 0, so it holds to round-off; in Lagrange's form it carries rk4's
// truncation error, which falls as h^4.
BOOST_AUTO_TEST_CASE(p_x_is_conserved) {
  const ClosedForms closed;
  const ea::HamiltonSystem<Mechanism> hamilton{Mechanism{}};
  const Run h = hamilton_run(1e-3);
  double max_state_p_x = 0, max_extra_p_x = 0;
  for (std::size_t r = 0; r < h.audit.history().rows(); ++r) {
    const auto row = h.audit.history().row(r);
    max_state_p_x = std::max(max_state_p_x, std::abs(row[3]));
    max_extra_p_x = std::max(max_extra_p_x, std::abs(ea::extra_outputs_at(hamilton, q_of(row), w_of(row), row[0])[0]));
  }
  BOOST_TEST(max_state_p_x == 0.0);
  BOOST_TEST_MESSAGE("Hamilton's form, rk4 h = 1e-3: max |p_x| = " << max_extra_p_x << " kg m/s");
  BOOST_TEST(max_extra_p_x <= 1e-14 * closed.momentum_scale());

  const auto max_p_x = [&](double step) {
    const Run l = lagrange_run<Mechanism>(step);
    double largest = 0;
    for (std::size_t r = 0; r < l.audit.history().rows(); ++r) {
      const auto row = l.audit.history().row(r);
      largest = std::max(largest, std::abs(closed.p_x(q_of(row), w_of(row), row[0])));
    }
    return largest;
  };
  const double coarse = max_p_x(2e-3), fine = max_p_x(1e-3), finest = max_p_x(1e-4);
  BOOST_TEST_MESSAGE("Lagrange's form, rk4: max |p_x| = " << coarse << ", " << fine << ", " << finest
                                                          << " kg m/s at h = 2e-3, 1e-3, 1e-4");
  BOOST_TEST(std::log2(coarse / fine) == 4.0, tolerance(0.1));
  BOOST_TEST(finest <= 1e-11 * closed.momentum_scale());
}

BOOST_AUTO_TEST_CASE(wrong_twins_fail_where_the_mechanism_passes) {
  const Run right = lagrange_run<Mechanism>(1e-3);
  BOOST_TEST(right.audit.passed());
  BOOST_TEST(right.audit.relative_drift() < 1e-6);
  BOOST_TEST(right.audit.equation_check().relative_residual() < 1e-14);
  const Run wrong = lagrange_run<MechanismWrong>(1e-3), wrong2 = lagrange_run<MechanismWrong2>(1e-3);
  for (const Run* twin : {&wrong, &wrong2}) {
    BOOST_TEST_MESSAGE("wrong twin: delta_C = " << twin->audit.relative_drift() << ", equations' relative residual "
                                                << twin->audit.equation_check().relative_residual());
    BOOST_TEST(!twin->audit.passed());
    BOOST_TEST(twin->audit.relative_drift() > twin->audit.threshold());  // δ_C alone fails it
    BOOST_TEST(twin->audit.equation_check().relative_residual() > 1e-4);
  }
}

// Hamilton's form of the same T and V: the same motion and the same C(t). The forms' truncation
// errors differ, and the driven pendulum amplifies them (γ winds up some 37 rad), so their
// difference must fall as rk4's h^4: they approximate one solution.
namespace {

struct FormDifference {
  double q = 0, v = 0, C = 0;  ///< largest differences over the run: [m or rad], [m/s or rad/s], [J]
  double energy_scale = 0;
};

FormDifference lagrange_against_hamilton(double step) {
  const ea::HamiltonSystem<Mechanism> hamilton{Mechanism{}};
  const Run l = lagrange_run<Mechanism>(step), h = hamilton_run(step);
  const ea::History &lh = l.audit.history(), &hh = h.audit.history();
  BOOST_TEST_REQUIRE(lh.rows() == hh.rows());
  const std::size_t C = lh.layout().energy_offset() + 8;
  FormDifference d{.energy_scale = l.audit.energy_scale()};
  for (std::size_t r = 0; r < lh.rows(); ++r) {
    const auto a = lh.row(r), b = hh.row(r);
    const Coordinates v_from_p = hamilton.velocities(q_of(b), w_of(b), b[0]);
    d.q = std::max(d.q, (q_of(a) - q_of(b)).cwiseAbs().maxCoeff());
    d.v = std::max(d.v, (w_of(a) - v_from_p).cwiseAbs().maxCoeff());
    d.C = std::max(d.C, std::abs(a[C] - b[C]));
  }
  BOOST_TEST_MESSAGE("rk4 h = " << step << ", Lagrange against Hamilton: max |dq| = " << d.q << ", max |dv| = " << d.v
                                << ", max |dC| = " << d.C << " J");
  return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(hamilton_and_lagrange_forms_give_the_same_motion_and_c) {
  const FormDifference coarse = lagrange_against_hamilton(2e-4), fine = lagrange_against_hamilton(1e-4);
  BOOST_TEST(std::log2(coarse.q / fine.q) == 4.0, tolerance(0.1));
  BOOST_TEST(std::log2(coarse.v / fine.v) == 4.0, tolerance(0.1));
  BOOST_TEST(fine.q < 1e-4);
  BOOST_TEST(fine.C < 1e-10 * fine.energy_scale);
}

// The model's extra output at a state of either form: v from p in Hamilton's, and the closed form.
BOOST_AUTO_TEST_CASE(extra_outputs_are_the_same_in_either_form) {
  static_assert(ea::extra_output_count<Mechanism> == 1 && ea::extra_output_count<MechanismWrong> == 1);
  BOOST_TEST(Mechanism::extra_output_names()[0] == "p_x");
  const ClosedForms closed;
  const ea::LagrangeSystem<Mechanism> lagrange{Mechanism{}};
  const ea::HamiltonSystem<Mechanism> hamilton{Mechanism{}};
  RandomStates states;
  for (int i = 0; i < 100; ++i) {
    const Coordinates q = states.q(), v = states.v();
    const double t = states.t();
    const ea::Vector p = hamilton.initial_state(q, v, t).segment<2>(2);
    const double reference = closed.p_x(q, v, t);
    BOOST_TEST(std::abs(ea::extra_outputs_at(lagrange, q, v, t)[0] - reference) <= 1e-14 * closed.momentum_scale());
    BOOST_TEST(std::abs(ea::extra_outputs_at(hamilton, q, p, t)[0] - reference) <= 1e-13 * closed.momentum_scale());
    BOOST_TEST(std::abs(p[0] - reference) <= 1e-14 * closed.momentum_scale());  // p_x is the momentum of x
  }
}
