// Restarts of the SUNDIALS adapters at breakpoints (solver_pieces.hpp): an oscillator whose
// force steps on at t_b against its closed form, on CVODES (Z in the state and as a quadrature)
// and on IDAS (and on ARKODE's ERKStep and DIRK, adaptive and at a fixed step, where ARKODE is
// found); the observer sees t_b as a step's end and one continuous run; and the container on
// a line, whose rope end's acceleration jumps three times, in the multiplier form on IDAS
// against Maggi's form on CVODES.
#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/no_observer.hpp>
#include <energy_audit/step_aware.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#include <energy_audit/sundials/integrate_idas_explicit.hpp>
#include <energy_audit/sundials/solver_pieces.hpp>
#ifdef ENERGY_AUDIT_HAVE_ARKODE
#include <energy_audit/sundials/integrate_arkode.hpp>
#endif

#include "container.hpp"

namespace ea = energy_audit;
namespace sun = energy_audit::sun;

namespace {

/// m q'' + c q' + k q = F0 for t ≥ t_b, 0 before: from q = 1 at rest, a damped oscillation
/// about 0 until t_b, then about F0 / k. The damper and the force do the work −Z, so Z(t_b) ≠ 0
/// must be carried across the restart.
struct SteppedOscillator {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = ea::VectorN<S, 1>;
  static constexpr double m = 2.0, c = 0.4, k = 8.0, F0 = 3.0, t_b = 1.3;

  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * m * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const { return 0.5 * k * q[0] * q[0]; }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>& v, const S& t) const {
    return Coordinates<S>(-c * v[0] + (t >= t_b ? S(F0) : S(0.0)));
  }

  static double exact_q(double t) {
    const double gamma = c / (2 * m), w2 = k / m, wd = std::sqrt(w2 - gamma * gamma);
    if (t < t_b) return std::exp(-gamma * t) * (std::cos(wd * t) + gamma / wd * std::sin(wd * t));
    const double before = std::exp(-gamma * t_b) * (std::cos(wd * t_b) + gamma / wd * std::sin(wd * t_b));
    const double v_b = -std::exp(-gamma * t_b) * (w2 / wd) * std::sin(wd * t_b);
    const double A = before - F0 / k, B = (v_b + gamma * A) / wd, tau = t - t_b;
    return F0 / k + std::exp(-gamma * tau) * (A * std::cos(wd * tau) + B * std::sin(wd * tau));
  }
};

struct Observed {
  std::vector<double> times;
  ea::Audit audit;
};

