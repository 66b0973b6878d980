#pragma once
/// \file
/// The energy audit of a MuJoCo simulation: a watcher of the user's own mj_step loop. It keeps
/// C = E_pot + E_kin + Z, where E_pot and E_kin are MuJoCo's own energies (gravity and springs,
/// ½ vᵀ M v) and Ż = −(the power of every force E_pot does not hold): actuators, joint and
/// tendon damping, applied forces (qfrc_applied, xfrc_applied), constraint and contact forces,
/// fluid forces (docs/mujoco.md; the quadrature of Z in docs/mathematics.md). On an exact
/// solution C is constant; its relative drift δ_C measures the step's error, or a force the
/// audit was not told about.
///
/// The audit reads mjData and never writes a field of the user's: step() calls the functions
/// mj_step calls, in its order, and reads between them; after_step() only reads. Both leave
/// mjData bit for bit as mj_step alone does.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "energy_audit/audit.hpp"

namespace energy_audit::mujoco {

struct MujocoAuditOptions {
  double threshold = 1e-3;  ///< pass when δ_C ≤ threshold
  /// Count the part of qfrc_passive that is neither a spring, a damper nor a fluid force (the
  /// force of a passive callback, mjcb_passive) as work. Off, such a force is left out of Z, so
  /// that a callback the audit was not told about shows as unexplained work; its work is
  /// reported either way (MujocoAudit::uncounted_passive_work).
  bool count_passive_callback = false;
  std::size_t store_every = 0;  ///< keep every k-th audited state in audit().history(); 0 keeps none
};

/// One line of the work ledger: the work a force did on the system over the run [J].
struct LedgerEntry {
  std::string name;  ///< "actuator NAME", "damping JOINT", "contacts", ...
  double work;       ///< ∫ P dt, positive when the force fed energy in
};

namespace detail {
class MujocoAuditState;
}

/// Watches one mjData of one mjModel. Move-only. Member functions that take the model and the
/// data throw energy_audit::InvalidArgument (one line) when they do not belong to the audit.
class MujocoAudit {
 public:
  /// Starts at the state `d` holds now (its time, positions and velocities). The model is read,
  /// never changed; it must outlive the audit, and stay the same model.
  MujocoAudit(const mjModel* m, const mjData* d, MujocoAuditOptions options = {});
  MujocoAudit(MujocoAudit&&) noexcept;
  MujocoAudit& operator=(MujocoAudit&&) noexcept;
  MujocoAudit(const MujocoAudit&) = delete;
  MujocoAudit& operator=(const MujocoAudit&) = delete;
  ~MujocoAudit();

  /// In place of mj_step(m, d): the same calls in the same order, the audit reading the
  /// forward dynamics at the step's start. Costs no evaluation on any integrator.
  void step(const mjModel* m, mjData* d);
  /// After the user's own mj_step(m, d) (or mj_step1/mj_step2): reads the forward dynamics of
  /// the step's start, which d holds after Euler and implicit steps. After an RK4 step d holds
  /// those of RK4's last stage, so the audit evaluates the step's start on its own mjData: one
  /// mj_forward per step (step() needs none).
  void after_step(const mjModel* m, const mjData* d);
  /// Evaluates the last state (on the audit's own mjData; d is not written) and ends the run.
  /// Until then the verdict is "incomplete". No step may follow.
  void finish(const mjModel* m, const mjData* d);

  /// "pass", "fail", "diverged" (MuJoCo reset an unstable state, or the energies left the
  /// finite range), "incomplete" (not finished, or a step was not seen).
  const char* verdict() const;
  bool passed() const;
  double relative_drift() const;   ///< δ_C = sup |C − C(t0)| / sup max(|E|, E_kin, |E_pot|)
  double max_abs_drift() const;    ///< sup |C − C(t0)| [J]
  double energy_scale() const;     ///< sup max(|E|, E_kin, |E_pot|) [J]
  double threshold() const;
  /// When |C − C(t0)| first exceeded threshold × energy scale; NaN while it has not.
  double time_first_above_threshold() const;
  long audited_steps() const;      ///< steps whose start was audited
  double energy_change() const;    ///< E(end) − E(t0) [J]
  /// C(end) − C(t0) = E(end) − E(t0) − Σ ledger works [J]: the work the ledger leaves unexplained.
  double unexplained_work() const;
  /// The forces' works over the run, in a fixed order: actuators, joint damping, tendon damping,
  /// fluid (and a counted passive callback), applied forces, contacts, limits, equality
  /// constraints, friction loss (those the model has).
  std::vector<LedgerEntry> ledger() const;
  /// The contacts' work per pair of geoms ("floor / foot"), in the order the pairs first touched;
  /// they sum to the ledger's "contacts".
  std::vector<LedgerEntry> contact_pairs() const;
  /// The work of qfrc_passive's part that is neither spring, damper nor counted (a passive
  /// callback the audit was not told about); 0 without one [J].
  double uncounted_passive_work() const;
  /// Empty, or a line saying why the run did not pass as a run: MuJoCo's reset of a bad state
  /// (the warning and the time), a step not seen, an uncounted passive force.
  std::string diagnosis() const;
  /// The audit of C (energy_audit::Audit): its history (t, E_kin as T, E_pot as V, Z, C) when
  /// store_every > 0.
  const Audit& audit() const;

  /// Prints the verdict, δ_C, the ledger and the diagnosis, one fact a line, "energy audit: "
  /// before each.
  void print_summary(FILE* out) const;

 private:
  std::unique_ptr<detail::MujocoAuditState> state_;
  detail::MujocoAuditState& state() const;
};

}  // namespace energy_audit::mujoco
