// The CVODES adapter on the trolley crane: agreement with a tight rk4 reference, δ_C against
// rtol, Z as state or quadrature, failures that end in clear errors with the history kept,
// SUNDIALS' warnings, and intervals too short to start on.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/audit.hpp>
#include <energy_audit/integrate_const.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/stop_request.hpp>
#include <energy_audit/sundials/adaptive_interval.hpp>
#include <energy_audit/sundials/integrate_cvodes.hpp>

#include "crane.hpp"

namespace ea = energy_audit;
namespace sun = energy_audit::sun;
using energy_audit::examples::Crane;
using CraneSystem = ea::LagrangeSystem<Crane>;

namespace {

ea::Vector crane_start(const CraneSystem& system) {
  const auto start = system.model().initial_state();
  return system.initial_state(start.q, start.v);
}

// y(5) of rk4 at h = 1e-4: an independent reference, accurate to ~1e-12 here.
const ea::Vector& rk4_reference() {
  static const ea::Vector y = [] {
    const CraneSystem system{Crane{}};
    ea::Vector state = crane_start(system);
    ea::FixedStepper rk4(ea::methods::Rk4{});
    ea::integrate_const(rk4, system, state, 0.0, 5.0, 1e-4);
    return state;
  }();
  return y;
}

struct CvodesRun {
  ea::Vector y;
  ea::Audit audit;
  sun::CvodesResult result;
};

CvodesRun run_cvodes(sun::CvodesOptions options) {
  const CraneSystem system{Crane{}};
  CvodesRun run{crane_start(system), ea::Audit{}, {}};
  run.result = sun::integrate_cvodes(system, run.y, 0.0, 5.0, ea::watch(system, run.audit), options);
  return run;
}

sun::CvodesOptions options_for(sun::Multistep method, double rtol, sun::ZMode mode = sun::ZMode::State) {
  sun::CvodesOptions o;
  o.method = method;
  o.rtol = rtol;
  o.atol = rtol * 1e-2;
  o.z_mode = mode;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(tight_cvodes_reproduces_rk4_at_t_5) {
  for (const auto method : {sun::Multistep::Bdf, sun::Multistep::Adams}) {
    const CvodesRun run = run_cvodes(options_for(method, 1e-10));
    const double difference = (run.y.head(4) - rk4_reference().head(4)).cwiseAbs().maxCoeff();
    BOOST_TEST_MESSAGE("method " << static_cast<int>(method) << ": max |y - y_rk4| = " << difference);
    BOOST_TEST(difference < 1e-7);
    BOOST_TEST(run.result.t_reached == 5.0);
    BOOST_TEST(run.audit.accepted_steps() == static_cast<std::size_t>(run.result.counters.steps) + 1);
  }
}

BOOST_AUTO_TEST_CASE(delta_c_falls_monotonically_with_rtol) {
  for (const auto method : {sun::Multistep::Bdf, sun::Multistep::Adams}) {
    double previous = std::numeric_limits<double>::infinity();
    for (double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
      const double delta = run_cvodes(options_for(method, rtol)).audit.relative_drift();
      BOOST_TEST_MESSAGE("rtol " << rtol << ": delta_C = " << delta);
      BOOST_TEST(delta < previous);
      previous = delta;
    }
    BOOST_TEST(previous < 1e-7);
  }
}

BOOST_AUTO_TEST_CASE(z_as_quadrature_agrees_with_z_as_state) {
  for (const auto method : {sun::Multistep::Bdf, sun::Multistep::Adams}) {
    const CvodesRun state = run_cvodes(options_for(method, 1e-10, sun::ZMode::State));
    for (bool error_control : {true, false}) {
      sun::CvodesOptions o = options_for(method, 1e-10, sun::ZMode::Quadrature);
      o.quadrature_error_control = error_control;
      const CvodesRun quadrature = run_cvodes(o);
      // The motion to the global error of either run; Z (about 370 J here) relative to it.
      BOOST_TEST((quadrature.y.head(4) - state.y.head(4)).cwiseAbs().maxCoeff() < 1e-6);
      BOOST_TEST((quadrature.y.head(4) - rk4_reference().head(4)).cwiseAbs().maxCoeff() < 1e-6);
      BOOST_TEST(quadrature.y[4] == state.y[4], boost::test_tools::tolerance(1e-8));  // Z(5)
      BOOST_TEST(quadrature.audit.relative_drift() < 1e-6);
      BOOST_TEST(quadrature.result.counters.quadrature_rhs_evaluations > 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(adams_with_fixed_point_iteration) {
  sun::CvodesOptions o = options_for(sun::Multistep::Adams, 1e-9);
  o.iteration = sun::NonlinearIteration::FixedPoint;
  const CvodesRun run = run_cvodes(o);
  BOOST_TEST((run.y.head(4) - rk4_reference().head(4)).cwiseAbs().maxCoeff() < 1e-6);
  BOOST_TEST(run.result.counters.jacobian_evaluations == 0);
  BOOST_TEST(run.audit.passed());
}

namespace {

// The crane, with a right-hand side that fails from t_fail on: throws, or returns NaN.
struct FailingCrane {
  enum class Failure { Throw, NaN };
  CraneSystem crane{Crane{}};
  Failure failure;
  double t_fail = 0.5;

  ea::Index size() const { return crane.size(); }
  bool carries_energy_flow() const { return crane.carries_energy_flow(); }
  void fail_after(double t, Eigen::Ref<ea::Vector> rates) const {
    if (t < t_fail) return;
    if (failure == Failure::Throw) throw std::runtime_error("model failure at t = " + std::to_string(t));
    rates[1] = std::numeric_limits<double>::quiet_NaN();
  }
  void operator()(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    crane(y, dydt, t);
    fail_after(t, dydt);
  }
  void motion_rates(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    crane.motion_rates(y, dydt, t);
    fail_after(t, dydt);
  }
  double energy_flow_rate(const ea::ConstVectorRef& y, double t) const { return crane.energy_flow_rate(y, t); }
  ea::EnergySample sample(const ea::ConstVectorRef& y, double t) const { return crane.sample(y, t); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(throwing_rhs_is_rethrown_after_cvodes_returns_with_history_kept) {
  const FailingCrane system{.failure = FailingCrane::Failure::Throw};
  ea::Vector y = crane_start(system.crane);
  ea::Audit audit;
  BOOST_CHECK_EXCEPTION(sun::integrate_cvodes(system, y, 0.0, 5.0, ea::watch(system, audit)), std::runtime_error,
                        [](const std::runtime_error& e) { return std::string(e.what()).find("model failure") == 0; });
  BOOST_TEST(audit.accepted_steps() > 1u);
  BOOST_TEST(audit.last_row()[0] <= 0.5);
  BOOST_TEST(audit.last_row()[0] > 0.3);
  BOOST_CHECK(audit.verdict() == ea::Verdict::Error);
}

BOOST_AUTO_TEST_CASE(nan_rhs_ends_in_a_solver_error_naming_flag_and_time) {
  const FailingCrane system{.failure = FailingCrane::Failure::NaN};
  ea::Vector y = crane_start(system.crane);
  ea::Audit audit;
  try {
    sun::integrate_cvodes(system, y, 0.0, 5.0, ea::watch(system, audit));
    BOOST_FAIL("a NaN right-hand side must fail");
  } catch (const sun::CvodesFailure& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(e.flag_name().rfind("CV_", 0) == 0u);
    BOOST_TEST(e.t() <= 0.5);
    BOOST_TEST(e.t() > 0.3);
    BOOST_TEST(std::string(e.what()).find(e.flag_name()) != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("t = ") != std::string::npos);
  }
  BOOST_TEST(audit.accepted_steps() > 1u);
}

BOOST_AUTO_TEST_CASE(too_tight_max_steps_names_cv_too_much_work_and_keeps_history) {
  sun::CvodesOptions o;
  o.max_steps = 25;
  const CraneSystem system{Crane{}};
  ea::Vector y = crane_start(system);
  ea::Audit audit;
  try {
    sun::integrate_cvodes(system, y, 0.0, 5.0, ea::watch(system, audit), o);
    BOOST_FAIL("25 steps cannot reach t = 5");
  } catch (const sun::CvodesFailure& e) {
    BOOST_TEST(e.flag_name() == "CV_TOO_MUCH_WORK");
    BOOST_TEST(e.t() > 0.0);
    BOOST_TEST(e.t() == audit.last_row()[0]);
    BOOST_TEST(e.counters().steps == 25);
  }
  BOOST_TEST(audit.accepted_steps() == 26u);  // t0 and 25 steps
  BOOST_CHECK(audit.verdict() == ea::Verdict::Error);
  BOOST_TEST(!audit.passed());
}

BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_run_at_the_next_step_with_the_history_kept) {
  const CraneSystem system{Crane{}};
  for (const sun::ZMode mode : {sun::ZMode::State, sun::ZMode::Quadrature}) {
    ea::Vector y = crane_start(system);
    ea::Audit audit;
    ea::StopRequest stop;
    const auto watched = ea::watch(system, audit);
    sun::CvodesOptions o;
    o.z_mode = mode;
    // The request comes while the state after t = 1 is observed, as a signal might.
    const auto requesting = [&](const ea::ConstVectorRef& state, double t) {
      watched(state, t);
      if (t >= 1.0) stop.request();
    };
    struct Forwarding {
      decltype(requesting)& observe;
      const decltype(watched)& audit;
      void begin_run(double t0, double t1) const { audit.begin_run(t0, t1); }
      void end_run(ea::RunEnd end, double t) const { audit.end_run(end, t); }
      void operator()(const ea::ConstVectorRef& state, double t) const { observe(state, t); }
    };
    const sun::CvodesResult result = sun::integrate_cvodes(system, y, 0.0, 5.0, Forwarding{requesting, watched}, o, &stop);
    BOOST_CHECK(result.end == ea::RunEnd::Interrupted);
    BOOST_TEST(result.t_reached >= 1.0);
    BOOST_TEST(result.t_reached < 1.1);
    BOOST_TEST(audit.t_reached() == result.t_reached);
    BOOST_TEST(audit.last_row()[0] == result.t_reached);
    BOOST_CHECK(audit.verdict() == ea::Verdict::Interrupted);
    BOOST_TEST(audit.relative_drift() < 1e-6);  // the drift over what was computed
  }
}

BOOST_AUTO_TEST_CASE(bad_options_are_refused) {
  const CraneSystem system{Crane{}};
  ea::Vector y = crane_start(system);
  sun::CvodesOptions o;
  o.rtol = -1;
  BOOST_CHECK_THROW(sun::integrate_cvodes(system, y, 0.0, 5.0, ea::NoObserver{}, o), ea::InvalidArgument);
  ea::Vector short_state = y.head(4);
  BOOST_CHECK_THROW(sun::integrate_cvodes(system, short_state, 0.0, 5.0, ea::NoObserver{}), ea::InvalidArgument);
}

namespace {

// Sends what is written to stderr (file descriptor 2) to a temporary file while it lives.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()), saved_(dup(STDERR_FILENO)) {
    BOOST_TEST_REQUIRE(file_ != nullptr);
    BOOST_TEST_REQUIRE(saved_ >= 0);
    std::fflush(stderr);
    BOOST_TEST_REQUIRE(dup2(fileno(file_), STDERR_FILENO) >= 0);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  ~StderrCapture() {
    restore();
    if (file_) std::fclose(file_);
  }

  /// Restores stderr and returns what was written to it.
  std::string text() {
    restore();
    std::string written;
    std::rewind(file_);
    for (int c; (c = std::fgetc(file_)) != EOF;) written += static_cast<char>(c);
    return written;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
  }

  std::FILE* file_;
  int saved_;
};

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_repeated_warning_is_printed_once_and_the_failure_keeps_its_own_message) {
  // From t0 = 1, steps of at most 1e-20 leave t where it is: CVODE warns "t + h = t" with the same
  // text at each of its first 10 (mxhnil) steps, then once that it stops warning; the run ends
  // in its budget of 50 steps.
  sun::CvodesOptions o;
  o.max_step = 1e-20;
  o.max_steps = 50;
  const CraneSystem system{Crane{}};
  ea::Vector y = crane_start(system);
  StderrCapture capture;
  try {
    sun::integrate_cvodes(system, y, 1.0, 2.0, ea::NoObserver{}, o);
    BOOST_FAIL("steps of 1e-20 cannot leave t = 1");
  } catch (const sun::CvodesFailure& e) {
    BOOST_TEST(e.flag_name() == "CV_TOO_MUCH_WORK");
    BOOST_TEST(e.t() == 1.0);
    BOOST_TEST(std::string(e.what()).find(": max_steps = 50 steps taken before reaching the end") != std::string::npos,
               e.what());
  }
  const std::string err = capture.text();
  // SUNDIALS' texts (MSGCV_HNIL and MSGCV_HNIL_DONE in cvodes_impl.h).
  const std::string prefix = "energy-audit: SUNDIALS warning: ";
  const std::string t_plus_h = prefix +
                               "Internal t = 1 and h = 1e-20 are such that t + h = t on the next step. The solver "
                               "will continue anyway.\n";
  const std::string done =
      prefix + "The above warning has been issued mxhnil times and will not be issued again for this problem.\n";
  BOOST_TEST(occurrences(err, t_plus_h) == 1u, err);
  BOOST_TEST(occurrences(err, done) == 1u, err);
  BOOST_TEST(err.size() == t_plus_h.size() + done.size(), err);
}

namespace {

// The crane whose right-hand side returns NaN from its `failing_call`-th call on, at any t.
struct CraneFailingFromCall {
  CraneSystem crane{Crane{}};
  long failing_call;
  mutable long calls = 0;

  ea::Index size() const { return crane.size(); }
  bool carries_energy_flow() const { return crane.carries_energy_flow(); }
  void operator()(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    crane(y, dydt, t);
    if (++calls >= failing_call) dydt[1] = std::numeric_limits<double>::quiet_NaN();
  }
  void motion_rates(const ea::ConstVectorRef& y, Eigen::Ref<ea::Vector> dydt, double t) const {
    crane.motion_rates(y, dydt, t);
  }
  double energy_flow_rate(const ea::ConstVectorRef& y, double t) const { return crane.energy_flow_rate(y, t); }
  ea::EnergySample sample(const ea::ConstVectorRef& y, double t) const { return crane.sample(y, t); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_failure_after_warnings_carries_sundials_error_which_is_not_printed) {
  // As above, CVODE warns "t + h = t" from t0 = 1; from the 100th right-hand side call on (past
  // the ten warned steps) the right-hand side is NaN, which CVODE retries until it gives up with
  // an error of its own. That error is the failure's message and is not printed; the warnings
  // are printed once each.
  sun::CvodesOptions o;
  o.max_step = 1e-20;
  o.max_steps = 1000;
  const CraneFailingFromCall system{.failing_call = 100};
  ea::Vector y = crane_start(system.crane);
  StderrCapture capture;
  try {
    sun::integrate_cvodes(system, y, 1.0, 2.0, ea::NoObserver{}, o);
    BOOST_FAIL("a NaN right-hand side must fail");
  } catch (const sun::CvodesFailure& e) {
    BOOST_TEST(e.flag_name() == "CV_REPTD_RHSFUNC_ERR", e.what());
    // SUNDIALS' text (MSGCV_RHSFUNC_REPTD in cvodes_impl.h).
    BOOST_TEST(std::string(e.what()).ends_with(": At t = 1 repeated recoverable right-hand side function errors."),
               e.what());
  }
  const std::string err = capture.text();
  BOOST_TEST(occurrences(err, "energy-audit: SUNDIALS warning: Internal t = 1 and h = 1e-20") == 1u, err);
  BOOST_TEST(occurrences(err, "issued mxhnil times") == 1u, err);
  BOOST_TEST(occurrences(err, "repeated recoverable") == 0u, err);  // an error is not printed
}

BOOST_AUTO_TEST_CASE(an_interval_too_short_to_start_on_is_refused_before_cvodes_starts) {
  // CVODE itself ends [0, 1e-300] in CV_ILL_INPUT ((t_end - t0)^2 underflows to 0).
  const std::string problem = sun::adaptive_interval_problem(0.0, 1e-300);
  BOOST_TEST(problem.find("the interval [0, 1e-300] is too short for CVODES and IDAS to start") == 0u, problem);
  BOOST_TEST(problem.find("at least 1e-150") != std::string::npos, problem);
  const CraneSystem system{Crane{}};
  ea::Vector y = crane_start(system);
  const ea::Vector y0 = y;
  ea::Audit audit;
  BOOST_CHECK_EXCEPTION(sun::integrate_cvodes(system, y, 0.0, 1e-300, ea::watch(system, audit)), ea::InvalidArgument,
                        [&](const ea::InvalidArgument& e) { return e.what() == problem; });
  BOOST_TEST(audit.accepted_steps() == 0u);
  BOOST_TEST((y - y0).cwiseAbs().maxCoeff() == 0.0);

  // Two roundoff units from t0 = 1, CVODE ends in CV_TOO_CLOSE.
  const double eps = std::numeric_limits<double>::epsilon();
  BOOST_TEST(sun::adaptive_interval_problem(1.0, 1.0 + 2 * eps).find("is too short") != std::string::npos);
  BOOST_TEST(!sun::adaptive_interval_problem(0.0, 0.0).empty());
  BOOST_TEST(!sun::adaptive_interval_problem(0.0, std::numeric_limits<double>::infinity()).empty());
  BOOST_TEST(!sun::adaptive_interval_problem(0.0, std::numeric_limits<double>::quiet_NaN()).empty());
}

BOOST_AUTO_TEST_CASE(short_intervals_that_are_accepted_run_to_their_end) {
  const double eps = std::numeric_limits<double>::epsilon();
  const CraneSystem system{Crane{}};
  // [0, 1e-6], and near each of the two bounds of the rule: 1e-150, and 100 roundoff units of t
  // (here 128, rounded at 1e6).
  for (const auto& [t0, t1] : {std::pair{0.0, 1e-6}, std::pair{0.0, 1e-150}, std::pair{1.0, 1.0 + 128 * eps},
                               std::pair{1e6, 1e6 * (1.0 + 128 * eps)}}) {
    BOOST_TEST_CONTEXT("[" << t0 << ", " << t1 << "]") {
      BOOST_TEST(sun::adaptive_interval_problem(t0, t1) == "");
      for (const auto method : {sun::Multistep::Bdf, sun::Multistep::Adams}) {
        ea::Vector y = crane_start(system);
        const ea::Vector y0 = y;
        sun::CvodesOptions o;
        o.method = method;
        const sun::CvodesResult result = sun::integrate_cvodes(system, y, t0, t1, ea::NoObserver{}, o);
        BOOST_TEST(result.t_reached == t1);
        BOOST_TEST((y.head(4) - y0.head(4)).cwiseAbs().maxCoeff() < 1e-3);  // the crane barely moves
      }
    }
  }
}
