// The fixed-step driver: step count, the shortened last step, divergence, bad arguments.
#include <cmath>
#include <limits>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/error.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/stop_request.hpp>

#include "moving_support_pendulum.hpp"
#include "oscillator.hpp"

namespace ea = energy_audit;
using energy_audit::testing::MovingSupportPendulum;
using energy_audit::testing::Oscillator;

BOOST_AUTO_TEST_CASE(step_count_covers_the_interval_without_slivers) {
  BOOST_TEST(ea::fixed_step_count(0.0, 5.0, 1e-3) == 5000u);
  BOOST_TEST(ea::fixed_step_count(0.0, 0.3, 0.1) == 3u);  // 0.3 / 0.1 = 2.9999999999999996
  BOOST_TEST(ea::fixed_step_count(0.0, 1.0, 0.3) == 4u);  // last step 0.1
  BOOST_TEST(ea::fixed_step_count(2.0, 3.0, 5.0) == 1u);
  BOOST_CHECK_THROW(ea::fixed_step_count(0.0, 1.0, 0.0), ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::fixed_step_count(0.0, 1.0, -1e-3), ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::fixed_step_count(1.0, 1.0, 1e-3), ea::InvalidArgument);
  BOOST_CHECK_THROW(ea::fixed_step_count(0.0, std::numeric_limits<double>::infinity(), 1e-3), ea::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(last_step_is_shortened_to_end_exactly_at_t_end) {
  const Oscillator model;
  const ea::LagrangeSystem<Oscillator> system(model);
  ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(1.0), Oscillator::Coordinates<double>(0.0));
  ea::FixedStepper stepper(ea::methods::Rk4{});
  std::vector<double> times;
  const double t_end = 1.234;
  const auto result = ea::integrate_const(stepper, system, y, 0.0, t_end, 0.01,
                                          [&](const ea::ConstVectorRef&, double t) { times.push_back(t); });
  BOOST_TEST(result.steps == 124u);
  BOOST_TEST(result.rhs_evaluations == 4u * 124u);
  BOOST_TEST(times.size() == 125u);
  BOOST_TEST(times.back() == t_end);       // exactly, not t0 + 124 h
  BOOST_TEST(times[100] == 100 * 0.01);    // t_k = t0 + k h, not a running sum
  BOOST_TEST(std::abs(y[0] - model.exact_position(1.0, t_end)) < 1e-7);
}

namespace {
// y' = y^2 from y(0) = 1 blows up at t = 1.
struct BlowUp {
  ea::Index size() const { return 1; }
  void operator()(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double) const { dydt[0] = y[0] * y[0]; }
};
}  // namespace

BOOST_AUTO_TEST_CASE(non_finite_state_stops_the_run_and_is_not_observed) {
  ea::Vector y(1);
  y << 1.0;
  ea::FixedStepper stepper(ea::methods::Euler{});
  double last_observed = -1;
  const auto result = ea::integrate_const(stepper, BlowUp{}, y, 0.0, 3.0, 0.1,
                                          [&](const ea::ConstVectorRef& state, double t) {
                                            BOOST_TEST(std::isfinite(state[0]));
                                            last_observed = t;
                                          });
  BOOST_TEST(result.diverged());
  BOOST_TEST(result.t_diverged > 1.0);
  BOOST_TEST(result.t_diverged < 3.0);
  BOOST_TEST(result.t_reached == last_observed);
  BOOST_TEST(result.t_diverged == result.t_reached + 0.1, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(euler_cromer_refuses_a_system_without_q_v_split) {
  ea::Vector y(1);
  y << 1.0;
  ea::FixedStepper stepper(ea::methods::EulerCromer{});
  BOOST_CHECK_THROW(ea::integrate_const(stepper, BlowUp{}, y, 0.0, 0.5, 0.1), ea::InvalidArgument);
}

BOOST_AUTO_TEST_CASE(state_of_the_wrong_size_is_refused) {
  const ea::LagrangeSystem<Oscillator> system{Oscillator{}};
  ea::Vector y = ea::Vector::Zero(2);  // [q, v] without Z
  ea::FixedStepper stepper(ea::methods::Rk4{});
  BOOST_CHECK_THROW(ea::integrate_const(stepper, system, y, 0.0, 1.0, 0.1), ea::InvalidArgument);
}

namespace {

// The audit fed by a plain observer: one sample per state, after the step that reached it.
struct PlainAuditObserver {
  const ea::LagrangeSystem<MovingSupportPendulum>& system;
  ea::Audit& audit;
  void operator()(const ea::ConstVectorRef& y, double t) const { audit.record(system.sample(y, t)); }
};

// v' = v^2 from v(0) = 1: infinite at t = 1, whatever T and V say.
struct Runaway {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = ea::VectorN<S, dofs>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const { return 0.0 * q[0]; }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const { return Coordinates<S>(S(0.0)); }
  Coordinates<double> accelerations(const Coordinates<double>&, const Coordinates<double>& v, double) const {
    return Coordinates<double>(v[0] * v[0]);
  }
};

// Accelerations that fail from t = 0.5 on, as a derived mass matrix that stops being positive
// definite would.
struct FailsAtHalf : Runaway {
  Coordinates<double> accelerations(const Coordinates<double>&, const Coordinates<double>&, double t) const {
    if (t >= 0.5) throw ea::Error("accelerations fail at t = 0.5");
    return Coordinates<double>(0.0);
  }
};

}  // namespace

// integrate_const lets the audit sample each state in the first stage of the next step; the
// audit must see the same states, in the same order, as an observer called after each step.
BOOST_AUTO_TEST_CASE(audit_sampled_in_the_first_stage_sees_every_state_once) {
  const ea::LagrangeSystem<MovingSupportPendulum> system{MovingSupportPendulum{}};
  const MovingSupportPendulum::Coordinates<double> q0(0.4), v0(-0.3);
  for (const ea::FixedStepMethod method : ea::FixedStepMethod::all()) {
    BOOST_TEST_CONTEXT(method.info().name) {
      ea::Audit shared, plain;
      ea::Vector y_shared = system.initial_state(q0, v0);
      ea::Vector y_plain = y_shared;
      ea::FixedStepper stepper_shared(method), stepper_plain(method);
      const auto result = ea::integrate_const(stepper_shared, system, y_shared, 0.0, 1.234, 0.01, ea::watch(system, shared));
      ea::integrate_const(stepper_plain, system, y_plain, 0.0, 1.234, 0.01, PlainAuditObserver{system, plain});
      BOOST_TEST(shared.accepted_steps() == result.steps + 1);
      BOOST_TEST_REQUIRE(shared.history().rows() == plain.history().rows());
      for (std::size_t r = 0; r < plain.history().rows(); ++r) {
        const auto a = shared.history().row(r), b = plain.history().row(r);
        for (std::size_t c = 0; c < b.size(); ++c) BOOST_TEST(a[c] == b[c], boost::test_tools::tolerance(1e-13));
      }
      BOOST_TEST(shared.last_row()[0] == 1.234);
      BOOST_TEST(shared.relative_drift() == plain.relative_drift(), boost::test_tools::tolerance(1e-9));
      BOOST_TEST((y_shared - y_plain).norm() == 0.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(audit_sampled_in_the_first_stage_stops_at_the_last_finite_state) {
  const ea::LagrangeSystem<Runaway> system{Runaway{}};
  for (const ea::FixedStepMethod method : {ea::FixedStepMethod::of<ea::methods::Euler>(), ea::FixedStepMethod::of<ea::methods::Rk4>()}) {
    ea::Vector y = system.initial_state(Runaway::Coordinates<double>(0.0), Runaway::Coordinates<double>(1.0));
    ea::FixedStepper stepper(method);
    ea::Audit audit;
    const auto result = ea::integrate_const(stepper, system, y, 0.0, 3.0, 0.1, ea::watch(system, audit));
    BOOST_TEST_REQUIRE(result.diverged());
    BOOST_TEST(audit.accepted_steps() == result.steps + 1);
    // The last state seen is the last finite one, or, when T = v^2 / 2 overflowed first, the
    // finite state whose C was not: the run diverged there.
    BOOST_TEST(audit.last_row()[0] == (audit.energy_left_finite_range() ? result.t_diverged : result.t_reached));
    for (std::size_t r = 0; r < audit.history().rows(); ++r) {
      const auto row = audit.history().row(r);  // t, q, v (T = v^2 / 2 may overflow first)
      BOOST_TEST((std::isfinite(row[0]) && std::isfinite(row[1]) && std::isfinite(row[2])));
    }
  }
}

namespace {

// An oscillator whose V turns NaN after t = 0.6, and with it the derived accelerations: the
// states up to there are fine and C is exact on them.
struct NanAfter {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = ea::VectorN<S, dofs>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S& t) const {
    using std::sqrt;
    return 0.5 * q[0] * q[0] + 0.0 * sqrt(0.6 - t);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const { return Coordinates<S>(S(0.0)); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_run_that_stops_before_its_end_never_passes) {
  const ea::LagrangeSystem<NanAfter> system{NanAfter{}};
  for (const ea::FixedStepMethod method : ea::FixedStepMethod::all()) {
    BOOST_TEST_CONTEXT(method.info().name) {
      ea::Vector y = system.initial_state(NanAfter::Coordinates<double>(1.0), NanAfter::Coordinates<double>(0.0));
      ea::FixedStepper stepper(method);
      ea::Audit audit;
      const auto result = ea::integrate_const(stepper, system, y, 0.0, 10.0, 1e-3, ea::watch(system, audit));
      BOOST_TEST(result.diverged());
      BOOST_TEST(result.t_reached < 0.61);
      BOOST_CHECK(audit.verdict() == ea::Verdict::Diverged);
      BOOST_TEST(!audit.passed());
      BOOST_TEST(audit.relative_drift() < 1e-3);  // δ_C over the computed steps, not a placeholder
      BOOST_TEST(audit.t_reached() == result.t_reached);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_run_at_the_next_step_with_the_history_kept) {
  const ea::LagrangeSystem<Oscillator> system{Oscillator{}};
  for (const ea::FixedStepMethod method : ea::FixedStepMethod::all()) {
    BOOST_TEST_CONTEXT(method.info().name) {
      ea::Vector y = system.initial_state(Oscillator::Coordinates<double>(1.0), Oscillator::Coordinates<double>(0.0));
      ea::FixedStepper stepper(method);
      ea::Audit audit;
      ea::StopRequest stop;
      const auto watched = ea::watch(system, audit);
      // The request comes while the state at t = 0.5 is observed, as a signal might.
      struct Requesting {
        const ea::AuditObserver<ea::LagrangeSystem<Oscillator>>& audit;
        ea::StopRequest& stop;
        void begin_run(double t0, double t1) const { audit.begin_run(t0, t1); }
        void end_run(ea::RunEnd end, double t) const { audit.end_run(end, t); }
        void operator()(const ea::ConstVectorRef& state, double t) const {
          audit(state, t);
          if (t >= 0.5 - 1e-12) stop.request();
        }
      };
      const auto result =
          ea::integrate_const(stepper, system, y, 0.0, 10.0, 0.01, Requesting{watched, stop}, &stop);
      BOOST_CHECK(result.end == ea::RunEnd::Interrupted);
      BOOST_TEST(result.t_reached == 0.5, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(result.steps == 50u);
      BOOST_CHECK(audit.verdict() == ea::Verdict::Interrupted);
      BOOST_TEST(audit.accepted_steps() == 51u);
      BOOST_TEST(audit.history().rows() == 51u);
    }
  }
}

BOOST_AUTO_TEST_CASE(audit_sampled_in_the_first_stage_keeps_a_state_whose_rates_fail) {
  const ea::LagrangeSystem<FailsAtHalf> system{FailsAtHalf{}};
  ea::Vector y = system.initial_state(FailsAtHalf::Coordinates<double>(0.0), FailsAtHalf::Coordinates<double>(1.0));
  ea::FixedStepper euler(ea::methods::Euler{});  // one stage: the failure comes in a first stage
  ea::Audit audit;
  BOOST_CHECK_THROW(ea::integrate_const(euler, system, y, 0.0, 1.0, 0.01, ea::watch(system, audit)), ea::Error);
  BOOST_TEST(audit.accepted_steps() == 51u);  // t = 0, 0.01, ..., 0.5: the state at 0.5 was accepted
  BOOST_CHECK(audit.verdict() == ea::Verdict::Error);
  BOOST_TEST(audit.last_row()[0] == 0.5, boost::test_tools::tolerance(1e-12));
}

// An exception ends the run, and the result passed in keeps what was computed up to it.
BOOST_AUTO_TEST_CASE(a_run_that_throws_keeps_its_counts_in_the_result) {
  const ea::LagrangeSystem<FailsAtHalf> system{FailsAtHalf{}};
  ea::Vector y = system.initial_state(FailsAtHalf::Coordinates<double>(0.0), FailsAtHalf::Coordinates<double>(1.0));
  ea::FixedStepper euler(ea::methods::Euler{});
  ea::Audit audit;
  ea::IntegrationResult result;
  BOOST_CHECK_THROW(ea::integrate_const(result, euler, system, y, 0.0, 1.0, 0.01, ea::watch(system, audit)), ea::Error);
  BOOST_CHECK(result.end == ea::RunEnd::Error);
  BOOST_TEST(result.steps == 50u);            // up to t = 0.5
  BOOST_TEST(result.rhs_evaluations == 51u);  // one per step begun, the failed one at t = 0.5 included
  BOOST_TEST(result.t_reached == 0.5, boost::test_tools::tolerance(1e-12));
}

namespace {

// q = t (v = 1, no force) under V = 1e308 q^2, which overflows past q = 1.3407: the state stays
// finite, the energy (so C) does not. (Ż = -dV/dt turns NaN there too, so the state follows a step
// later: Euler's state at 1.35 is still finite, from the rates at 1.34.)
struct OverflowingPotential : Runaway {
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const { return 1e308 * q[0] * q[0]; }
  Coordinates<double> accelerations(const Coordinates<double>&, const Coordinates<double>&, double) const {
    return Coordinates<double>(0.0);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_run_whose_energy_overflows_diverges_where_it_did) {
  const ea::LagrangeSystem<OverflowingPotential> system{OverflowingPotential{}};
  for (const ea::FixedStepMethod method : {ea::FixedStepMethod::of<ea::methods::Euler>(),
                                           ea::FixedStepMethod::of<ea::methods::Rk4>()}) {
    BOOST_TEST_CONTEXT(method.info().name) {
      ea::Vector y = system.initial_state(OverflowingPotential::Coordinates<double>(0.0),
                                          OverflowingPotential::Coordinates<double>(1.0));
      ea::FixedStepper stepper(method);
      ea::Audit audit;
      const ea::IntegrationResult result = ea::integrate_const(stepper, system, y, 0.0, 2.0, 0.01, ea::watch(system, audit));
      BOOST_CHECK(result.end == ea::RunEnd::Diverged);
      BOOST_TEST(result.t_diverged == 1.35, boost::test_tools::tolerance(1e-12));  // 1.35^2 1e308 > DBL_MAX > 1.34^2 1e308
      BOOST_TEST(result.t_reached == 1.34, boost::test_tools::tolerance(1e-12));
      BOOST_CHECK(audit.verdict() == ea::Verdict::Diverged);
    }
  }
}
