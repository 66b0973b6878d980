/// \file
/// The MuJoCo audit's cost per mj_step (EnergyAudit::mujoco) on a model of more than 20 degrees
/// of freedom: tests/plugins/mujoco/models/humanoid_tree.xml (a free joint and 20 limited,
/// damped hinges, nv = 26, 20 motors, contacts with the floor). Every iteration resets the data
/// to keyframe 0 (outside the clocks) and takes 500 steps of 2 ms (t = 0 … 1 s: the body falls
/// and lies on the floor, its contacts active), the motors driven by ctrl[k] = 0.3 sin(3t + k),
/// set before each step, on MuJoCo's Euler (/euler) or RK4 (/rk4) integrator:
///
///   BM_Mujoco_Unaudited       the plain loop: ctrl, mj_step(m, d)
///   BM_Mujoco_Step            ctrl, audit.step(m, d) in place of mj_step: the cost per step (the
///                             audit made before the clock starts, and not finished)
///   BM_Mujoco_AfterStep       ctrl, the user's own mj_step(m, d), then audit.after_step(m, d):
///                             the cost per step, as above
///   BM_Mujoco_StepWholeRun    BM_Mujoco_Step with the audit's construction and its finish (one
///                             mj_forward on an mjData of its own) inside the clock: what a run
///                             of 500 steps pays in all
///
/// The audited benchmarks run the unaudited loop beside them in every iteration, in alternating
/// order, on the same mjData, and report audited / unaudited as the counter
/// `audited_over_unaudited` (benchmark_support.hpp's time_ratio_prepared: the reset, and for the
/// per-step pairs the audit's construction, are outside both clocks); their reported time is the
/// pair's, resets included. main() checks, before any timing, that every audited run ends in the
/// unaudited run's state bit for bit (time, qpos, qvel, qacc, qacc_warmstart) and audited all 500
/// steps.
///
/// Run, from the build directory:
///   taskset -c 1 bin/energy_audit_mujoco_benchmarks --benchmark_repetitions=20
///     --benchmark_report_aggregates_only=true --benchmark_enable_random_interleaving=true
/// and, for instructions, one run of each loop (run_unaudited, run_step, run_after_step, each
/// called once by main's check and once per iteration):
///   valgrind --tool=callgrind --toggle-collect='*run_step*' bin/energy_audit_mujoco_benchmarks
///     --benchmark_filter='^BM_Mujoco_Step/euler$' --benchmark_min_time=0

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include <mujoco/mujoco.h>

#include <energy_audit/mujoco/mujoco_audit.hpp>

#include "benchmark_support.hpp"

#ifndef ENERGY_AUDIT_MUJOCO_MODELS
#error "ENERGY_AUDIT_MUJOCO_MODELS: the directory of the MuJoCo test models"
#endif

