// Built against the installed package: a model, a stepper, the audit and the energy-balance
// assertion (EnergyAudit::testing) from the outside, with
// CONSUMER_CVODES the CVODES adapter, with CONSUMER_IDAS the IDAS adapter (linked without CVODES),
// with CONSUMER_STUDIES the studies (advise on a model described here, by fixed-step methods),
// with CONSUMER_STUDIES_MPI also the studies' MPI ranks (the same advice on the ranks of the job
// that runs it, mpiexec), with CONSUMER_STUDIES_SUNDIALS the studies with the CVODES and IDAS
// method families (advise by rk4 and cvode-bdf).
#define BOOST_TEST_MODULE consumer_test
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/energy_audit.hpp>
#include <energy_audit/testing/check_energy_balance.hpp>
#ifdef CONSUMER_CVODES
#include <energy_audit/sundials/integrate_cvodes.hpp>
#endif
#if defined(CONSUMER_STUDIES) || defined(CONSUMER_STUDIES_SUNDIALS)
#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/serial_executor.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#endif
#ifdef CONSUMER_STUDIES_MPI
#include <mpi.h>

#include <energy_audit/studies/mpi_ranks.hpp>
#endif
#ifdef CONSUMER_STUDIES_SUNDIALS
#include <energy_audit/sundials/cvodes_methods.hpp>
#include <energy_audit/sundials/idas_methods.hpp>
#endif
#ifdef CONSUMER_IDAS
#include <energy_audit/sundials/ida_drop_in.h>
#include <energy_audit/sundials/ida_drop_in.hpp>
#include <energy_audit/sundials/integrate_idas.hpp>
#endif

namespace {
// A pendulum of length 1 m with derived accelerations; small swings are close to cos(sqrt(g) t).
struct Pendulum {
  static constexpr int dofs = 1;
  template <class S>
  using Coordinates = energy_audit::VectorN<S, 1>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const { return 0.5 * v[0] * v[0]; }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const {
    using std::cos;
    return -9.81 * cos(q[0]);
  }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
};

// The same pendulum in Cartesian coordinates q = [x, y], held on its circle by a multiplier.
struct CartesianPendulum {
  static constexpr int dofs = 2;
  static constexpr int constraints = 1;
  template <class S>
  using Coordinates = energy_audit::VectorN<S, 2>;
  template <class S>
  S kinetic_energy(const Coordinates<S>&, const Coordinates<S>& v, const S&) const {
    return 0.5 * (v[0] * v[0] + v[1] * v[1]);
  }
  template <class S>
  S potential_energy(const Coordinates<S>& q, const S&) const { return 9.81 * q[1]; }
  template <class S>
  Coordinates<S> forces(const Coordinates<S>&, const Coordinates<S>&, const S&) const {
    return Coordinates<S>::Zero();
  }
  template <class S>
  energy_audit::VectorN<S, 1> position_constraints(const Coordinates<S>& q, const S&) const {
    return energy_audit::VectorN<S, 1>(0.5 * (q[0] * q[0] + q[1] * q[1] - 1.0));
  }
};

#if defined(CONSUMER_STUDIES) || defined(CONSUMER_STUDIES_SUNDIALS)
// The pendulum described for the studies: its parameter and initial values by name, its interval.
struct DescribedPendulum : Pendulum {
  double angle = 0.3;
  static constexpr energy_audit::Interval interval{0.0, 2.0};
  static constexpr std::array<std::string_view, 1> coordinate_names() { return {"phi"}; }
  static constexpr auto parameters() { return std::array<energy_audit::NamedMember<DescribedPendulum>, 0>{}; }
  static constexpr auto initial_values() {
    return std::array{energy_audit::NamedMember<DescribedPendulum>{"phi", &DescribedPendulum::angle, "angle [rad]"}};
  }
  energy_audit::InitialState<1> initial_state() const {
    energy_audit::InitialState<1> state;
    state.q[0] = angle;
    state.v[0] = 0.0;
    return state;
  }
};
#endif
}  // namespace

