// Every optional member of a model reaches every form that admits it: Lagrange's and Hamilton's
// forms for a model without constraints, the multiplier and Maggi forms for a multiplier model.
// Each member is added to a small model whose motion is known in closed form, and its effect is
// checked in each form: divergence_bound ends a fixed-step run as diverged where the closed form
// crosses the bound; begin_step is told every fixed step; equation_error is integrated and shows
// in the equation check (and is refused by the forms that would not integrate it);
// reported_multiplier_sign flips the sampled multipliers; extra_outputs are evaluated at the
// velocities of the state; a false scleronomic declaration is refused; a scleronomic model's
// forms give H and its gradient over their own state (energy_and_gradient); named forces' powers
// come with the sample, from the same evaluation of the rates in a fixed step's first stage.
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/extra_outputs.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/system_concepts.hpp>

#include "pendulum_chain.hpp"

namespace ea = energy_audit;

namespace {

/// m q'' = s q (T = ½ m v², V = −½ s q², no force): from q = 1, v = 0 the motion is
/// q = cosh(ω t), v = ω sinh(ω t), ω = √(s/m) = 3 /s.
struct Repelled {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = ea::VectorN<S, 1>;

  double m = 2.0, s = 18.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * v[0] * v[0];
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return -0.5 * s * q[0] * q[0];
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  static Coordinates<double> start_q() { return Coordinates<double>(1.0); }
};

/// Two such coordinates held equal by Φ = x − y = 0: m x'' = s x + λ, m y'' = s y − λ, so
/// x = y = cosh(ω t) from x = y = 1 at rest, with the same ω, and λ = 0.
struct RepelledPair {
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  template <class S>
  using Coordinates = ea::VectorN<S, 2>;

  double m = 2.0, s = 18.0;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return -0.5 * s * (q[0] * q[0] + q[1] * q[1]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  template <class S>
  ea::VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S&) const {
    return ea::VectorN<S, 1>(q[0] - q[1]);
  }
  static Coordinates<double> start_q() { return Coordinates<double>(1.0, 1.0); }
};

constexpr double omega = 3.0;  // √(s/m) of both models

// The optional members, each added to a model by one wrapper.

template <class Base>
struct Bounded : Base {
  static constexpr double divergence_bound = 30.0;
};

/// A fixed step [t, t + h] as begin_step is told it.
struct Step {
  double t, h;
};

template <class Base>
struct StepLogged : Base {
  std::vector<Step>* steps = nullptr;  // a pointer: the forms hold copies of the model
  void begin_step(double t, double h) const { steps->push_back({t, h}); }
};

/// A deliberate error of 1 N in the first equation of motion.
template <class Base>
struct WithEquationError : Base {
  ea::VectorN<double, Base::dofs> equation_error(const ea::VectorN<double, Base::dofs>&,
                                                 const ea::VectorN<double, Base::dofs>&, double) const {
    ea::VectorN<double, Base::dofs> error = ea::VectorN<double, Base::dofs>::Zero();
    error[0] = 1.0;
    return error;
  }
};

template <class Base>
struct NegatedMultipliers : Base {
  static constexpr double reported_multiplier_sign = -1.0;
};

/// The total momentum m Σ v as an extra output.
template <class Base>
struct WithMomentum : Base {
  static constexpr std::array<std::string_view, 1> extra_output_names() { return {"momentum"}; }
  std::array<double, 1> extra_outputs(const ea::VectorN<double, Base::dofs>&, const ea::VectorN<double, Base::dofs>& v,
                                      double) const {
    return {this->m * v.sum()};
  }
};

/// Declares scleronomic while V depends on t.
template <class Base>
struct FalselyScleronomic : Base {
  static constexpr bool scleronomic = true;
  template <class S>
  S potential_energy(const typename Base::template Coordinates<S>& q, const S& t) const {
    return Base::potential_energy(q, t) + t * q[0];
  }
};

/// A damper −c v on every coordinate, named; `count_T`, when set, counts the evaluations of T (at
/// any scalar: the derivatives the forms take count too).
template <class Base>
struct DampedAndCounted : Base {
  double c = 0.4;
  int* count_T = nullptr;
  template <class S>
  S kinetic_energy(const typename Base::template Coordinates<S>& q, const typename Base::template Coordinates<S>& v,
                   const S& t) const {
    if (count_T != nullptr) ++*count_T;
    return Base::kinetic_energy(q, v, t);
  }
  template <class S>
  typename Base::template Coordinates<S> forces(const typename Base::template Coordinates<S>&,
                                                const typename Base::template Coordinates<S>& v, const S&) const {
    return -c * v;
  }
  static constexpr std::array<std::string_view, 1> force_names() { return {"damper"}; }
  std::array<ea::VectorN<double, Base::dofs>, 1> named_forces(const ea::VectorN<double, Base::dofs>&,
                                                               const ea::VectorN<double, Base::dofs>& v,
                                                               double) const {
    return {-c * v};
  }
};

/// check(name, system, y0) for each form that admits `model`, y0 its state at (q, v), t = 0.
template <class Model, class Check>
void in_each_form(const Model& model, const typename Model::template Coordinates<double>& q,
                  const typename Model::template Coordinates<double>& v, const Check& check) {
  if constexpr (ea::MultiplierModel<Model>) {
    const ea::MultiplierSystem<Model> multipliers(model);
    check("multipliers", multipliers, multipliers.initial_state(q, v));
    const ea::MaggiSystem<Model> maggi(model, {0});  // u = v of the first coordinate
    check("Maggi", maggi, maggi.initial_state(q, v));
  } else {
    const ea::LagrangeSystem<Model> lagrange(model);
    check("Lagrange", lagrange, lagrange.initial_state(q, v));
    const ea::HamiltonSystem<Model> hamilton(model);
    check("Hamilton", hamilton, hamilton.initial_state(q, v, 0.0));
  }
}

template <class Model>
void in_each_form(const Model& model, const auto& check) {
  using Coordinates = typename Model::template Coordinates<double>;
  in_each_form(model, Model::start_q(), Coordinates::Zero().eval(), check);
}

template <class System, class Observer>
ea::IntegrationResult run_rk4(const System& system, ea::Vector& y, double t_end, double h, Observer&& observer) {
  ea::FixedStepper stepper(ea::FixedStepMethod::of<ea::methods::Rk4>());
  return ea::integrate_const(stepper, system, y, 0.0, t_end, h, std::forward<Observer>(observer));
}

template <class System>
ea::IntegrationResult run_rk4(const System& system, ea::Vector& y, double t_end, double h) {
  return run_rk4(system, y, t_end, h, [](const ea::ConstVectorRef&, double) {});
}

}  // namespace

