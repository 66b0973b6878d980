#pragma once
// Test and benchmark model: a planar chain of N pendulum links, point masses m on massless rods
// of length l, each joint angle theta_i measured from the downward vertical, a viscous torque
// -c theta_i' on every angle. The energies are written once over the scalar S, in O(N)
// operations (the velocities of the masses as running sums along the chain); the hand
// accelerations build the mass matrix and the right-hand side of Lagrange's equations in closed
// form and solve them:
//
//     sum_k mu_max(j,k) l^2 [cos(theta_j - theta_k) theta_k'' + sin(theta_j - theta_k) theta_k'^2]
//         + mu_j g l sin(theta_j) = -c theta_j' ,    mu_k = (N - k) m  (the mass beyond joint k)

#include <algorithm>
#include <cmath>

#include <Eigen/Core>

#include <energy_audit/positive_definite_solve.hpp>
#include <energy_audit/types.hpp>

namespace energy_audit::testing {

/// The chain's energies and forces; accelerations derived by the library.
template <int N>
struct PendulumChainEnergies {
  static constexpr int dofs = N;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = VectorN<S, N>;

  double m = 1.0, l = 0.5, g = 9.81, c = 0.05;  // kg, m, m/s², N m s

  template <class S>
  S kinetic_energy(const Coordinates<S>& q, const Coordinates<S>& v, const S&) const {
    using std::cos, std::sin;
    S vx(0.0), vy(0.0), twice_T(0.0);
    for (int i = 0; i < N; ++i) {
      vx += l * cos(q[i]) * v[i];
      vy += l * sin(q[i]) * v[i];
      twice_T += m * (vx * vx + vy * vy);
    }
    return 0.5 * twice_T;
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    S y(0.0), V(0.0);
    for (int i = 0; i < N; ++i) {
      y -= l * cos(q[i]);
      V += m * g * y;
    }
    return V;
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return -c * v;
  }

  /// A start away from equilibrium: the links fanned out from 0.5 rad, at rest.
  Coordinates<double> start_angles() const {
    Coordinates<double> q;
    for (int i = 0; i < N; ++i) q[i] = 0.5 - 0.3 * i / N;
    return q;
  }
};

/// The same chain with hand-derived accelerations.
template <int N>
struct PendulumChain : PendulumChainEnergies<N> {
  template <class S>
  using Coordinates = VectorN<S, N>;

  Coordinates<double> accelerations(const Coordinates<double>& q, const Coordinates<double>& v, double) const {
    const double mass = this->m, length = this->l;
    Coordinates<double> s, co;
    for (int i = 0; i < N; ++i) {
      s[i] = std::sin(q[i]);
      co[i] = std::cos(q[i]);
    }
    Eigen::Matrix<double, N, N> M;  // lower triangle, as solve_positive_definite reads it
    Coordinates<double> r;
    for (int j = 0; j < N; ++j) {
      r[j] = -(N - j) * mass * this->g * length * s[j] - this->c * v[j];
      for (int k = 0; k < N; ++k) {
        const double mu_l2 = (N - std::max(j, k)) * mass * length * length;
        if (k <= j) M(j, k) = mu_l2 * (co[j] * co[k] + s[j] * s[k]);
        r[j] -= mu_l2 * (s[j] * co[k] - co[j] * s[k]) * v[k] * v[k];
      }
    }
    Coordinates<double> a;
    solve_positive_definite(M, r, a);
    return a;
  }
};

}  // namespace energy_audit::testing
