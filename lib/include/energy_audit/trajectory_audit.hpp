#pragma once
/// \file
/// The audit of a trajectory computed elsewhere (another integrator, a simulation tool, a
/// measurement), from its samples (t_i, q_i, v_i, a_i): C = H + Z at every sample, judged as
/// every run is (audit.hpp). Z is integrated over each interval [t_i, t_{i+1}] by 4-point
/// Gauss–Legendre quadrature of Ż = ∂T/∂t − ∂V/∂t − vᵀf on the cubic Hermite interpolants of the
/// interval, q(t) from (q, v) and v(t) from (v, a) at its ends. Both interpolants are accurate to
/// O(h⁴) (their error is h⁴/384 times the fourth derivative of q, of v), and the quadrature is
/// exact for polynomials of degree 7, so Z is accurate to O(h⁴) over a fixed interval: samples
/// of an exact solution give δ_C = O(h⁴), and a trajectory whose accelerations do not belong to
/// its energies drifts by the power that is missing.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

#include "energy_audit/audit.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_terms.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/types.hpp"

namespace energy_audit {

/// The samples, one column per time: q, v and a are n × N, t has N entries, increasing.
struct TrajectorySamples {
  Vector t;
  Matrix q, v, a;
};

/// The energies of the trajectory's model as functions over its coordinates and velocities.
/// Only T and V are required.
struct TrajectoryEnergies {
  std::function<double(const Vector& q, const Vector& v, double t)> kinetic_energy;    ///< T [J]
  std::function<double(const Vector& q, double t)> potential_energy;                   ///< V [J]
  std::function<double(const Vector& q, const Vector& v, double t)> nonpotential_power = {};  ///< vᵀf [W]
  std::function<double(const Vector& q, const Vector& v, double t)> kinetic_energy_rate = {};  ///< ∂T/∂t [W]
  std::function<double(const Vector& q, double t)> potential_energy_rate = {};                 ///< ∂V/∂t [W]
};

/// The energies of a templated Lagrange model (lagrange_model.hpp): T, V and vᵀf from its
/// templates, ∂T/∂t and ∂V/∂t by automatic differentiation (none for a scleronomic model).
template <LagrangeModel M>
TrajectoryEnergies trajectory_energies(M model) {
  using Coordinates = VectorN<double, M::dofs>;
  TrajectoryEnergies e;
  e.kinetic_energy = [model](const Vector& q, const Vector& v, double t) {
    return static_cast<double>(model.kinetic_energy(Coordinates(q), Coordinates(v), t));
  };
  e.potential_energy = [model](const Vector& q, double t) {
    return static_cast<double>(model.potential_energy(Coordinates(q), t));
  };
  e.nonpotential_power = [model](const Vector& q, const Vector& v, double t) {
    const Coordinates velocities(v);
    return velocities.dot(model.forces(Coordinates(q), velocities, t));
  };
  if constexpr (!is_scleronomic<M>) {
    e.kinetic_energy_rate = [model](const Vector& q, const Vector& v, double t) {
      return explicit_time_derivatives(model, Coordinates(q), Coordinates(v), t).T_t;
    };
    e.potential_energy_rate = [model](const Vector& q, double t) {
      return explicit_time_derivatives(model, Coordinates(q), Coordinates::Zero().eval(), t).V_t;
    };
  }
  return e;
}

namespace detail {

/// Throws InvalidArgument naming the first entry of `values` (n × N, one column per sample)
/// that is not finite, by its sample and coordinate.
inline void check_finite_samples(const Matrix& values, const char* name) {
  for (Index i = 0; i < values.cols(); ++i) {
    for (Index j = 0; j < values.rows(); ++j) {
      if (!std::isfinite(values(j, i))) {
        std::ostringstream text;
        text << "audit_trajectory: " << name << " is " << values(j, i) << " at sample " << i << ", coordinate " << j
             << "; the samples must be finite";
        throw InvalidArgument(text.str());
      }
    }
  }
}

/// The samples at which T and V given without their rates are checked for a dependence on t.
inline constexpr Index time_dependence_checked_samples = 4;

/// Throws InvalidArgument when T (V), given without ∂T/∂t (∂V/∂t), changes with t at fixed q
/// and v at the sample (q, v, t): Z would miss the power of that dependence, and δ_C would
/// drift by it as if the equations were wrong. A function that does not read t returns the
/// same value at t + Δt; the smallest dependence that could move δ_C changes it by far more
/// than round-off.
inline void check_time_dependence(const TrajectoryEnergies& e, const Vector& q, const Vector& v, double t) {
  if (e.kinetic_energy_rate && e.potential_energy_rate) return;
  const double dt = 1e-6 * std::max(1.0, std::abs(t));
  const double T = e.kinetic_energy(q, v, t), V = e.potential_energy(q, t);
  const double resolution = 1e3 * std::numeric_limits<double>::epsilon() *
                            std::max({std::abs(T), std::abs(V), std::numeric_limits<double>::min()});
  const auto refuse_if_changed = [&](double at_t, double later, const char* energy, const char* what,
                                     const char* rate) {
    if (!(std::abs(later - at_t) > resolution)) return;
    std::ostringstream text;
    text << "audit_trajectory: " << energy << " changes with t at fixed " << what << " (by " << (later - at_t) / dt
         << " W at t = " << t << ") but its rate " << rate << " is not given; Z would miss that power";
    throw InvalidArgument(text.str());
  };
  if (!e.kinetic_energy_rate) {
    refuse_if_changed(T, e.kinetic_energy(q, v, t + dt), "T", "q and v", "dT_dt (kinetic_energy_rate)");
  }
  if (!e.potential_energy_rate) {
    refuse_if_changed(V, e.potential_energy(q, t + dt), "V", "q", "dV_dt (potential_energy_rate)");
  }
}

inline double energy_flow_rate(const TrajectoryEnergies& e, const Vector& q, const Vector& v, double t) {
  double rate = 0;
  if (e.kinetic_energy_rate) rate += e.kinetic_energy_rate(q, v, t);
  if (e.potential_energy_rate) rate -= e.potential_energy_rate(q, t);
  if (e.nonpotential_power) rate -= e.nonpotential_power(q, v, t);
  return rate;
}

}  // namespace detail

/// Audits the samples over [t_0, t_{N−1}]: Z from the quadrature above, C at every sample.
/// Throws InvalidArgument for fewer than 2 samples, sizes that do not match, times that do not
/// increase, a sample that is not finite (naming q, v or a and its index), a missing T or V,
/// or a T (V) that changes with t at fixed q and v at one of the first samples while its rate
/// is not given. A sample whose energies are not finite makes δ_C infinite, and the verdict
/// fails.
inline Audit audit_trajectory(const TrajectorySamples& samples, const TrajectoryEnergies& energies,
                              AuditOptions options = {}) {
  const Index count = samples.t.size(), n = samples.q.rows();
  if (!energies.kinetic_energy || !energies.potential_energy) {
    throw InvalidArgument("audit_trajectory: the kinetic and the potential energy are required");
  }
  if (count < 2) throw InvalidArgument("audit_trajectory: " + std::to_string(count) + " samples; it needs at least 2");
  if (n < 1 || samples.q.cols() != count || samples.v.rows() != n || samples.v.cols() != count ||
      samples.a.rows() != n || samples.a.cols() != count) {
    throw InvalidArgument("audit_trajectory: q, v and a must be n x " + std::to_string(count) +
                          " (one column per time); they are " + std::to_string(samples.q.rows()) + " x " +
                          std::to_string(samples.q.cols()) + ", " + std::to_string(samples.v.rows()) + " x " +
                          std::to_string(samples.v.cols()) + ", " + std::to_string(samples.a.rows()) + " x " +
                          std::to_string(samples.a.cols()));
  }
  for (Index i = 0; i < count; ++i) {
    if (!std::isfinite(samples.t[i]) || (i > 0 && !(samples.t[i] > samples.t[i - 1]))) {
      throw InvalidArgument("audit_trajectory: the times must be finite and increase; t[" + std::to_string(i) +
                            "] = " + std::to_string(samples.t[i]));
    }
  }
  detail::check_finite_samples(samples.q, "q");
  detail::check_finite_samples(samples.v, "v");
  detail::check_finite_samples(samples.a, "a");
  for (Index i = 0; i < std::min(count, detail::time_dependence_checked_samples); ++i) {
    detail::check_time_dependence(energies, samples.q.col(i), samples.v.col(i), samples.t[i]);
  }
  constexpr std::array<double, 4> nodes{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                        0.8611363115940526};
  constexpr std::array<double, 4> weights{0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                          0.3478548451374538};
  options.equation_check_every = 0;
  Audit audit(options);
  audit.begin_run(samples.t[0], samples.t[count - 1]);
  double Z = 0;
  Vector q(n), v(n), minus_v(n), zero_v = Vector::Zero(n);
  for (Index i = 0; i < count; ++i) {
    if (i > 0) {  // Z over [t_{i−1}, t_i] on the Hermite interpolants
      const double t0 = samples.t[i - 1], h = samples.t[i] - t0;
      double sum = 0;
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        const double s = 0.5 * (1 + nodes[k]), s2 = s * s, s3 = s2 * s;
        const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
        q = h00 * samples.q.col(i - 1) + h10 * h * samples.v.col(i - 1) + h01 * samples.q.col(i) +
            h11 * h * samples.v.col(i);
        v = h00 * samples.v.col(i - 1) + h10 * h * samples.a.col(i - 1) + h01 * samples.v.col(i) +
            h11 * h * samples.a.col(i);
        sum += weights[k] * detail::energy_flow_rate(energies, q, v, t0 + s * h);
      }
      Z += 0.5 * h * sum;
    }
    const double t = samples.t[i];
    q = samples.q.col(i);
    v = samples.v.col(i);
    minus_v = -v;
    EnergyTerms e = split_kinetic_energy(energies.kinetic_energy(q, v, t), energies.kinetic_energy(q, minus_v, t),
                                         energies.kinetic_energy(q, zero_v, t));
    e.V = energies.potential_energy(q, t);
    audit.record(EnergySample{t, q, v, e, Z});
  }
  audit.end_run(RunEnd::Finished, samples.t[count - 1]);
  return audit;
}

}  // namespace energy_audit
