// The stability map (stability_map.hpp) against the library, not the command line, on a kinematic
// model of the test's own whose constraint error obeys the scalar decay f' = k f exactly: a point
// moved along the line y = 0 (f = y, x' = 1) with the gain k, so that every explicit Runge–Kutta
// step multiplies f by R(kτ), its stability polynomial — for a method of order p ≤ 4 with p stages
// the Taylor polynomial Σ_{j ≤ p} z^j / j! (written out here, not taken from the library). Linear
// theory is then exact: a start off the line is stable where |R(kτ)| < 1, i.e. z* < kτ < 0 with
// z* = −2 (euler, rk2), −2.5127 (rk3), −2.7853 (rk4, rkg); unstable where |R(kτ)| > 1, neutral at
// k = 0; a start on the line stays on it, its verdict the transverse multiplier's (|R(kτ)|). The
// boundary searches find z*/τ (ρ = 1) and the gains where |R(kτ)|^N f0 = 1 (|f_n| ≤ 1 for every n).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <energy_audit/kinematic_system.hpp>
#include <energy_audit/steppers/fixed_step_method.hpp>
#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/kinematic_run.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/settings_error.hpp>
#include <energy_audit/studies/stability_map.hpp>
#include <energy_audit/transverse_multiplier.hpp>

namespace ea = energy_audit;
namespace es = energy_audit::studies;

namespace {

/// A point q = [x, y] kept on the line f = y = 0 by the gain k: x' = c = 1, y' = k y exactly.
struct Line {
  static constexpr int coordinates = 2;
  static constexpr int constraints = 1;
  double k = 0.0;
  template <class S>
  ea::VectorN<S, 1> position_constraints(const ea::VectorN<S, 2>& q, const S&) const {
    return ea::VectorN<S, 1>(q[1]);
  }
  ea::VectorN<double, 1> free_velocities(double) const { return ea::VectorN<double, 1>(1.0); }
  Eigen::Matrix<double, 1, 1> gain() const { return Eigen::Matrix<double, 1, 1>(k); }
  /// Points on the line where the transverse multiplier is averaged.
  static std::vector<ea::Vector> constraint_points(int count) {
    std::vector<ea::Vector> points;
    for (int j = 0; j < count; ++j) points.push_back(Eigen::Vector2d(double(j), 0.0));
    return points;
  }
};

using Families = es::MethodFamilies<es::FixedStepFamily>;

constexpr double f0 = 0.05;  ///< the perturbed start's y

/// The line with --set k and its start with --init x, y.
std::pair<Line, Eigen::Vector2d> line_setup(const es::ModelSetup& setup, const es::OptionNames& names = {}) {
  Line line;
  Eigen::Vector2d start(0.0, 0.0);
  for (const es::Assignment& a : setup.parameters) {
    if (a.name != "k")
      throw es::SettingsError(names("set") + ": model line has no parameter '" + a.name + "'");
    line.k = a.value;
  }
  for (const es::Assignment& a : setup.initial_values) {
    if (a.name != "x" && a.name != "y")
      throw es::SettingsError(names("init") + ": no initial value '" + a.name + "'");
    start[a.name == "x" ? 0 : 1] = a.value;
  }
  return {line, start};
}

/// The line's entry, made as examples/model_registry/kinematic_models.cpp makes the ellipse's,
/// over [0, 10] s: 100 steps of τ = 0.1, 200 of 0.05.
const es::KinematicEntry& line_entry() {
  static const es::KinematicEntry entry = [] {
    es::KinematicEntry e;
    e.name = "line";
    e.description = "a point kept on y = 0 by the gain k";
    e.coordinate_names = {"x", "y"};
    e.parameter_names = {"k"};
    e.initial_value_names = {"x", "y"};
    e.starts = {{"on_constraint", {{"x", 0.0}, {"y", 0.0}}}, {"perturbed", {{"x", 0.0}, {"y", f0}}}};
    e.interval = {0.0, 10.0};
    e.methods = es::kinematic_methods<Families>();
    e.check_setup = [](const es::ModelSetup& setup, const es::OptionNames& names) {
      line_setup(setup, names);
    };
    e.run = [](const es::ModelSetup& setup, const es::KinematicSettings& settings) {
      const auto [line, start] = line_setup(setup);
      es::KinematicOutcome outcome;
      outcome.model = "line";
      outcome.interval = {0.0, settings.t_end.value_or(10.0)};
      outcome.parameters = {{"k", line.k}};
      outcome.initial_values = {{"x", start[0]}, {"y", start[1]}};
      outcome.coordinate_names = {"x", "y"};
      return es::run_kinematic<Families>(line, ea::Vector(start), std::move(outcome), settings);
    };
    // No rotation along the line: the upper end of the linear interval is −d(0)/τ = 0.
    e.linear_interval = [](const es::ModelSetup&, const es::Method& method, double tau) {
      return es::LinearInterval{es::stability_polynomial(method).real_stability_limit() / tau, 0.0};
    };
    e.transverse_multiplier = [](const es::ModelSetup& setup, const es::Method& method, double tau,
                                 int points) {
      const ea::KinematicSystem<Line> system(line_setup(setup).first);
      ea::FixedStepper stepper(es::FixedStepFamily::fixed_step_method(method));
      return ea::transverse_multiplier(stepper, system, tau, 0.0, Line::constraint_points(points));
    };
    return e;
  }();
  return entry;
}

/// R(z) = Σ_{j ≤ p} z^j / j!: the stability polynomial of an explicit Runge–Kutta method of
/// order p ≤ 4 with p stages.
double R(int p, double z) {
  double sum = 1, term = 1;
  for (int j = 1; j <= p; ++j) sum += term *= z / j;
  return sum;
}

/// The order of each method of the map.
int order_of(const std::string& method) {
  return method == "euler" ? 1 : method == "rk2" ? 2 : method == "rk3" ? 3 : 4;  // rk4, rkg
}

/// z* < 0: the left end of the real stability interval, |R(z*)| = 1 (Hairer and Wanner, Solving
/// ODEs II, IV.2: −2, −2, −2.51, −2.79).
double z_star(int p) {
  switch (p) {
    case 1:
    case 2:
      return -2.0;
    case 3:
      return -2.5127453266183286;
    default:
      return -2.785293563405282;
  }
}

/// The z between `inside` (|R| below `level`) and `outside` (above it) where |R(z)| = level.
double where_R_reaches(int p, double level, double inside, double outside) {
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (inside + outside);
    (std::abs(R(p, middle)) <= level ? inside : outside) = middle;
  }
  return 0.5 * (inside + outside);
}

