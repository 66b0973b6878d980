// The studies' independent runs on any executor give what they give serially, run by run:
// advise and a sweep of the trolley crane (seed 002), each on one thread and on four, and the
// sweep on two executors written here as a user would write one (every run a task of its own,
// started from the last; the runs' results moved as bytes, as between processes), compared field
// by field (all but the wall times); a failure is the lowest failing index's on every executor.
// The runs are those of EnergyAudit::studies on an entry made here from the example model, as a
// user would make one for a model of their own.

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstddef>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/mpi_ranks.hpp>
#include <energy_audit/studies/run_batch.hpp>
#include <energy_audit/studies/run_executor.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/serial_executor.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#include <energy_audit/studies/sweep.hpp>
#include <energy_audit/studies/thread_pool_executor.hpp>

#include <energy_audit/sundials/cvodes_methods.hpp>

#include "crane.hpp"

namespace es = energy_audit::studies;
using Methods = es::MethodFamilies<es::FixedStepFamily, energy_audit::sun::CvodesMethods>;

namespace {

/// A user's executor: every run a task of its own (std::async), started from the last index.
class TasksFromTheLast {
 public:
  void run_all(const es::RunBatch& runs) const {
    std::vector<std::future<void>> tasks(runs.count());
    for (std::size_t i = runs.count(); i-- > 0;) {
      tasks[i] = std::async(std::launch::async, [&runs, i] { runs.run(i); });
    }
    // The lowest failing index throws first; the tasks still running finish as `tasks` goes.
    for (std::future<void>& task : tasks) task.get();
  }
  es::Workers workers() const { return {3, 1}; }
  bool leads() const { return true; }
};

/// A user's executor that moves each result as bytes, as one across processes does: made by
/// encoded_run, kept by keep_encoded, from the last index to the first, counted here.
class BytesFromTheLast {
 public:
  void run_all(const es::RunBatch& runs) const {
    ++calls;
    for (std::size_t i = runs.count(); i-- > 0;) {
      runs.keep_encoded(i, runs.encoded_run(i));
      runs.progress().close(i);
      runs.progress().advance(runs.units_each());
    }
  }
  es::Workers workers() const { return {1, 2}; }
  bool leads() const { return false; }
  mutable int calls = 0;  ///< of run_all
};

/// Not an executor: it runs the runs but says neither what ran them nor who leads.
struct RunsOnly {
  void run_all(const es::RunBatch& runs) const {
    for (std::size_t i = 0; i < runs.count(); ++i) runs.run(i);
  }
};

static_assert(es::RunExecutor<es::SerialExecutor>);
static_assert(es::RunExecutor<es::ThreadPoolExecutor>);
static_assert(es::RunExecutor<es::MpiRanks>);
static_assert(es::RunExecutor<TasksFromTheLast>);
static_assert(es::RunExecutor<BytesFromTheLast>);
static_assert(!es::RunExecutor<RunsOnly>);
static_assert(!es::RunExecutor<int>);
static_assert(!std::is_constructible_v<es::RunPool, RunsOnly>);

const es::ModelEntry& crane() {
  static const es::ModelEntry entry = es::make_entry<energy_audit::examples::Crane, Methods>("crane", "trolley crane");
  return entry;
}

void check_same_probe(const es::Probe& serial, const es::Probe& threaded) {
  BOOST_TEST(threaded.resolution == serial.resolution);
  BOOST_TEST(threaded.delta_C == serial.delta_C);
  BOOST_TEST(threaded.meets == serial.meets);
  BOOST_TEST(threaded.rhs_evaluations == serial.rhs_evaluations);
  BOOST_TEST(threaded.end == serial.end);
  BOOST_TEST(threaded.finished == serial.finished);
  BOOST_TEST(threaded.missed == serial.missed);
}

es::Advice advise_crane(int threads) {
  es::AdviceSettings settings;
  settings.target = 1e-6;
  settings.base.t_end = 1.0;
  const std::vector<es::Method> methods{Methods::find("euler"), Methods::find("rk4"), Methods::find("rkg"),
                                        Methods::find("cvode-bdf")};
  return es::advise(crane(), {}, methods, settings, es::RunPool(threads));
}

es::SweepResult sweep_crane(const es::RunPool& pool) {
  es::SweepPlan plan;
  es::AssignmentList masses;
  masses.name = "m2";
  masses.values = {0.5, 1.0, 2.0};
  plan.parameters = {masses};
  plan.methods = {Methods::find("rk2"), Methods::find("rk4"), Methods::find("cvode-adams")};
  plan.steps = {1e-2, 2e-3};
  plan.rtols = {1e-5, 1e-8};
  plan.base.t_end = 1.0;
  return es::run_sweep(crane(), plan, es::plan_runs(crane(), plan), pool);
}

void check_same_sweep(const es::SweepResult& serial, const es::SweepResult& other) {
  // 3 masses × (2 fixed-step methods × 2 steps + 1 adaptive method × 2 rtols)
  BOOST_REQUIRE_EQUAL(serial.runs.size(), 18u);
  BOOST_REQUIRE_EQUAL(other.runs.size(), serial.runs.size());
  for (std::size_t i = 0; i < serial.runs.size(); ++i) {
    const es::SweepRun& s = serial.runs[i];
    const es::SweepRun& t = other.runs[i];
    BOOST_TEST_CONTEXT("run " << i << ": " << s.method << " at " << s.resolution) {
      BOOST_TEST(!s.verdict.empty());
      BOOST_TEST(t.method == s.method);
      BOOST_TEST(t.resolution == s.resolution);
      BOOST_TEST(t.parameters.at(0).value == s.parameters.at(0).value);
      BOOST_TEST(t.delta_C == s.delta_C);
      BOOST_TEST(t.verdict == s.verdict);
      BOOST_TEST(t.steps == s.steps);
      BOOST_TEST(t.rhs_evaluations == s.rhs_evaluations);
    }
  }
}

/// Eight runs, of which 3 and 5 fail; run 3 fails later than run 5 begins and fails.
std::vector<int> runs_failing_at_3_and_5(const es::RunPool& pool) {
  return pool.map<int>(8, [](std::size_t i) {
    if (i == 3) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      throw std::runtime_error("run 3 failed");
    }
    if (i == 5) throw std::runtime_error("run 5 failed");
    return static_cast<int>(i * i);
  });
}

