#pragma once
/// \file
/// The drop-in audit's energies from a templated Lagrange model (lagrange_model.hpp): T, V and
/// vᵀf from the model's own templates, ∂T/∂t and ∂V/∂t by automatic differentiation of them
/// (energy_flow.hpp), none for a scleronomic model. Unlike cvode_drop_in.hpp, this header
/// includes Eigen and the core.
///
///     auto audit = energy_audit::sun::make_cvode_audit(MyModel{});
///     retval = audit.CVode(cvode_mem, tout, y, &t, CV_NORMAL);
///
/// It may be included after the macros of SUNDIALS' examples: the ones among them that Eigen or
/// the core use as names (T0, T1, ... as times; C3, L as constants) are set aside while this
/// header is read and restored at its end.

// clang-format off
#pragma push_macro("T0")
#undef T0
#pragma push_macro("T1")
#undef T1
#pragma push_macro("T2")
#undef T2
#pragma push_macro("T3")
#undef T3
#pragma push_macro("C3")
#undef C3
#pragma push_macro("L")
#undef L
// clang-format on

#include <Eigen/Core>
#include <array>
#include <concepts>
#include <energy_audit/dual.hpp>
#include <energy_audit/energy_flow.hpp>
#include <energy_audit/equation_residual.hpp>
#include <energy_audit/lagrange_model.hpp>
#include <utility>

#include "energy_audit/sundials/cvode_drop_in.hpp"
#include "energy_audit/sundials/drop_in_hamiltonian.hpp"

namespace energy_audit::sun {

/// DropInEnergies over the arrays q = y[0..n), v = y[n..2n) of a model with n = M::dofs. Each
/// function holds its own copy of the model. A scleronomic model declares T homogeneous quadratic
/// in v (lagrange_model.hpp), so its T is declared quadratic here too (kinetic_energy_is_quadratic),
/// which the audit checks at the first states it splits.
template <LagrangeModel M>
DropInEnergies energies_from_model(M model) {
  using Coordinates = VectorN<double, M::dofs>;
  using View = Eigen::Map<const Coordinates>;
  DropInEnergies energies;
  energies.kinetic_energy = [model](const double* q, const double* v, double t) {
    return static_cast<double>(model.kinetic_energy(Coordinates(View(q)), Coordinates(View(v)), t));
  };
  energies.potential_energy = [model](const double* q, double t) {
    return static_cast<double>(model.potential_energy(Coordinates(View(q)), t));
  };
  energies.nonpotential_power = [model](const double* q, const double* v, double t) {
    const Coordinates velocities{View(v)};
    const Coordinates f = model.forces(Coordinates(View(q)), velocities, t);
    return velocities.dot(f);
  };
  energies.equation_residual = [model](const double* q, const double* v, const double* a, double t, double* out) {
    const EquationResidual r =
        energy_audit::equation_residual(model, Coordinates(View(q)), Coordinates(View(v)), Coordinates(View(a)), t);
    out[0] = r.residual;
    out[1] = r.scale;
  };
  energies.kinetic_energy_is_quadratic = is_scleronomic<M>;
  if constexpr (!is_scleronomic<M>) {
    energies.kinetic_energy_rate = [model](const double* q, const double* v, double t) {
      return explicit_time_derivatives(model, Coordinates(View(q)), Coordinates(View(v)), t).T_t;
    };
    energies.potential_energy_rate = [model](const double* q, double t) {  // V does not depend on v
      return explicit_time_derivatives(model, Coordinates(View(q)), Coordinates::Zero().eval(), t).V_t;
    };
  }
  return energies;
}

/// A CvodeAudit of the model: dofs = M::dofs, energies from energies_from_model.
template <LagrangeModel M>
CvodeAudit make_cvode_audit(M model, double threshold = 1e-3) {
  return CvodeAudit(M::dofs, energies_from_model(std::move(model)), threshold);
}

/// A Hamiltonian of n coordinates written once as a template over the scalar S, as the library's
/// models are (dual.hpp lists what it may use): `S operator()(const S* q, const S* p, S t) const`.
template <class H>
concept TemplatedHamiltonian = requires(const H& hamiltonian, const double* x, const Dual<double, 1>* d) {
  { hamiltonian(x, x, 0.0) } -> std::convertible_to<double>;
  { hamiltonian(d, d, Dual<double, 1>(0.0)) } -> std::convertible_to<Dual<double, 1>>;
};

/// DropInHamiltonian of a templated Hamiltonian of `Dofs` coordinates: H itself, ∂H/∂t and
/// q̇ = ∂H/∂p by forward-mode automatic differentiation (dual.hpp), so that generalized forces
/// set afterwards (generalized_forces) have their power from q̇ without the solver's derivative.
template <int Dofs, TemplatedHamiltonian H>
DropInHamiltonian energies_from_hamiltonian(H hamiltonian) {
  static_assert(Dofs > 0, "a Hamiltonian of at least one coordinate");
  DropInHamiltonian energies;
  energies.hamiltonian = [hamiltonian](const double* q, const double* p, double t) {
    return static_cast<double>(hamiltonian(q, p, t));
  };
  energies.hamiltonian_rate = [hamiltonian](const double* q, const double* p, double t) {
    using D = Dual<double, 1>;
    std::array<D, Dofs> qd, pd;
    for (int i = 0; i < Dofs; ++i) qd[i] = D(q[i]), pd[i] = D(p[i]);
    return D(hamiltonian(qd.data(), pd.data(), D(t, {1.0}))).derivatives[0];
  };
  energies.coordinate_rates = [hamiltonian](const double* q, const double* p, double t, double* q_rate) {
    using D = Dual<double, Dofs>;
    std::array<D, Dofs> qd, pd;
    for (int i = 0; i < Dofs; ++i) {
      qd[i] = D(q[i]);
      pd[i] = D(p[i]);
      pd[i].derivatives[i] = 1.0;
    }
    const D value = hamiltonian(qd.data(), pd.data(), D(t));
    for (int i = 0; i < Dofs; ++i) q_rate[i] = value.derivatives[i];
  };
  return energies;
}

}  // namespace energy_audit::sun

// clang-format off
#pragma pop_macro("T0")
#pragma pop_macro("T1")
#pragma pop_macro("T2")
#pragma pop_macro("T3")
#pragma pop_macro("C3")
#pragma pop_macro("L")
// clang-format on
