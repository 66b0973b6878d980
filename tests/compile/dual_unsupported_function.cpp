// Compiled by check_unsupported_function.cmake, never linked or run: a multiplier model whose V
// and constraint call erf, which Dual does not differentiate. The library evaluates V at two
// Dual types and the constraint at a third; the compilation must fail with one error, the
// static_assert naming erf. With EA_SUPPORTED_FUNCTION_ONLY it calls tanh instead and must compile
// without a warning, so that the failure is erf's and nothing else's.
#include <cmath>

#include <energy_audit/constraint_terms.hpp>
#include <energy_audit/energy_flow.hpp>
#include <energy_audit/lagrange_terms.hpp>

#ifdef EA_SUPPORTED_FUNCTION_ONLY
#define EA_FUNCTION tanh
#else
#define EA_FUNCTION erf
#endif

namespace {

struct SoftWall {  // a mass in the plane, pushed by a potential that rises smoothly at x = 0, on a moving line
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  template <class S>
  using Coordinates = energy_audit::VectorN<S, dofs>;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::EA_FUNCTION;
    return (1.0 + 0.1 * t) * EA_FUNCTION(-q[0]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  template <class S>
  energy_audit::VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S& t) const {
    using std::EA_FUNCTION;
    return energy_audit::VectorN<S, 1>(q[1] - EA_FUNCTION(t));
  }
};

}  // namespace

/// Every derivative the library takes of a multiplier model, as MultiplierSystem::rates takes them.
double evaluate_soft_wall() {
  const SoftWall model;
  const SoftWall::Coordinates<double> q(0.5, 0.1), v(1.0, 0.2);
  const auto lagrange = energy_audit::lagrange_terms(model, q, v, 0.3);
  const auto constraints = energy_audit::constraint_terms(model, q, v, 0.3);
  const auto time_derivatives = energy_audit::explicit_time_derivatives(model, q, v, 0.3);
  return lagrange.rhs[0] + constraints.bias[0] + time_derivatives.V_t;
}