namespace {

using energy_audit::benchmarks::add_min_statistic;
using energy_audit::benchmarks::time_ratio_prepared;
using energy_audit::mujoco::MujocoAudit;

constexpr int steps = 500;  // 1 s at the model's 2 ms

enum class Integrator { euler, rk4 };

/// MuJoCo's warnings go nowhere (no MUJOCO_LOG.TXT); main's check sees a run that MuJoCo reset.
void quiet_warning(const char*) {}

struct Simulation {
  mjModel* m = nullptr;
  mjData* d = nullptr;
};

/// The model on one integrator, loaded once, and its data.
Simulation& simulation(Integrator integrator) {
  static Simulation loaded[2];
  Simulation& s = loaded[integrator == Integrator::euler ? 0 : 1];
  if (s.m == nullptr) {
    char error[1000] = "";
    s.m = mj_loadXML(ENERGY_AUDIT_MUJOCO_MODELS "/humanoid_tree.xml", nullptr, error, sizeof error);
    if (s.m == nullptr) {
      std::fprintf(stderr, "energy_audit_mujoco_benchmarks: humanoid_tree.xml: %s\n", error);
      std::exit(EXIT_FAILURE);
    }
    s.m->opt.integrator = integrator == Integrator::euler ? mjINT_EULER : mjINT_RK4;
    s.d = mj_makeData(s.m);
  }
  return s;
}

void reset(const Simulation& s) { mj_resetDataKeyframe(s.m, s.d, 0); }

/// The controls held over the step that starts now.
inline void set_controls(const mjModel* m, mjData* d) {
  for (int k = 0; k < m->nu; ++k) d->ctrl[k] = 0.3 * std::sin(3 * d->time + k);
}

struct Audited {
  long steps = 0;
  double delta_c = 0;
  bool passed = false;
};

// The three loops, not inlined, so that callgrind can collect each by name.
__attribute__((noinline)) void run_unaudited(const mjModel* m, mjData* d) {
  for (int i = 0; i < steps; ++i) {
    set_controls(m, d);
    mj_step(m, d);
  }
}

// The audited loops take an audit made beforehand: the cost per step.
__attribute__((noinline)) void run_step(const mjModel* m, mjData* d, MujocoAudit& audit) {
  for (int i = 0; i < steps; ++i) {
    set_controls(m, d);
    audit.step(m, d);
  }
}

__attribute__((noinline)) void run_after_step(const mjModel* m, mjData* d, MujocoAudit& audit) {
  for (int i = 0; i < steps; ++i) {
    set_controls(m, d);
    mj_step(m, d);
    audit.after_step(m, d);
  }
}

/// A whole audited run: the audit made, the loop, the audit finished.
using Loop = void (*)(const mjModel*, mjData*, MujocoAudit&);
__attribute__((noinline)) Audited run_whole(const mjModel* m, mjData* d, Loop loop) {
  MujocoAudit audit(m, d);
  loop(m, d, audit);
  audit.finish(m, d);
  return {audit.audited_steps(), audit.relative_drift(), audit.passed()};
}

__attribute__((noinline)) void BM_Mujoco_Unaudited(benchmark::State& state, Integrator integrator) {
  const Simulation& s = simulation(integrator);
  for (auto _ : state) {
    state.PauseTiming();
    reset(s);
    state.ResumeTiming();
    run_unaudited(s.m, s.d);
    benchmark::DoNotOptimize(s.d->qpos);
  }
  state.counters["contacts_at_end"] = s.d->ncon;
}

/// An audited loop and the unaudited one on the same data, alternately in every iteration; the
/// audit is made with the reset, outside the clocks.
void BM_Mujoco_Audited(benchmark::State& state, Integrator integrator, Loop loop) {
  const Simulation& s = simulation(integrator);
  std::optional<MujocoAudit> audit;
  time_ratio_prepared(
      state,
      [&] {
        reset(s);
        audit.emplace(s.m, s.d);
      },
      [&] { loop(s.m, s.d, *audit); },
      [&] {
        run_unaudited(s.m, s.d);
        benchmark::DoNotOptimize(s.d->qpos);
      },
      "audited_over_unaudited");
}

void BM_Mujoco_Step(benchmark::State& state, Integrator integrator) { BM_Mujoco_Audited(state, integrator, run_step); }
void BM_Mujoco_AfterStep(benchmark::State& state, Integrator integrator) {
  BM_Mujoco_Audited(state, integrator, run_after_step);
}
void BM_Mujoco_StepWholeRun(benchmark::State& state, Integrator integrator) {
  const Simulation& s = simulation(integrator);
  Audited last;
  time_ratio_prepared(
      state, [&] { reset(s); }, [&] { last = run_whole(s.m, s.d, run_step); },
      [&] {
        run_unaudited(s.m, s.d);
        benchmark::DoNotOptimize(s.d->qpos);
      },
      "audited_over_unaudited");
  state.counters["delta_C"] = last.delta_c;
  state.counters["passed"] = last.passed ? 1 : 0;
}

#define EA_INTEGRATOR_BENCHMARKS(name)                                                                         \
  BENCHMARK_CAPTURE(name, euler, Integrator::euler)->Unit(benchmark::kMillisecond)->Apply(add_min_statistic); \
  BENCHMARK_CAPTURE(name, rk4, Integrator::rk4)->Unit(benchmark::kMillisecond)->Apply(add_min_statistic)

EA_INTEGRATOR_BENCHMARKS(BM_Mujoco_Unaudited);
EA_INTEGRATOR_BENCHMARKS(BM_Mujoco_Step);
EA_INTEGRATOR_BENCHMARKS(BM_Mujoco_AfterStep);
EA_INTEGRATOR_BENCHMARKS(BM_Mujoco_StepWholeRun);

/// What a run leaves in mjData that the next step reads.
struct EndState {
  double time = 0;
  std::vector<double> values;  // qpos, qvel, qacc, qacc_warmstart

  explicit EndState(const Simulation& s) : time(s.d->time) {
    const mjModel* m = s.m;
    for (const auto& [field, size] : {std::pair{s.d->qpos, m->nq}, std::pair{s.d->qvel, m->nv},
                                      std::pair{s.d->qacc, m->nv}, std::pair{s.d->qacc_warmstart, m->nv}}) {
      values.insert(values.end(), field, field + size);
    }
  }
  bool operator==(const EndState& other) const {
    return std::memcmp(&time, &other.time, sizeof time) == 0 && values.size() == other.values.size() &&
           std::memcmp(values.data(), other.values.data(), values.size() * sizeof(double)) == 0;
  }
};

/// Every audited run ends in the unaudited run's state bit for bit and audits every step.
bool same_computations() {
  for (const Integrator integrator : {Integrator::euler, Integrator::rk4}) {
    const Simulation& s = simulation(integrator);
    const char* name = integrator == Integrator::euler ? "euler" : "rk4";
    reset(s);
    run_unaudited(s.m, s.d);
    const EndState plain(s);
    if (std::abs(s.d->time - steps * s.m->opt.timestep) > 1e-9) {
      std::fprintf(stderr, "energy_audit_mujoco_benchmarks: %s: the unaudited run ends at t = %g\n", name, s.d->time);
      return false;
    }
    for (const auto& [loop, how] : {std::pair<Loop, const char*>{run_step, "step"},
                                    std::pair<Loop, const char*>{run_after_step, "after_step"}}) {
      reset(s);
      const Audited result = run_whole(s.m, s.d, loop);
      if (!(EndState(s) == plain) || result.steps != steps) {
        std::fprintf(stderr, "energy_audit_mujoco_benchmarks: %s, %s: %s, %ld steps audited of %d\n", name, how,
                     EndState(s) == plain ? "the same state" : "another state", result.steps, steps);
        return false;
      }
      std::fprintf(stderr, "energy_audit_mujoco_benchmarks: %s, %s: delta_C = %.3e, %s, %d contacts at the end\n",
                   name, how, result.delta_c, result.passed ? "pass" : "no pass", s.d->ncon);
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  mju_user_warning = quiet_warning;
  return energy_audit::benchmarks::run_checked_benchmarks(argc, argv, "energy_audit_mujoco_benchmarks",
                                                          same_computations);
}
