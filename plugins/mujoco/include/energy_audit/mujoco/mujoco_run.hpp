#pragma once
/// \file
/// Runs of an MJCF model under the MuJoCo audit, as the command line (`energy-audit mujoco`)
/// makes them: the model loaded from its file, started at its keyframe 0, stepped with
/// MujocoAudit::step to t_end at a chosen timestep and integrator, each actuator held at a
/// constant or sinusoidal control; a ladder of timesteps that tells a step error from a loss the
/// ledger explains and from an unexplained plateau (diagnose); and the largest timestep that
/// meets a target δ_C (advise). The settings are checked here, once, before anything runs: every
/// caller error is an energy_audit::InvalidArgument of one line naming the setting at fault as
/// the caller spells it (MujocoSettingNames).
///
/// The runs are sequential: MuJoCo's warning handler (mju_user_warning), which a run replaces
/// for its duration so that MuJoCo writes no MUJOCO_LOG.TXT into the working directory, is a
/// process-wide global.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <mujoco/mujoco.h>

#include "energy_audit/mujoco/mujoco_audit.hpp"
#include "energy_audit/stop_request.hpp"

namespace energy_audit::mujoco {

/// The control an actuator is held at: offset + amplitude · sin(2π · frequency · t + phase), t the
/// simulation time at the start of each step. A constant is offset alone (amplitude 0).
struct ControlSetting {
  std::string actuator;
  double offset = 0;
  double amplitude = 0;
  double frequency = 0;  ///< [Hz]
  double phase = 0;      ///< [rad]
  bool sinusoid = false;

  double value(double t) const;
  /// As parse_control reads it: "NAME=0.5", "NAME=sin:2,0.5,0,0.1" (the shortest texts).
  std::string text() const;
};

/// How the settings are named in messages; by default as the command line spells them.
struct MujocoSettingNames {
  std::string model_file = "MODEL";
  std::string t_end = "--t-end";
  std::string timestep = "--timestep";
  std::string integrator = "--integrator";
  std::string control = "--ctrl";
  std::string threshold = "--threshold";
  std::string store_every = "--every";
  std::string target = "--target";
  std::string levels = "--levels";
};

/// Reads "NAME=VALUE" (a constant) or "NAME=sin:AMPLITUDE,FREQUENCY_HZ[,PHASE_RAD[,OFFSET]]"
/// (a sinusoid); throws InvalidArgument naming `option` for anything else (a missing name, a
/// number that is not finite, a negative frequency). The actuator's name is checked against the
/// model by MujocoRunner.
ControlSetting parse_control(std::string_view text, const std::string& option = "--ctrl");

/// The integrators of MuJoCo 2.2.2 by name, case-insensitive: "euler", "rk4", "implicit"; throws
/// InvalidArgument naming `option` (and the names) for any other.
mjtIntegrator integrator_from_name(std::string_view name, const std::string& option = "--integrator");
/// "Euler", "RK4", "implicit" (MJCF's spelling).
const char* integrator_name(int integrator);
/// The order of the step error an integrator's δ_C falls at: 1 (Euler, implicit), 4 (RK4).
int integrator_order(int integrator);

/// The default interval of a run [s].
inline constexpr double default_t_end = 10.0;
/// The most steps one run may take.
inline constexpr double max_steps = 1e9;

struct MujocoRunSettings {
  std::string model_file;                 ///< an MJCF file (mj_loadXML)
  std::optional<double> t_end;            ///< default: default_t_end, from the start's time
  std::optional<double> timestep;         ///< default: the model's (option timestep)
  std::optional<std::string> integrator;  ///< default: the model's; integrator_from_name
  std::vector<ControlSetting> controls;   ///< actuators not named keep the start's control (0)
  double threshold = 1e-3;                ///< pass when δ_C ≤ threshold
  std::size_t store_every = 0;            ///< keep every k-th state in the history (and the last); 0: none
  bool count_passive_callback = false;    ///< MujocoAuditOptions::count_passive_callback
  MujocoSettingNames names = {};
};

/// One state of a run's history.
struct MujocoHistoryRow {
  double t, kinetic_energy, potential_energy, energy, Z, C;
};

/// What a run found. An interrupted run's verdict is "interrupted", whatever the audit says of
/// the steps it saw; a run MuJoCo reset (or whose energies left the finite range) is "diverged"
/// and stops there.
struct MujocoRunResult {
  std::string model_file;
  std::string model_name;  ///< the MJCF's <mujoco model="...">
  std::string integrator;  ///< integrator_name
  double timestep = 0;
  double t0 = 0, t_end = 0;   ///< the interval asked for
  double t_reached = 0;       ///< the time of the last state audited
  long steps = 0;             ///< steps to t_end
  long steps_taken = 0;
  std::vector<ControlSetting> controls;
  std::string verdict;  ///< "pass", "fail", "diverged", "interrupted" (MujocoAudit::verdict)
  double threshold = 0;
  double delta_C = 0, max_abs_drift = 0, energy_scale = 0;
  double time_first_above_threshold = 0;  ///< NaN while |C − C(t0)| stayed within
  double energy_change = 0, unexplained_work = 0, uncounted_passive_work = 0;
  std::vector<LedgerEntry> ledger;
  std::vector<LedgerEntry> contact_pairs;  ///< MujocoAudit::contact_pairs: the contacts' work per pair of geoms
  std::string diagnosis;  ///< MujocoAudit::diagnosis
  std::vector<MujocoHistoryRow> history;  ///< with store_every > 0
  double wall_seconds = 0;