BOOST_AUTO_TEST_CASE(installed_library_integrates_and_audits) {
  const energy_audit::LagrangeSystem<Pendulum> system{Pendulum{}};
  energy_audit::Vector y = system.initial_state(Pendulum::Coordinates<double>(1e-3), Pendulum::Coordinates<double>(0.0));
  energy_audit::FixedStepper rk4(energy_audit::methods::Rk4{});
  energy_audit::Audit audit;
  energy_audit::integrate_const(rk4, system, y, 0.0, 2.0, 1e-3, energy_audit::watch(system, audit));
  BOOST_TEST(y[0] == 1e-3 * std::cos(std::sqrt(9.81) * 2.0), boost::test_tools::tolerance(1e-5));
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.relative_drift() < 1e-10);
}

BOOST_AUTO_TEST_CASE(installed_energy_balance_assertion) {
  const energy_audit::InitialState<1> start{Pendulum::Coordinates<double>(0.5), Pendulum::Coordinates<double>(0.0)};
  EA_CHECK_ENERGY_BALANCE(Pendulum{}, "rk4", 1e-3, 1e-10, start, energy_audit::Interval{0.0, 2.0});
  const auto report = energy_audit::testing::check_energy_balance(Pendulum{}, "euler", 1e-2, 1e-6, start,
                                                                  energy_audit::Interval{0.0, 2.0});
  BOOST_TEST(!report.passed);  // explicit Euler gains energy on an undamped pendulum
}

#ifdef CONSUMER_CVODES
BOOST_AUTO_TEST_CASE(installed_cvodes_adapter_integrates_and_audits) {
  const energy_audit::LagrangeSystem<Pendulum> system{Pendulum{}};
  energy_audit::Vector y = system.initial_state(Pendulum::Coordinates<double>(1e-3), Pendulum::Coordinates<double>(0.0));
  energy_audit::Audit audit;
  energy_audit::sun::integrate_cvodes(system, y, 0.0, 2.0, energy_audit::watch(system, audit));
  BOOST_TEST(y[0] == 1e-3 * std::cos(std::sqrt(9.81) * 2.0), boost::test_tools::tolerance(1e-5));
  BOOST_TEST(audit.passed());
}
#endif

#ifdef CONSUMER_IDAS
BOOST_AUTO_TEST_CASE(installed_idas_adapter_integrates_and_audits) {
  const energy_audit::MultiplierSystem<CartesianPendulum> system{CartesianPendulum{}};
  const double angle = 1e-3;
  using Coordinates = CartesianPendulum::Coordinates<double>;
  energy_audit::Vector y = system.initial_state(Coordinates(std::sin(angle), -std::cos(angle)), Coordinates(0.0, 0.0));
  energy_audit::Audit audit;
  energy_audit::sun::integrate_idas(system, y, 0.0, 2.0, energy_audit::watch(system, audit));
  BOOST_TEST(y[0] == 1e-3 * std::cos(std::sqrt(9.81) * 2.0), boost::test_tools::tolerance(1e-5));
  BOOST_TEST(audit.passed());
}

BOOST_AUTO_TEST_CASE(installed_ida_drop_in_headers_build_an_audit) {
  const energy_audit::sun::IdaAudit audit(
      2, {[](const double*, const double* v, double) { return 0.5 * (v[0] * v[0] + v[1] * v[1]); },
          [](const double* q, double) { return 9.81 * q[1]; }});
  BOOST_TEST(audit.dofs() == 2);
  BOOST_TEST(std::string(audit.verdict()) == "incomplete");  // nothing audited yet
  EaIdaAudit* c_audit = ea_ida_audit_create(0, nullptr, nullptr, nullptr, nullptr, 1e-3);
  BOOST_TEST(std::string(ea_ida_audit_last_error(c_audit)).find("NULL") != std::string::npos);
  ea_ida_audit_free(c_audit);
}
#endif

