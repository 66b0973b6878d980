#pragma once
/// \file
/// Small models of the studies' tests (compare, sweep, diagnose, advise), defined here rather than
/// taken from examples/models so that each test compiles quickly and its references are closed
/// forms:
///
/// - Oscillator: a mass on a linear spring, T = ½ m v², V = ½ k q², no forces (Z = 0, C = H): the
///   harmonic oscillator of tests/fixtures/oscillator.hpp, undamped, m = k = 1. An
///   explicit Runge–Kutta method of order p ≤ 4 with p stages applied to it multiplies
///   z = q + i v/ω (ω² = k/m) by R(−iθ), θ = ω h, R(z) = Σ_{j ≤ p} z^j / j!, so each step
///   multiplies H = ½ k |z|² by |R(iθ)|² exactly: δ_C after N steps is a closed form
///   (oscillator_delta_C below).
/// - Pendulum: a pendulum swinging to 2.5 rad, far from linear, on which δ_C of a method of order p
///   falls as h^p.
///
/// oscillator_entry() and pendulum_entry() are their entries for the studies.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>

#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/studies/model_entry.hpp>

#include "oscillator.hpp"
#include "tiny_model_bases.hpp"

namespace energy_audit::study_tests {

/// The start of a one-coordinate model at q, at rest.
inline InitialState<1> at_rest(double q) {
  InitialState<1> state;
  state.q[0] = q;
  state.v[0] = 0.0;
  return state;
}

/// A mass m [kg] on a spring k [N/m] over [0, 1] s, from q = q0, v = 0; no damping.
struct Oscillator : testing::Oscillator {
  Oscillator() : testing::Oscillator{.mass = 1.0, .stiffness = 1.0} {}
  double q0 = 1.0;
  static constexpr Interval interval{0.0, 1.0};
  static constexpr std::array<std::string_view, 1> coordinate_names() { return {"q"}; }
  static constexpr auto parameters() {
    return std::array{
        NamedMember<Oscillator>{"m", &Oscillator::mass, "mass [kg]", Domain::Positive},
        NamedMember<Oscillator>{"k", &Oscillator::stiffness, "stiffness [N/m]", Domain::Positive}};
  }
  static constexpr auto initial_values() {
    return std::array{NamedMember<Oscillator>{"q", &Oscillator::q0, "start position [m]"}};
  }
  InitialState<1> initial_state() const { return at_rest(q0); }
};

/// d(θ) = |R(iθ)|² − 1 for R the Taylor polynomial of e^z to degree `order` (1 ≤ order ≤ 4: the
/// stability polynomial of every explicit Runge–Kutta method with as many stages as its order).
/// With R(iθ) = 1 + a + i b, d = 2a + a² + b², so the terms of order θ² cancel exactly rather
/// than in the rounding of 1 + ….
inline double energy_growth_per_step(int order, double theta) {
  double a = 0, b = 0, term = 1;
  for (int j = 1; j <= order; ++j) {
    term *= theta / j;                                           // θ^j / j!
    const double signed_term = (j / 2) % 2 == 0 ? term : -term;  // i^j = ±1 or ±i
    (j % 2 == 0 ? a : b) += signed_term;
  }
  return 2 * a + a * a + b * b;
}

/// δ_C = sup |C − C0| / sup H of the oscillator (ω = √(k/m)) run over [0, t_end] by an explicit
/// Runge–Kutta method of order `order` with the fixed step h: N steps, the last one shortened to
/// end at t_end (integrate_const.hpp; a ratio t_end / h within rounding of an integer is that
/// integer). H_N = H_0 (1 + d(ωh))^(N−1) (1 + d(ω h_last)), monotone in n as d keeps its sign, so
/// δ_C = |1 − H_N / H_0| / max(1, H_N / H_0).
inline double oscillator_delta_C(int order, double omega, double h, double t_end) {
  const double ratio = t_end / h;
  double steps = std::round(ratio);
  if (std::abs(ratio - steps) > 1e-9 * ratio) steps = std::ceil(ratio);
  const double last = t_end - (steps - 1) * h;
  const double log_growth = (steps - 1) * std::log1p(energy_growth_per_step(order, omega * h)) +
                            std::log1p(energy_growth_per_step(order, omega * last));
  const double change = std::expm1(log_growth);  // H_N / H_0 − 1
  return std::abs(change) / std::max(1.0, 1.0 + change);
}

/// A pendulum of length 1 m under g = 9.81 m/s² over [0, 2] s from rest at the angle phi (2.5 rad:
/// far from linear, so δ_C of a method of order p falls as h^p, not faster as on the oscillator).
struct Pendulum : testing::Unforced<1> {
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    return -9.81 * cos(q[0]);
  }
  double angle = 2.5;
  static constexpr Interval interval{0.0, 2.0};
  static constexpr std::array<std::string_view, 1> coordinate_names() { return {"phi"}; }
  static constexpr auto parameters() { return std::array<NamedMember<Pendulum>, 0>{}; }
  static constexpr auto initial_values() {
    return std::array{NamedMember<Pendulum>{"phi", &Pendulum::angle, "start angle [rad]"}};
  }
  InitialState<1> initial_state() const { return at_rest(angle); }
};

/// The oscillator's entry. Its accelerations are derived by the library from T and V, as for a
/// model without hand-derived ones (the fixture's hand accelerations are not run).
inline const studies::ModelEntry& oscillator_entry() {
  static const studies::ModelEntry entry =
      studies::make_entry<Oscillator>("oscillator", "a mass on a linear spring", AccelerationSource::Derived);
  return entry;
}

/// The pendulum's entry, from 2.5 rad.
inline const studies::ModelEntry& pendulum_entry() {
  static const studies::ModelEntry entry =
      studies::make_entry<Pendulum>("pendulum", "a pendulum of 1 m from 2.5 rad");
  return entry;
}

}  // namespace energy_audit::study_tests