template <class Integrate>
Observed observe(const ea::LagrangeSystem<SteppedOscillator>& system, Integrate&& integrate) {
  Observed o;
  auto watcher = ea::watch(system, o.audit);
  integrate([&](const ea::Vector& y, double t) {
    o.times.push_back(t);
    watcher(y, t);
  });
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(piece_ends_keep_the_breakpoints_inside_the_interval) {
  BOOST_TEST(sun::piece_ends(0.0, 10.0, {6.0, 2.0, -1.0, 2.0, 10.0, 8.0}) == std::vector<double>({2.0, 6.0, 8.0, 10.0}),
             boost::test_tools::per_element());
  BOOST_TEST(sun::piece_ends(0.0, 10.0, {}) == std::vector<double>({10.0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(cvodes_and_idas_restart_at_a_step_of_the_force) {
  const ea::LagrangeSystem<SteppedOscillator> system{SteppedOscillator{}};
  const double t_end = 5.0;
  for (const sun::ZMode z_mode : {sun::ZMode::State, sun::ZMode::Quadrature}) {
    for (const bool idas : {false, true}) {
      BOOST_TEST_CONTEXT((idas ? "IDAS" : "CVODES") << (z_mode == sun::ZMode::State ? ", Z in the state" : ", Z as a quadrature")) {
        const auto run = [&](std::vector<double> breakpoints, ea::Vector& y) {
          y = system.initial_state(ea::VectorN<double, 1>(1.0), ea::VectorN<double, 1>(0.0));
          energy_audit::SolverCounters counters;
          Observed o = observe(system, [&](auto&& observer) {
            if (idas) {
              sun::IdasOptions options{.rtol = 1e-10, .atol = 1e-12, .z_mode = z_mode, .breakpoints = breakpoints};
              counters = sun::integrate_idas(system, y, 0.0, t_end, observer, options).counters;
            } else {
              sun::CvodesOptions options{.rtol = 1e-10, .atol = 1e-12, .z_mode = z_mode, .breakpoints = breakpoints};
              counters = sun::integrate_cvodes(system, y, 0.0, t_end, observer, options).counters;
            }
          });
          // The counters add up over the pieces: every step the observer saw, counted once.
          BOOST_TEST(static_cast<std::size_t>(counters.steps) + 1 == o.times.size());
          return std::pair{std::move(o), counters.error_test_failures};
        };
        ea::Vector restarted, stepped_across;
        const auto [with, with_failures] = run({SteppedOscillator::t_b}, restarted);
        const auto [without, without_failures] = run({}, stepped_across);
        // t_b is the end of a step, seen once; the run is one run from 0 to t_end.
        BOOST_TEST(std::count(with.times.begin(), with.times.end(), SteppedOscillator::t_b) == 1);
        BOOST_TEST(with.times.front() == 0.0);
        BOOST_TEST(with.times.back() == t_end);
        BOOST_TEST(std::is_sorted(with.times.begin(), with.times.end()));
        BOOST_TEST(with.audit.accepted_steps() == with.times.size());
        // Accurate to the tolerance against the closed form, Z carried across t_b.
        BOOST_TEST(std::abs(restarted[0] - SteppedOscillator::exact_q(t_end)) < 1e-8);
        BOOST_TEST(with.audit.relative_drift() < 1e-8);
        BOOST_TEST_MESSAGE("error-test failures: " << with_failures << " with the restart, " << without_failures
                                                   << " without; error at t_end "
                                                   << restarted[0] - SteppedOscillator::exact_q(t_end) << " with, "
                                                   << stepped_across[0] - SteppedOscillator::exact_q(t_end) << " without");
      }
    }
  }
}

#ifdef ENERGY_AUDIT_HAVE_ARKODE
BOOST_AUTO_TEST_CASE(arkode_restarts_at_a_step_of_the_force) {
  const ea::LagrangeSystem<SteppedOscillator> system{SteppedOscillator{}};
  const double t_end = 5.0;
  const sun::ArkodeOptions erk{.rtol = 1e-10, .atol = 1e-12};
  const sun::ArkodeOptions dirk{.stepper = sun::ArkodeStepper::Dirk, .rtol = 1e-10, .atol = 1e-12};
  // At a fixed step t_b = 1.3 lies on the grid, and the last stage of the step that ends there
  // sees the force of the next piece (it is on for t ≥ t_b): an error of order h in q, which the
  // audit's balance does not see.
  const sun::ArkodeOptions fixed{.fixed_step = 1e-3};
  for (const auto& [name, base, q_tolerance] : {std::tuple{"ERKStep", erk, 1e-8}, std::tuple{"DIRK", dirk, 1e-8},
                                                 std::tuple{"ERKStep at a fixed step", fixed, 1e-3}}) {
    BOOST_TEST_CONTEXT(name) {
      sun::ArkodeOptions options = base;
      options.breakpoints = {SteppedOscillator::t_b};
      ea::Vector y = system.initial_state(ea::VectorN<double, 1>(1.0), ea::VectorN<double, 1>(0.0));
      energy_audit::SolverCounters counters;
      const Observed o = observe(system, [&](auto&& observer) {
        counters = sun::integrate_arkode(system, y, 0.0, t_end, observer, options).counters;
      });
      BOOST_TEST(static_cast<std::size_t>(counters.steps) + 1 == o.times.size());
      BOOST_TEST(std::count(o.times.begin(), o.times.end(), SteppedOscillator::t_b) == 1);
      BOOST_TEST(o.times.back() == t_end);
      BOOST_TEST(std::is_sorted(o.times.begin(), o.times.end()));
      BOOST_TEST(std::abs(y[0] - SteppedOscillator::exact_q(t_end)) < q_tolerance);
      BOOST_TEST(o.audit.relative_drift() < 1e-8);
    }
  }
}
#endif

BOOST_AUTO_TEST_CASE(the_container_on_a_line_restarted_on_idas_agrees_with_maggi_on_cvodes) {
  using ea::examples::ContainerLine;
  const ContainerLine model;
  const auto start = model.initial_state();
  const auto breakpoints = model.breakpoints();
  const std::vector<double> times(breakpoints.begin(), breakpoints.end());
  const double t_end = ContainerLine::interval.t_end;

  const ea::MultiplierSystem<ContainerLine> multipliers(model);
  ea::Vector y_idas = multipliers.initial_state(start.q, start.v);
  ea::Audit idas_audit;
  sun::integrate_idas(multipliers, y_idas, 0.0, t_end, ea::watch(multipliers, idas_audit),
                      sun::IdasOptions{.rtol = 1e-10, .atol = 1e-12, .breakpoints = times});

  const ea::MaggiSystem<ContainerLine> maggi(model, {0, 1, 3, 4, 5});
  ea::Vector y_cvodes = maggi.initial_state(start.q, start.v);
  ea::Audit cvodes_audit;
  sun::integrate_cvodes(maggi, y_cvodes, 0.0, t_end, ea::watch(maggi, cvodes_audit),
                        sun::CvodesOptions{.rtol = 1e-10, .atol = 1e-12, .breakpoints = times});

  const double gap = (y_idas.head<6>() - y_cvodes.head<6>()).cwiseAbs().maxCoeff();
  BOOST_TEST_MESSAGE("container-line: max |q_idas - q_cvodes| = " << gap << ", delta_C " << idas_audit.relative_drift()
                                                                   << " and " << cvodes_audit.relative_drift());
  BOOST_TEST(gap < 1e-6);
  BOOST_TEST(idas_audit.relative_drift() < 1e-7);
  BOOST_TEST(cvodes_audit.relative_drift() < 1e-7);
  BOOST_TEST(idas_audit.passed());
  BOOST_TEST(cvodes_audit.passed());
}

// The line's two phase conventions for fixed steps (docs/models.md, container-line): its jumps lie
// on the grid, so with the step-midpoint phase every step sees one smooth piece and rk4 keeps its
// fourth order, while the right-continuous phase lets the last stage of the step that ends at a
// jump see the next piece, an error of order h at each jump. Both approach the solution that
// CVODES, restarted at the jumps, gives at a tight tolerance.
BOOST_AUTO_TEST_CASE(the_line_phases_converge_at_their_orders_to_the_restarted_solution) {
  using ea::examples::ContainerLine;
  const auto end_state = [](const ContainerLine& model, std::optional<double> step) {
    const ea::MaggiSystem<ContainerLine> system(model, {0, 1, 3, 4, 5});
    const auto start = model.initial_state();
    ea::Vector y = system.initial_state(start.q, start.v);
    const double t_end = ContainerLine::interval.t_end;
    if (step) {
      ea::FixedStepper rk4(ea::methods::Rk4{});
      ea::integrate_const(rk4, system, y, 0.0, t_end, *step, ea::NoObserver{});
    } else {
      const auto times = model.breakpoints();
      sun::integrate_cvodes(system, y, 0.0, t_end, ea::NoObserver{},
                            sun::CvodesOptions{.rtol = 1e-12, .atol = 1e-14,
                                               .breakpoints = std::vector<double>(times.begin(), times.end())});
    }
    return ea::Vector(y.head<6>());
  };
  const ea::Vector reference = end_state(ContainerLine{}, std::nullopt);
  ContainerLine right, midpoint;
  midpoint.phase = ea::PiecePhase::Midpoint;
  const auto error = [&](const ContainerLine& model, double h) {
    return (end_state(model, h) - reference).cwiseAbs().maxCoeff();
  };
  const double right_coarse = error(right, 0.04), right_fine = error(right, 0.02);
  const double midpoint_coarse = error(midpoint, 0.04), midpoint_fine = error(midpoint, 0.02);
  BOOST_TEST_MESSAGE("max |q(20) - q_ref|: right " << right_coarse << ", " << right_fine << "; midpoint "
                                                   << midpoint_coarse << ", " << midpoint_fine << " (h = 0.04, 0.02)");
  BOOST_TEST(std::log2(right_coarse / right_fine) == 1.0, boost::test_tools::tolerance(0.15));
  BOOST_TEST(std::log2(midpoint_coarse / midpoint_fine) == 4.0, boost::test_tools::tolerance(0.15));
  BOOST_TEST(midpoint_fine < right_fine / 100);  // the phases differ: at these steps, by orders of magnitude
}