#if defined(CONSUMER_STUDIES) || defined(CONSUMER_STUDIES_SUNDIALS)
namespace {
namespace studies = energy_audit::studies;

// Advises a step for the pendulum with the first two of `methods`, both meeting the target.
void check_advice(const studies::ModelEntry& pendulum, const std::vector<studies::Method>& methods) {
  studies::AdviceSettings settings;
  settings.target = 1e-6;
  const studies::Advice advice = studies::advise(pendulum, {}, methods, settings, studies::RunPool(2));
  BOOST_REQUIRE_EQUAL(advice.methods.size(), 2u);
  BOOST_REQUIRE(advice.recommended.has_value());
  for (const studies::MethodAdvice& method : advice.methods) {
    BOOST_TEST_CONTEXT(method.method) {
      BOOST_REQUIRE(method.answer.has_value());
      BOOST_TEST(method.answer->meets);
      BOOST_TEST(method.answer->delta_C <= 1e-6);
      // The step it found is a real bracket: the next larger one missed the target.
      if (method.next) BOOST_TEST(!method.next->meets);
    }
  }
  BOOST_TEST(advice.methods[0].answer->resolution > 1e-4);
  BOOST_TEST(advice.methods[0].answer->resolution < 0.5);
}
}  // namespace
#endif

#ifdef CONSUMER_STUDIES
BOOST_AUTO_TEST_CASE(installed_studies_advise_a_step) {
  // The studies alone offer the fixed-step methods.
  const studies::ModelEntry pendulum = studies::make_entry<DescribedPendulum>("pendulum", "a pendulum of 1 m");
  BOOST_TEST(studies::method_names(pendulum.methods) == studies::method_names(studies::fixed_step_methods()));
  check_advice(pendulum, {studies::find_method(pendulum.methods, "rk4"), studies::find_method(pendulum.methods, "rk2")});
}
#endif

#ifdef CONSUMER_STUDIES_SUNDIALS
BOOST_AUTO_TEST_CASE(installed_studies_advise_a_step_with_cvodes) {
  using Families =
      studies::MethodFamilies<studies::FixedStepFamily, energy_audit::sun::CvodesMethods, energy_audit::sun::IdasMethods>;
  const studies::ModelEntry pendulum =
      studies::make_entry<DescribedPendulum, Families>("pendulum", "a pendulum of 1 m");
  const std::vector<std::string> names = studies::method_names(pendulum.methods);
  BOOST_TEST(names.size() == studies::fixed_step_methods().size() + 3);
  BOOST_TEST(names.back() == "idas");
  check_advice(pendulum, {Families::find("rk4"), Families::find("cvode-bdf")});
}
#endif

#ifdef CONSUMER_STUDIES_MPI
BOOST_AUTO_TEST_CASE(installed_studies_mpi_advise_on_the_ranks_as_serially) {
  namespace studies = energy_audit::studies;
  // The program initializes MPI for the ranks and finalizes it.
  struct MpiJob {
    MpiJob() {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    }
    ~MpiJob() { MPI_Finalize(); }
  } job;
  const studies::ModelEntry pendulum = studies::make_entry<DescribedPendulum>("pendulum", "a pendulum of 1 m");
  studies::AdviceSettings settings;
  settings.target = 1e-6;
  const std::vector<studies::Method> methods{studies::find_method(pendulum.methods, "rk4"),
                                            studies::find_method(pendulum.methods, "rk2")};
  const studies::MpiRanks ranks;
  const studies::Advice on_ranks = studies::advise(pendulum, {}, methods, settings, ranks);
  const studies::Advice serial = studies::advise(pendulum, {}, methods, settings, studies::SerialExecutor());
  BOOST_TEST(on_ranks.workers.ranks == ranks.size());
  BOOST_REQUIRE_EQUAL(on_ranks.methods.size(), serial.methods.size());
  for (std::size_t m = 0; m < serial.methods.size(); ++m) {
    BOOST_TEST_CONTEXT(serial.methods[m].method) {
      const std::vector<studies::Probe>& expected = serial.methods[m].probes;
      const std::vector<studies::Probe>& probes = on_ranks.methods[m].probes;
      BOOST_REQUIRE_EQUAL(probes.size(), expected.size());
      for (std::size_t p = 0; p < expected.size(); ++p) {
        BOOST_TEST(probes[p].resolution == expected[p].resolution);
        BOOST_TEST(probes[p].delta_C == expected[p].delta_C);
        BOOST_TEST(probes[p].rhs_evaluations == expected[p].rhs_evaluations);
      }
    }
  }
}
#endif