  bool interrupted() const { return verdict == "interrupted"; }
  bool diverged() const { return verdict == "diverged"; }
  bool passed() const { return verdict == "pass"; }
};

/// Where a run or a ladder got to: run `run` of `runs` (runs 0: not known in advance) at step
/// `step` of `steps`, time t; `run_finished` once at the end of each run.
struct MujocoProgress {
  std::size_t run = 0, runs = 1;
  long step = 0, steps = 0;
  double t = 0;
  bool run_finished = false;
};

struct MujocoHooks {
  /// Called every few thousand steps and at the end of each run.
  std::function<void(const MujocoProgress&)> progress;
  /// Read once per step: a request ends the run (and a ladder) at the next step.
  const StopRequest* stop = nullptr;
};

/// One rung of a ladder: a run at `timestep` (its history not kept), and the order δ_C fell at
/// from the rung above (NaN for the first, and where a δ_C is 0 or the runs did not finish).
struct MujocoRung {
  double timestep = 0;
  MujocoRunResult run;
  double observed_order = 0;
};

/// diagnose: the ladder h, h/2, h/4, ... (levels rungs) and what its δ_C says.
struct MujocoDiagnosis {
  std::string integrator;
  int expected_order = 0;
  double threshold = 0;
  std::vector<MujocoRung> rungs;
  /// "step error": δ_C above the threshold at h and falling with the step (observed order ≥ 0.5
  /// at the finest rungs); "unexplained plateau": above and not falling (a force the audit does
  /// not see); "explained loss": within the threshold while the energy changed by more than it,
  /// the ledger accounting for the change; "within threshold": within, the energy kept;
  /// "diverged": MuJoCo reset the state on a rung; "interrupted".
  std::string verdict;
  double observed_order = 0;  ///< at the finest rungs; NaN when not measured
  std::optional<double> suggested_timestep;  ///< step error: the timestep extrapolated to meet the threshold
  std::string finding;     ///< one line: what the ladder shows
  std::string what_to_do;  ///< one line
  bool interrupted() const { return verdict == "interrupted"; }
};

/// advise: the rungs tried, largest first (h0 · 2^3 down to h0 · 2^-8, stopping at the first that
/// passes), and the largest timestep that meets the target without diverging.
struct MujocoAdvice {
  std::string integrator;
  double target = 0;
  double base_timestep = 0;  ///< h0: the settings' timestep (the model's)
  std::vector<MujocoRung> rungs;
  std::optional<double> timestep;
  std::string finding;  ///< one line
  bool interrupted = false;
};

/// The settings checked and the model loaded, ready to run (move-only).
class MujocoRunner {
 public:
  /// Loads the model and checks every setting: InvalidArgument naming the setting (the model file
  /// that cannot be read, with the system's reason, or that MuJoCo does not load, with MuJoCo's
  /// message; t_end or timestep not positive and finite, too many steps; an unknown integrator;
  /// a control of an actuator the model does not have, listing those it has, or given twice; a
  /// threshold not positive).
  explicit MujocoRunner(MujocoRunSettings settings);
  MujocoRunner(MujocoRunner&&) noexcept;
  MujocoRunner& operator=(MujocoRunner&&) noexcept;
  ~MujocoRunner();

  /// The settings with the defaults filled in (timestep, integrator, t_end).
  const MujocoRunSettings& settings() const;
  const mjModel* model() const;
  std::vector<std::string> actuator_names() const;

  /// One run at the settings' timestep.
  MujocoRunResult run(const MujocoHooks& hooks = {}) const;
  /// The ladder of `levels` rungs (3 to 12) from the settings' timestep, each half the one above.
  MujocoDiagnosis diagnose(std::size_t levels = 3, const MujocoHooks& hooks = {}) const;
  /// The largest timestep h0 · 2^k, k = 3, 2, ..., −8, whose run meets `target` (δ_C ≤ target, not
  /// diverged); the rungs are judged against the target.
  MujocoAdvice advise(double target, const MujocoHooks& hooks = {}) const;

 private:
  struct Loaded;
  MujocoRunResult run_at(double timestep, double threshold, std::size_t store_every, const MujocoHooks& hooks,
                         std::size_t run_index, std::size_t runs) const;
  std::unique_ptr<Loaded> loaded_;
};

/// MujocoRunner(settings).run(hooks).
MujocoRunResult run_mujoco(const MujocoRunSettings& settings, const MujocoHooks& hooks = {});

}  // namespace energy_audit::mujoco
