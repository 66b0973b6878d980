#pragma once
/// \file
/// What the MuJoCo audit reads of one state (a node: the start of a step, or the last state):
/// the energies, and the power of each force the ledger names. The powers of the inputs a user
/// sets between steps (ctrl, qfrc_applied, xfrc_applied) are kept as what they depend on, so
/// that a step's work can be taken with the inputs held over that step (docs/mathematics.md).

#include <cstddef>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

namespace energy_audit::mujoco::detail {

/// The contact forces between two geoms (geom1 < geom2): their power at a state, or their work
/// over steps.
struct ContactPair {
  int geom1, geom2;
  double value;
};

/// Adds `value` to the pair's entry of `pairs`, making it (at the end) if it has none; returns
/// the entry's index.
std::size_t add_to_pair(std::vector<ContactPair>& pairs, int geom1, int geom2, double value);

/// One state as the audit keeps it.
struct Node {
  double t = 0;
  double kinetic_energy = 0, potential_energy = 0;
  /// Whether the inputs were held over the step that starts here: no control callback was set,
  /// so nothing changes ctrl, qfrc_applied or xfrc_applied within the step.
  bool inputs_held = true;
  /// Whether the step that starts here is one stage (Euler, implicit): every force read here is
  /// the force applied over the whole step.
  bool one_stage = true;
  /// An RK4 step taken by MujocoAudit::step: the work over the step that starts here, from the
  /// powers at RK4's own stages (RK4's weights), per channel; empty otherwise.
  std::vector<double> stage_work;
  double stage_uncounted_passive_work = 0;
  std::vector<ContactPair> stage_contact_work;  ///< the same per pair of geoms in contact
  std::vector<double> powers;            ///< each channel's power with this node's own inputs [W]
  double uncounted_passive_power = 0;    ///< qfrc_passive's power that no channel counts [W]
  // What the inputs' powers depend on, and the inputs themselves.
  std::vector<double> qpos;              ///< nq
  std::vector<double> qvel;              ///< nv
  std::vector<double> body_position;     ///< nbody × 3: the centres of mass (xipos)
  std::vector<double> actuator_length, actuator_velocity;  ///< nu
  std::vector<double> body_velocity;     ///< nbody × 6: ω, then the velocity of the body's centre of mass
  std::vector<double> ctrl;              ///< nu
  std::vector<double> qfrc_applied;      ///< nv
  std::vector<double> xfrc_applied;      ///< nbody × 6: force, torque at the centre of mass
  /// Whether an entry of xfrc_applied past the world body is nonzero (or NaN): without one, the
  /// per-body loops over these inputs, which skip bodies whose six entries are zero, are skipped.
  bool any_body_force = true;
  // One-stage steps: the generalized forces (nv each) whose power the next state's velocities
  // give, where the channel's force is not a dof's own (constraints, tendons, the passive rest).
  std::vector<double> constraint_force;  ///< per constraint channel (contacts, limits, equality, friction)
  std::vector<double> tendon_damping_force, passive_rest_force;
  std::vector<double> actuator_force;    ///< nu
  /// The contacts' power per pair of geoms; for one-stage steps also each pair's Jᵀ f (nv each,
  /// in the pairs' order) in contact_pair_force, constraint_force's contacts holding only rows of
  /// other kinds counted as contacts.
  std::vector<ContactPair> contact_pairs;
  std::vector<double> contact_pair_force;
};

/// The channels of one model and how their powers are read.
class PowerModel {
 public:
  PowerModel(const mjModel* m, bool count_passive_callback);

  const std::vector<std::string>& channel_names() const { return names_; }
  std::size_t channels() const { return names_.size(); }
  /// A node sized for this model.
  Node make_node() const;

  /// Reads the state (qpos, qvel at time t) whose forward dynamics `forward` holds (its
  /// positions and velocities may be those of a later state: only the fields mj_forward derives
  /// are read from it, and its inputs).
  void read(const mjModel* m, const mjData* forward, const double* qpos, const double* qvel, double t,
            Node& node) const;

  /// The power of each channel at `at`, with the inputs of `inputs` where those were held over
  /// inputs' step (and at's own otherwise), added times `weight` into `sums`. Held forces that
  /// stay constant over the step are left to add_held_work.
  void add_weighted_powers(const mjModel* m, const Node& at, const Node& inputs, double weight,
                           std::vector<double>& sums, double& uncounted_passive) const;
  /// The contacts' power per pair at `at` times `weight`, added into `works`.
  static void add_weighted_contact_powers(const Node& at, double weight, std::vector<ContactPair>& works);
  /// The work of the held forces that stay constant over the step from `start` to `end`: force
  /// times displacement, exact (a motor's force times the change of its length, qfrc_applied on
  /// a hinge, slide or free translation times the change of that coordinate, xfrc_applied's
  /// force times the change of the centre of mass), added into `sums`.
  void add_held_work(const mjModel* m, const Node& start, const Node& end, std::vector<double>& sums) const;
  /// The work over a one-stage step from `start` to `end` (Euler, implicit), whose forces are
  /// start's, applied over the whole step: h · F(start) · (v(start) + v(end)) / 2 per channel,
  /// the kinetic energy's own balance over such a step (docs/mathematics.md).
  /// The contacts' work per pair of geoms is taken the same way into `contact_works` (the pairs'
  /// works sum to the contacts').
  void add_one_stage_work(const mjModel* m, const Node& start, const Node& end, std::vector<double>& sums,
                          double& uncounted_passive, std::vector<ContactPair>& contact_works) const;

 private:
  /// An actuator whose force MuJoCo computes as gain · ctrl + bias from its length and velocity
  /// (no activation, fixed or affine gain and bias), so that its force under a held ctrl can be
  /// recomputed at another state.
  bool recomputable(const mjModel* m, int actuator) const;
  /// A recomputable actuator whose force does not depend on its length or velocity (fixed gain,
  /// no bias): under a held ctrl its force is constant over the step.
  bool constant_force(const mjModel* m, int actuator) const;
  double actuator_force(const mjModel* m, int actuator, double length, double velocity, double ctrl) const;
  double applied_power(const mjModel* m, const Node& at, const Node& inputs, bool rotations_only) const;

  std::vector<std::string> names_;
  std::vector<int> joint_channel_;  ///< per joint: its damping channel, or −1
  std::vector<char> recomputable_;  ///< per actuator
  std::vector<int> translation_qpos_;  ///< per dof: the qpos entry it moves (hinge, slide, free translation), or −1
  /// The slot of a constraint channel in Node::constraint_force: contacts 0, limits 1, equality 2,
  /// friction loss 3.
  static constexpr int constraint_slots = 4;
  int constraint_channel(int slot) const;
  int tendon_damping_ = -1, passive_rest_ = -1, applied_ = -1, contacts_ = -1, limits_ = -1, equality_ = -1,
      friction_ = -1;
  bool count_passive_callback_;
  mutable std::vector<double> scratch_;  ///< nv, for M v
  mutable std::vector<double> cross_;    ///< per channel, for add_one_stage_work
};

}  // namespace energy_audit::mujoco::detail