es::StabilityMapSettings map_settings(const std::vector<std::string>& methods, std::vector<double> steps,
                                      std::vector<double> gains) {
  es::StabilityMapSettings settings;
  for (const std::string& name : methods) settings.methods.push_back(Families::find(name));
  settings.steps = std::move(steps);
  settings.gains = std::move(gains);
  settings.multiplier_points = 4;  // the line is the same everywhere: a few points suffice
  return settings;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_published_limits_are_where_the_taylor_polynomials_leave_the_unit_disc) {
  // The references of the test cases below, checked against the polynomials written out here.
  for (int p = 1; p <= 4; ++p) {
    BOOST_TEST(std::abs(R(p, z_star(p))) == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(std::abs(R(p, 0.99 * z_star(p))) < 1.0);
    BOOST_TEST(std::abs(R(p, 1.01 * z_star(p))) > 1.0);
  }
}

BOOST_AUTO_TEST_CASE(every_verdict_of_the_map_is_that_of_linear_theory) {
  // kτ from −4.5 to 0.2 (τ = 0.1) and −2.25 to 0.1 (τ = 0.05), none within 0.04 of |R| = 1 but k = 0.
  const std::vector<double> gains{-45, -30, -26, -22, -19, -10, -1, 0, 2};
  const std::vector<double> steps{0.1, 0.05};
  const std::vector<std::string> methods{"euler", "rk2", "rk3", "rk4", "rkg"};
  es::StabilityMapSettings settings = map_settings(methods, steps, gains);
  settings.boundaries = false;
  const es::StabilityMap map = es::compute_stability_map(line_entry(), settings, es::RunPool(1));
  BOOST_TEST(!map.interrupted);
  BOOST_REQUIRE_EQUAL(map.points.size(), methods.size() * steps.size() * gains.size() * 2);
  BOOST_REQUIRE_EQUAL(map.summaries.size(), methods.size() * steps.size());
  std::size_t i = 0, stable = 0, unstable = 0;
  for (std::size_t m = 0; m < methods.size(); ++m) {
    const int p = order_of(methods[m]);
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const double tau = steps[s];
      const double steps_taken = std::round(10.0 / tau);
      // The linear interval: z*/τ < k < 0.
      const es::MethodStepSummary& summary = map.summaries[m * steps.size() + s];
      BOOST_TEST(summary.method == methods[m]);
      BOOST_TEST(summary.tau == tau);
      BOOST_TEST(summary.linear.lower == z_star(p) / tau, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(summary.linear.upper == 0.0);
      for (const double k : gains) {
        const double growth = std::abs(R(p, k * tau));  // |f_{n+1}| / |f_n|
        BOOST_REQUIRE(k == 0 || std::abs(growth - 1) > 0.04);
        for (const char* start : {"on_constraint", "perturbed"}) {
          const es::MapPoint& point = map.points[i++];
          BOOST_TEST_CONTEXT(methods[m] << ", tau = " << tau << ", k = " << k << ", " << start) {
            BOOST_TEST(point.method == methods[m]);
            BOOST_TEST(point.tau == tau);
            BOOST_TEST(point.k == k);
            BOOST_TEST(point.start == start);
            // The transverse multiplier of one step is |R(kτ)|.
            BOOST_TEST(std::abs(point.rho - growth) <= 1e-8, point.rho << " vs " << growth);
            const bool inside = summary.linear.lower < k && k < summary.linear.upper;
            BOOST_TEST(inside == (growth < 1));
            std::string expected;
            if (std::string(start) == "on_constraint") {
              BOOST_TEST(point.f_max == 0.0);  // f = 0 stays 0 exactly
              expected = growth > 1 ? "drifting" : "stable";
            } else if (k == 0) {
              expected = "neutral";  // f stays f0
            } else if (growth > 1) {
              BOOST_REQUIRE(std::pow(growth, steps_taken) * f0 > 1);  // |f| leaves 1 within the run
              expected = "unstable";
              ++unstable;
            } else {
              BOOST_REQUIRE(std::pow(growth, steps_taken) < 0.5);         // f falls below half of f0
              const double f_final = f0 * std::pow(growth, steps_taken);  // 0 for euler at kτ = −1
              BOOST_TEST(std::abs(point.f_final - f_final) <= 1e-6 * f_final + 1e-15,
                         point.f_final << " vs " << f_final);
              expected = "stable";
              ++stable;
            }
            BOOST_TEST(point.verdict == expected);
          }
        }
      }
    }
  }
  BOOST_TEST(stable > 20u);  // both sides of every boundary are in the map
  BOOST_TEST(unstable > 20u);
}

BOOST_AUTO_TEST_CASE(the_boundary_searches_find_the_closed_forms) {
  // rk4 at τ = 0.1 over [0, 2] s: N = 20 steps, so from f0 = 0.05 |f_n| ≤ 1 for every n where
  // |R(kτ)|^20 ≤ 20, |R| ≤ 20^(1/20) = 1.1616: k from −28.9 to 1.50.
  es::StabilityMapSettings settings = map_settings({"rk4"}, {0.1}, {-1.0});
  settings.t_end = 2.0;
  const es::StabilityMap map = es::compute_stability_map(line_entry(), settings, es::RunPool(1));
  BOOST_REQUIRE_EQUAL(map.summaries.size(), 1u);
  const es::MethodStepSummary& summary = map.summaries.front();
  const double tau = 0.1, z = z_star(4);
  // ρ(k) = |R(kτ)| = 1 at k = z*/τ and at k = 0.
  BOOST_REQUIRE(summary.rho_one_lower);
  BOOST_TEST(*summary.rho_one_lower == z / tau, boost::test_tools::tolerance(1e-7));
  BOOST_REQUIRE(summary.rho_one_upper);
  BOOST_TEST(std::abs(*summary.rho_one_upper) < 1e-6);
  const double level = std::pow(1 / f0, 1.0 / 20);
  const double k_lower = where_R_reaches(4, level, z, 1.5 * z) / tau;
  const double k_upper = where_R_reaches(4, level, 0.0, 1.0) / tau;
  BOOST_REQUIRE_EQUAL(summary.starts.size(), 2u);
  for (const es::StartBoundaries& start : summary.starts) {
    BOOST_TEST_CONTEXT(start.start) {
      if (start.lower && start.upper) {
        BOOST_TEST_MESSAGE(start.start << ": stable for k in [" << start.lower->last_stable << ", "
                                       << start.upper->last_stable << "]; closed form [" << k_lower << ", "
                                       << k_upper << "]");
      }
      if (start.start == "on_constraint") {  // f stays 0 at every gain: no boundary
        BOOST_TEST(!start.lower);
        BOOST_TEST(!start.upper);
        continue;
      }
      BOOST_TEST(start.start == "perturbed");
      BOOST_REQUIRE(start.lower);
      BOOST_REQUIRE(start.upper);
      BOOST_TEST(start.lower->last_stable == k_lower, boost::test_tools::tolerance(1e-7));
      BOOST_TEST(start.lower->first_unstable == k_lower, boost::test_tools::tolerance(1e-7));
      BOOST_TEST(start.lower->last_stable > start.lower->first_unstable);  // the search runs down from −2
      BOOST_TEST(start.lower->passing_beyond == 0);  // |R| grows on beyond z*: the stable set is an interval
      BOOST_TEST(start.upper->last_stable == k_upper, boost::test_tools::tolerance(1e-7));
      BOOST_TEST(start.upper->first_unstable == k_upper, boost::test_tools::tolerance(1e-7));
      BOOST_TEST(start.upper->passing_beyond == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_method_without_a_stability_polynomial_is_refused) {
  // verlet updates velocities and positions apart: no R(z) of an explicit Runge–Kutta tableau.
  const es::StabilityMapSettings settings = map_settings({"verlet"}, {0.1}, {-1.0});
  BOOST_CHECK_THROW(es::compute_stability_map(line_entry(), settings, es::RunPool(1)), es::SettingsError);
}