std::string failure_of(const es::RunPool& pool) {
  try {
    runs_failing_at_3_and_5(pool);
  } catch (const std::runtime_error& failure) {
    return failure.what();
  }
  return "no failure";
}

}  // namespace

BOOST_AUTO_TEST_CASE(advise_on_threads_equals_the_serial_advice) {
  const es::Advice serial = advise_crane(1);
  const es::Advice threaded = advise_crane(4);
  BOOST_TEST(serial.workers.threads == 1);
  BOOST_TEST(threaded.workers.threads == 4);
  BOOST_TEST(!serial.interrupted);
  BOOST_TEST(!threaded.interrupted);
  BOOST_REQUIRE(serial.recommended.has_value());
  BOOST_TEST((threaded.recommended == serial.recommended));
  BOOST_REQUIRE_EQUAL(serial.methods.size(), 4u);
  BOOST_REQUIRE_EQUAL(threaded.methods.size(), serial.methods.size());
  for (std::size_t i = 0; i < serial.methods.size(); ++i) {
    const es::MethodAdvice& s = serial.methods[i];
    const es::MethodAdvice& t = threaded.methods[i];
    BOOST_TEST_CONTEXT("method " << s.method) {
      BOOST_TEST(t.method == s.method);
      BOOST_TEST(t.answer.has_value() == s.answer.has_value());
      if (s.answer && t.answer) check_same_probe(*s.answer, *t.answer);
      BOOST_TEST(t.note == s.note);
      BOOST_TEST(!s.probes.empty());
      BOOST_REQUIRE_EQUAL(t.probes.size(), s.probes.size());
      for (std::size_t p = 0; p < s.probes.size(); ++p) check_same_probe(s.probes[p], t.probes[p]);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_sweep_on_threads_equals_the_serial_sweep) {
  const es::SweepResult serial = sweep_crane(es::SerialExecutor());
  const es::SweepResult threaded = sweep_crane(es::RunPool(4));
  BOOST_TEST(serial.workers.threads == 1);
  BOOST_TEST(threaded.workers.threads == 4);
  check_same_sweep(serial, threaded);
}

BOOST_AUTO_TEST_CASE(a_sweep_on_a_users_executors_equals_the_serial_sweep) {
  const es::SweepResult serial = sweep_crane(es::SerialExecutor());
  const es::SweepResult on_tasks = sweep_crane(TasksFromTheLast());
  BOOST_TEST(on_tasks.workers.threads == 3);
  check_same_sweep(serial, on_tasks);
  // Given by name, the executor is the pool's own: its count of calls grows.
  const BytesFromTheLast as_bytes;
  const es::SweepResult moved_as_bytes = sweep_crane(as_bytes);
  BOOST_TEST(as_bytes.calls == 1);
  BOOST_TEST(moved_as_bytes.workers.ranks == 2);
  check_same_sweep(serial, moved_as_bytes);
}

BOOST_AUTO_TEST_CASE(every_executor_says_whether_it_leads) {
  BOOST_TEST(es::RunPool(es::SerialExecutor()).leads());
  BOOST_TEST(es::RunPool(4).leads());
  BOOST_TEST(!es::RunPool(BytesFromTheLast()).leads());
  BOOST_TEST(es::RunPool(4).workers().text() == "4 threads");
  BOOST_TEST(es::RunPool(BytesFromTheLast()).workers().text() == "2 ranks");
}

BOOST_AUTO_TEST_CASE(results_land_at_their_indices_and_the_lowest_failure_is_thrown) {
  const auto squares = [](const es::RunPool& pool) {
    return pool.map<int>(6, [](std::size_t i) { return static_cast<int>(i * i); });
  };
  const std::vector<int> expected{0, 1, 4, 9, 16, 25};
  BOOST_TEST(squares(es::SerialExecutor()) == expected, boost::test_tools::per_element());
  BOOST_TEST(squares(es::RunPool(4)) == expected, boost::test_tools::per_element());
  BOOST_TEST(squares(TasksFromTheLast()) == expected, boost::test_tools::per_element());
  BOOST_TEST(squares(BytesFromTheLast()) == expected, boost::test_tools::per_element());

  BOOST_TEST(failure_of(es::SerialExecutor()) == "run 3 failed");
  BOOST_TEST(failure_of(es::RunPool(4)) == "run 3 failed");
  BOOST_TEST(failure_of(TasksFromTheLast()) == "run 3 failed");
  // From the last index, run 5 fails first and the runs below it never start.
  BOOST_TEST(failure_of(BytesFromTheLast()) == "run 5 failed");
}