// The bound is on q and on the velocities v (not on Hamilton's p = m v, nor Maggi's u alone):
// with q = cosh(ω t) below it, the run ends when ω sinh(ω t) first exceeds 30, at
// t* = asinh(30 / ω) / ω, at the end of the step that crosses t*.
template <class Model>
void check_divergence_bound() {
  const double h = 1e-3;
  const double t_cross = std::asinh(Bounded<Model>::divergence_bound / omega) / omega;
  in_each_form(Bounded<Model>{}, [&](const std::string& form, const auto& system, ea::Vector y) {
    BOOST_TEST_CONTEXT(form) {
      const ea::IntegrationResult result = run_rk4(system, y, 2.0, h);
      BOOST_TEST(result.diverged());
      BOOST_TEST(result.t_diverged >= t_cross);
      BOOST_TEST(result.t_diverged <= t_cross + h);
      BOOST_TEST(result.t_reached == result.t_diverged - h, boost::test_tools::tolerance(1e-12));
    }
  });
  in_each_form(Model{}, [&](const std::string& form, const auto& system, ea::Vector y) {
    BOOST_TEST_CONTEXT(form << " without the bound") { BOOST_TEST(run_rk4(system, y, 2.0, h).finished()); }
  });
}

BOOST_AUTO_TEST_CASE(divergence_bound_ends_the_run_where_v_crosses_it_in_lagrange_and_hamilton) {
  check_divergence_bound<Repelled>();
}

BOOST_AUTO_TEST_CASE(divergence_bound_ends_the_run_where_v_crosses_it_in_multipliers_and_maggi) {
  check_divergence_bound<RepelledPair>();
}

