#pragma once
/// \file
/// What a MujocoAudit has found so far: the states it read (the last four, enough for the
/// quadrature of a step), Z and the ledger's works, and how the run stands.

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "energy_audit/audit.hpp"
#include "energy_audit/mujoco/mujoco_audit.hpp"
#include "mujoco_handles.hpp"
#include "mujoco_powers.hpp"
#include "step_quadrature.hpp"

namespace energy_audit::mujoco::detail {

enum class RunState {
  Running,
  Finished,
  Diverged,  ///< MuJoCo reset a bad state, or the energies left the finite range
  Lost,      ///< a step was not seen (the time is not one step after the state seen last)
};

class MujocoAuditState {
 public:
  MujocoAuditState(const mjModel* m, const mjData* d, const MujocoAuditOptions& options);

  void step(const mjModel* m, mjData* d);
  void after_step(const mjModel* m, const mjData* d, const char* call);
  void finish(const mjModel* m, const mjData* d);

  const char* verdict() const;
  std::string diagnosis() const { return diagnosis_; }
  std::vector<LedgerEntry> ledger() const;
  std::vector<LedgerEntry> contact_pairs() const;
  double energy_change() const { return last_energy_ - first_energy_; }
  double unexplained_work() const { return last_C_ - first_C_; }
  double uncounted_passive_work() const { return uncounted_passive_work_; }
  long audited_steps() const { return audited_intervals_; }
  /// RK4 steps seen by after_step, whose work is taken over step ends rather than RK4's stages.
  long rk4_steps_after() const { return rk4_steps_after_; }
  const Audit& audit() const { return audit_; }
  const MujocoAuditOptions& options() const { return options_; }

 private:
  void check(const mjModel* m, const mjData* d, const char* call) const;
  /// The state the next step starts from, as d holds it now.
  void keep_start(const mjData* d);
  /// Whether MuJoCo reset d after a bad number (the time went back and a warning says why); if
  /// so, ends the run as diverged.
  bool saw_reset(const mjData* d, double expected_time);
  /// Reads a state and integrates the steps it completes; returns the node.
  Node& add_node(const mjModel* m, const mjData* forward, const double* qpos, const double* qvel, double t);
  /// mj_RungeKutta(m, d, 4), step for step, reading the forces at each stage into the work of
  /// `start`'s step.
  void runge_kutta_observed(const mjModel* m, mjData* d, Node& start);
  /// Integrates every step whose stencil is complete (all the remaining ones when `final`).
  void integrate_steps(const mjModel* m, bool final);
  /// Adds step_works_ to the works and to Z, and counts the step.
  void add_step_work(double uncounted_passive);
  void record(const Node& node);
  mjData& own_data(const mjModel* m);
  /// Copies what mj_forward reads (state, inputs, warm start) into the audit's own data.
  void copy_into_own(const mjModel* m, const mjData* from);
  void stop(RunState state, std::string why);

  const mjModel* model_;
  const mjData* data_;
  MujocoAuditOptions options_;
  PowerModel powers_;
  Audit audit_;
  static constexpr std::size_t ring = max_stencil_nodes;
  std::array<Node, ring> nodes_;
  Node stage_;  ///< an RK4 stage's forces
  long node_count_ = 0;         ///< nodes read; node k is nodes_[k % ring]
  long audited_intervals_ = 0;  ///< steps integrated; the next is [node k, node k + 1]
  double Z_ = 0;
  std::vector<double> works_, step_works_;
  double uncounted_passive_work_ = 0;
  std::vector<ContactPair> contact_works_;  ///< the contacts' work per pair of geoms, in order of first contact
  double first_energy_ = 0, last_energy_ = 0, first_C_ = 0, last_C_ = 0;
  // The state the next step starts from.
  std::vector<double> qpos_, qvel_, act_;
  double time_ = 0;
  RunState run_ = RunState::Running;
  bool finished_ = false;  ///< finish() was called: no step may follow
  long rk4_steps_after_ = 0;
  std::string diagnosis_;
  DataPointer own_;  ///< the audit's own mjData, made when first needed
};

}  // namespace energy_audit::mujoco::detail