// begin_step sees the fixed steps t_k = k h, the last one shortened to end at t1.
template <class Model>
void check_begin_step() {
  const double h = 0.1, t_end = 0.95;
  std::vector<Step> steps;
  StepLogged<Model> model;
  model.steps = &steps;
  in_each_form(model, [&](const std::string& form, const auto& system, ea::Vector y) {
    BOOST_TEST_CONTEXT(form) {
      steps.clear();
      BOOST_TEST_REQUIRE(run_rk4(system, y, t_end, h).finished());
      BOOST_TEST(steps.size() == 10u);
      if (steps.size() != 10u) return;
      for (std::size_t k = 0; k < steps.size(); ++k) {
        const double t = static_cast<double>(k) * h;
        BOOST_TEST(steps[k].t == t);
        BOOST_TEST(steps[k].h == (k + 1 == steps.size() ? t_end - t : h), boost::test_tools::tolerance(1e-15));
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(begin_step_is_told_every_fixed_step_in_lagrange_and_hamilton) { check_begin_step<Repelled>(); }

BOOST_AUTO_TEST_CASE(begin_step_is_told_every_fixed_step_in_multipliers_and_maggi) { check_begin_step<RepelledPair>(); }

// The multiplier forms integrate M a = r + e + Gᵀλ; the equation check then finds ‖M a − r − Gᵀλ‖∞
// = ‖e‖∞ = 1 N at every checked state (in Maggi's form too: with this split, λ takes up all of the
// constraint force). The model without the error is not checked: its equations are derived.
BOOST_AUTO_TEST_CASE(equation_error_is_integrated_and_checked_in_multipliers_and_maggi) {
  in_each_form(WithEquationError<RepelledPair>{}, [](const std::string& form, const auto& system, ea::Vector y) {
    BOOST_TEST_CONTEXT(form) {
      BOOST_TEST(system.checks_equations());
      ea::Audit audit(ea::AuditOptions{.equation_check_every = 1});
      BOOST_TEST_REQUIRE(run_rk4(system, y, 0.1, 0.01, ea::watch(system, audit)).finished());
      BOOST_TEST(audit.equation_check().checked_steps() == 11u);
      BOOST_TEST(audit.equation_check().max_residual() == 1.0, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(!audit.equation_check().passed());
    }
  });
  in_each_form(RepelledPair{}, [](const std::string& form, const auto& system, const ea::Vector&) {
    BOOST_TEST_CONTEXT(form) { BOOST_TEST(!system.checks_equations()); }
  });
}

// Lagrange's and Hamilton's forms derive their equations from T, V and f and have no place for an
// error in them (a model with hand-written accelerations carries its error there): they refuse
// such a model rather than integrate the equations without it.
BOOST_AUTO_TEST_CASE(equation_error_is_refused_by_lagrange_and_hamilton) {
  using Model = WithEquationError<Repelled>;
  BOOST_TEST((!std::is_constructible_v<ea::LagrangeSystem<Model>, Model>));
  BOOST_TEST((!std::is_constructible_v<ea::HamiltonSystem<Model>, Model>));
  BOOST_TEST((std::is_constructible_v<ea::LagrangeSystem<Repelled>, Repelled>));
  BOOST_TEST((std::is_constructible_v<ea::HamiltonSystem<Repelled>, Repelled>));
}

// A pair pushed apart by a force on x alone: m x'' = s x + F + λ, m y'' = s y − λ with x'' = y''
// gives λ = −F/2 at x = y, whatever the state.
struct PushedPair : RepelledPair {
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>(S(4.0), S(0.0));
  }
};

BOOST_AUTO_TEST_CASE(reported_multiplier_sign_flips_the_samples_in_multipliers_and_maggi) {
  const double t = 0.0;
  in_each_form(PushedPair{}, [&](const std::string& form, const auto& system, const ea::Vector& y) {
    BOOST_TEST_CONTEXT(form) {
      const ea::EnergySample sample = system.sample(y, t);
      BOOST_TEST_REQUIRE(sample.multipliers.has_value());
      BOOST_TEST((*sample.multipliers)[0] == -2.0, boost::test_tools::tolerance(1e-12));
    }
  });
  in_each_form(NegatedMultipliers<PushedPair>{}, [&](const std::string& form, const auto& system, const ea::Vector& y) {
    BOOST_TEST_CONTEXT(form) {
      const ea::EnergySample sample = system.sample(y, t);
      BOOST_TEST_REQUIRE(sample.multipliers.has_value());
      BOOST_TEST((*sample.multipliers)[0] == 2.0, boost::test_tools::tolerance(1e-12));
    }
  });
}

// extra_outputs take (q, v): each form gives v from its own state (p = m v in Hamilton's, u in
// Maggi's), so the momentum at q = 0.3, v = 0.7 (each coordinate) is m Σ v in every form.
template <class Model>
void check_extra_outputs() {
  using Coordinates = typename Model::template Coordinates<double>;
  const WithMomentum<Model> model;
  const Coordinates q = Coordinates::Constant(0.3), v = Coordinates::Constant(0.7);
  in_each_form(model, q, v, [&](const std::string& form, const auto& system, const ea::Vector& y) {
    BOOST_TEST_CONTEXT(form) {
      const auto outputs = ea::extra_outputs_at(system, y.head(Model::dofs), y.segment(Model::dofs, system.second_half_size()), 0.0);
      BOOST_TEST(outputs[0] == model.m * 0.7 * Model::dofs, boost::test_tools::tolerance(1e-14));
    }
  });
}

BOOST_AUTO_TEST_CASE(extra_outputs_see_the_velocities_in_lagrange_and_hamilton) { check_extra_outputs<Repelled>(); }

BOOST_AUTO_TEST_CASE(extra_outputs_see_the_velocities_in_multipliers_and_maggi) { check_extra_outputs<RepelledPair>(); }

BOOST_AUTO_TEST_CASE(a_false_scleronomic_declaration_is_refused_by_every_form) {
  const FalselyScleronomic<Repelled> plain;
  BOOST_CHECK_THROW(ea::LagrangeSystem<FalselyScleronomic<Repelled>>{plain}, ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::HamiltonSystem<FalselyScleronomic<Repelled>>{plain}, ea::InvalidArgument);
  const FalselyScleronomic<RepelledPair> pair;
  BOOST_CHECK_THROW(ea::MultiplierSystem<FalselyScleronomic<RepelledPair>>{pair}, ea::InvalidArgument);
  BOOST_CHECK_THROW((ea::MaggiSystem<FalselyScleronomic<RepelledPair>>{pair, {0}}), ea::InvalidArgument);
  BOOST_CHECK_NO_THROW(ea::MaggiSystem<RepelledPair>(RepelledPair{}, {0}));
}

template <class Base>
struct WithMaggiThreshold : Base {
  static constexpr double maggi_singularity_threshold = 0.25;
};

BOOST_AUTO_TEST_CASE(maggi_singularity_threshold_is_maggis_default) {
  BOOST_TEST(ea::MaggiSystem<WithMaggiThreshold<RepelledPair>>::default_singularity_threshold == 0.25);
  BOOST_TEST(ea::MaggiSystem<RepelledPair>::default_singularity_threshold == 1e-3);
}

// energy_and_gradient, which scleronomic models' forms have (EnergyGradientSystem): H from the
// library's forward mode checked against the energies the audit samples, and its gradient against
// a central difference of those energies over the form's own state.

/// A pendulum of length 1 as a point mass on Φ = (x² + y² − 1) / 2 = 0, scleronomic.
struct ScleronomicPendulum {
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  static constexpr bool scleronomic = true;
  template <class S>
  using Coordinates = ea::VectorN<S, 2>;

  double m = 1.5, g = 9.81;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * m * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    return m * g * q[1];
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  template <class S>
  ea::VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S&) const {
    return ea::VectorN<S, 1>(0.5 * (q[0] * q[0] + q[1] * q[1] - 1.0));
  }
};

/// H at y as the audit samples it (T2 − T0 + V from the model's own T and V at the state's velocities).
template <class System>
double sampled_energy(const System& system, const ea::Vector& y) {
  return system.sample(y, 0.0).energy.H();
}

/// energy_and_gradient at y against the sampled H and against its central difference in every
/// entry of y (Z's entry included: 0).
template <class System>
void check_energy_gradient(const System& system, const ea::Vector& y) {
  static_assert(ea::EnergyGradientSystem<System>);
  ea::Vector gradient = ea::Vector::Constant(y.size(), std::nan(""));
  const double H = system.energy_and_gradient(y, gradient);
  BOOST_TEST(H == sampled_energy(system, y), boost::test_tools::tolerance(1e-14));
  const double h = 1e-6;
  for (ea::Index i = 0; i < y.size(); ++i) {
    ea::Vector up = y, down = y;
    up[i] += h;
    down[i] -= h;
    const double difference = (sampled_energy(system, up) - sampled_energy(system, down)) / (2 * h);
    BOOST_TEST_CONTEXT("entry " << i) {
      BOOST_TEST(std::abs(gradient[i] - difference) <= 1e-7 * (1 + std::abs(difference)));
    }
  }
}

using Chain = ea::testing::PendulumChainEnergies<3>;

ea::Vector chain_state(const Chain& chain) {
  ea::Vector y(7);
  y << chain.start_angles(), 0.8, -1.1, 0.4, 0.25;  // [q, v, Z]
  return y;
}

BOOST_AUTO_TEST_CASE(energy_gradient_of_lagrange_form_is_that_of_T_plus_V) {
  const Chain chain;
  const ea::LagrangeSystem<Chain> system(chain);
  check_energy_gradient(system, chain_state(chain));
}

BOOST_AUTO_TEST_CASE(energy_gradient_of_hamilton_form_is_over_q_and_p) {
  const Chain chain;
  const ea::HamiltonSystem<Chain> system(chain);
  const ea::Vector lagrange_state = chain_state(chain);
  const ea::Vector y = system.initial_state(lagrange_state.head<3>(), lagrange_state.segment<3>(3), 0.0);
  check_energy_gradient(system, y);
  // ∂H/∂p is the velocity, as Hamilton's equations have it.
  ea::Vector gradient(y.size());
  system.energy_and_gradient(y, gradient);
  BOOST_TEST((gradient.segment<3>(3) - lagrange_state.segment<3>(3)).norm() <= 1e-12);
}

BOOST_AUTO_TEST_CASE(energy_gradient_of_multiplier_form_is_that_of_T_plus_V) {
  const ea::MultiplierSystem<ScleronomicPendulum> system(ScleronomicPendulum{});
  ea::Vector y(5);
  y << 0.6, -0.8, 1.2, 0.9, 0.0;
  check_energy_gradient(system, y);
}

BOOST_AUTO_TEST_CASE(energy_gradient_is_offered_for_scleronomic_models_and_not_by_maggi) {
  static_assert(!ea::EnergyGradientSystem<ea::LagrangeSystem<Repelled>>, "Repelled does not declare scleronomic");
  static_assert(!ea::EnergyGradientSystem<ea::HamiltonSystem<Repelled>>);
  static_assert(!ea::EnergyGradientSystem<ea::MultiplierSystem<RepelledPair>>);
  static_assert(!ea::EnergyGradientSystem<ea::MaggiSystem<ScleronomicPendulum>>);
  static_assert(ea::EnergyGradientSystem<ea::MultiplierSystem<ScleronomicPendulum>>);
  BOOST_TEST(true);
}

// A model that names its forces: the audit takes each state's sample and the forces' powers from
// one computation of the velocities, and in the first stage of a fixed step the rates from the
// same evaluation. The powers are the closed form vᵀf = −c |v|², v the velocities (Hamilton's
// p/m); the sample and the rates are those the form gives apart, bit for bit.
template <class Model>
void check_sample_with_powers(const typename Model::template Coordinates<double>& q,
                              const typename Model::template Coordinates<double>& v) {
  const Model model;
  in_each_form(model, q, v, [&](const std::string& form, const auto& system, const ea::Vector& y) {
    BOOST_TEST_CONTEXT(form) {
      const double t = 0.3, power = -model.c * v.squaredNorm();
      ea::Vector rates(y.size()), fused_rates(y.size());
      system(y, rates, t);
      const ea::EnergySample apart = system.sample(y, t);
      const auto with_powers = system.sample_with_powers(y, t, true);
      const auto fused = ea::rates_sample_with_powers(system, y, fused_rates, t, true);
      for (const auto* sampled : {&with_powers, &fused}) {
        BOOST_TEST(sampled->powers.forces[0] == power, boost::test_tools::tolerance(1e-14));
        BOOST_TEST(sampled->powers.explicit_time == 0.0);
        BOOST_TEST(sampled->sample.energy.T == apart.energy.T);
        BOOST_TEST(sampled->sample.energy.V == apart.energy.V);
        BOOST_TEST(sampled->sample.Z == apart.Z);
        BOOST_TEST(sampled->sample.multipliers.has_value() == apart.multipliers.has_value());
        if (apart.multipliers && sampled->sample.multipliers) {
          BOOST_TEST((*sampled->sample.multipliers - *apart.multipliers).norm() == 0.0);
        }
      }
      BOOST_TEST((fused_rates - rates).norm() == 0.0);
      BOOST_TEST(system.named_force_powers(y, t, false).forces[0] == power, boost::test_tools::tolerance(1e-14));
    }
  });
}

BOOST_AUTO_TEST_CASE(named_forces_powers_come_with_the_sample_in_lagrange_and_hamilton) {
  check_sample_with_powers<DampedAndCounted<Repelled>>(ea::VectorN<double, 1>(1.2), ea::VectorN<double, 1>(0.7));
}

BOOST_AUTO_TEST_CASE(named_forces_powers_come_with_the_sample_in_multipliers_and_maggi) {
  // v consistent with the constraint x − y = 0.
  check_sample_with_powers<DampedAndCounted<RepelledPair>>(ea::VectorN<double, 2>(1.2, 1.2),
                                                           ea::VectorN<double, 2>(0.7, 0.7));
}

// In the first stage the audit adds to the rates' evaluation only the energies: the evaluations
// of T that rates_sample_with_powers makes are those of the rates plus those of energy_terms, in
// every form (none for a second computation of v from p or u, none for the work ledger).
template <class Model>
void check_one_evaluation(const typename Model::template Coordinates<double>& q,
                          const typename Model::template Coordinates<double>& v) {
  int count = 0;
  Model model;
  model.count_T = &count;
  in_each_form(model, q, v, [&](const std::string& form, const auto& system, const ea::Vector& y) {
    BOOST_TEST_CONTEXT(form) {
      const double t = 0.3;
      ea::Vector rates(y.size());
      count = 0;
      system(y, rates, t);
      const int for_rates = count;
      count = 0;
      static_cast<void>(ea::energy_terms(model, q, v, t));
      const int for_energies = count;
      count = 0;
      static_cast<void>(ea::rates_sample_with_powers(system, y, rates, t, false));
      BOOST_TEST(for_energies > 0);
      BOOST_TEST(count == for_rates + for_energies);
    }
  });
}

BOOST_AUTO_TEST_CASE(the_first_stage_evaluates_the_rates_once_for_the_audit_in_lagrange_and_hamilton) {
  check_one_evaluation<DampedAndCounted<Repelled>>(ea::VectorN<double, 1>(1.2), ea::VectorN<double, 1>(0.7));
}

BOOST_AUTO_TEST_CASE(the_first_stage_evaluates_the_rates_once_for_the_audit_in_multipliers_and_maggi) {
  check_one_evaluation<DampedAndCounted<RepelledPair>>(ea::VectorN<double, 2>(1.2, 1.2), ea::VectorN<double, 2>(0.7, 0.7));
}

// Störmer–Verlet's inner stages and SPRKStep's kick take w' alone (rates_of_w_alone): the same w'
// as rates_of_w with Ż, whose Ż = −vᵀf = c v² is the closed form.
BOOST_AUTO_TEST_CASE(rates_of_w_alone_is_the_rates_of_w_of_every_form) {
  const DampedAndCounted<Repelled> model;
  in_each_form(model, ea::VectorN<double, 1>(1.2), ea::VectorN<double, 1>(0.7),
               [&](const std::string& form, const auto& system, const ea::Vector& y) {
                 BOOST_TEST_CONTEXT(form) {
                   ea::Vector with(1), alone(1);
                   double z_dot = 0;
                   system.rates_of_w(y.head(1), y.segment(1, 1), 0.3, with, z_dot);
                   ea::rates_of_w_alone(system, y.head(1), y.segment(1, 1), 0.3, alone);
                   BOOST_TEST(alone[0] == with[0]);
                   BOOST_TEST(z_dot == model.c * 0.7 * 0.7, boost::test_tools::tolerance(1e-14));
                 }
               });
}
