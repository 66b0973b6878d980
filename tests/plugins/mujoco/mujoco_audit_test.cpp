// The MuJoCo audit against MuJoCo itself and against orders: mjData bit for bit as with mj_step,
// MuJoCo's own energies, δ_C at each integrator's order, the ledger's works against the energy
// lost, and the wrong twins (a force the audit was not told about, a timestep past stability).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <energy_audit/error.hpp>
#include <energy_audit/mujoco/mujoco_audit.h>
#include <energy_audit/mujoco/mujoco_audit.hpp>
#include <functional>
#include <memory>
#include <mujoco/mjxmacro.h>
#include <string>
#include <vector>

namespace mj = energy_audit::mujoco;

namespace {

const std::string models = ENERGY_AUDIT_MUJOCO_MODELS;

void quiet(const char*) {}

/// MuJoCo's warnings go nowhere (the default handler writes MUJOCO_LOG.TXT).
struct QuietWarnings {
  QuietWarnings() { mju_user_warning = quiet; }
  ~QuietWarnings() { mju_user_warning = nullptr; }
};

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

ModelPtr load(const std::string& name, int integrator, double timestep) {
  char error[1000] = "";
  ModelPtr m(mj_loadXML((models + "/" + name).c_str(), nullptr, error, sizeof error));
  BOOST_TEST_REQUIRE(m != nullptr, name << ": " << error);
  m->opt.integrator = integrator;
  m->opt.timestep = timestep;
  return m;
}

DataPtr start(const mjModel* m) {
  DataPtr d(mj_makeData(m));
  if (m->nkey > 0) mj_resetDataKeyframe(m, d.get(), 0);
  return d;
}

/// Sets a held control before each step: ctrl_k = amplitude sin(3 t + k).
struct HeldControl {
  double amplitude = 0;
  void operator()(const mjModel* m, mjData* d) const {
    for (int k = 0; k < m->nu; ++k) d->ctrl[k] = amplitude * std::sin(3 * d->time + k);
  }
};

enum class Watch { step, after_step };

struct Run {
  ModelPtr model;
  DataPtr data;
  std::unique_ptr<mj::MujocoAudit> audit;
};

/// The model's parameters changed after loading (a medium, a friction, a spring), before the run.
using ModelEdit = std::function<void(mjModel*)>;

Run audited_run(const std::string& name, int integrator, double timestep, double t_end, HeldControl control = {},
                Watch watch = Watch::step, mj::MujocoAuditOptions options = {}, const ModelEdit& edit = {}) {
  Run run{load(name, integrator, timestep), nullptr, nullptr};
  if (edit) edit(run.model.get());
  run.data = start(run.model.get());
  const mjModel* m = run.model.get();
  mjData* d = run.data.get();
  run.audit = std::make_unique<mj::MujocoAudit>(m, d, options);
  const long steps = std::lround(t_end / timestep);
  for (long i = 0; i < steps; ++i) {
    control(m, d);
    if (watch == Watch::step) {
      run.audit->step(m, d);
    } else {
      mj_step(m, d);
      run.audit->after_step(m, d);
    }
  }
  run.audit->finish(m, d);
  return run;
}

double ledger_work_of(const std::vector<mj::LedgerEntry>& ledger, const std::string& prefix) {
  double work = 0;
  for (const mj::LedgerEntry& entry : ledger) {
    if (entry.name.rfind(prefix, 0) == 0) work += entry.work;
  }
  return work;
}

double ledger_work(const mj::MujocoAudit& audit, const std::string& prefix) {
  return ledger_work_of(audit.ledger(), prefix);
}

/// Compares everything mj_step leaves in two mjData: every array (the contacts field by field:
/// mjContact has padding, which MuJoCo's copies need not preserve) and the counters.
void require_same_data(const mjModel* m, const mjData* a, const mjData* b) {
  // The sizes MJDATA_POINTERS names.
  [[maybe_unused]] const int nv = m->nv, njmax = m->njmax;
#define X(type, name, rows, columns)                                                                          \
  if (std::string(#name) != "contact") {                                                                      \
    BOOST_TEST_CONTEXT(#name) {                                                                               \
      BOOST_TEST(std::memcmp(a->name, b->name, sizeof(type) * static_cast<std::size_t>(m->rows * columns)) == 0); \
    }                                                                                                         \
  }
  MJDATA_POINTERS
#undef X
  for (int c = 0; c < a->ncon; ++c) {
    const mjContact &x = a->contact[c], &y = b->contact[c];
    BOOST_TEST_CONTEXT("contact " << c) {
      BOOST_TEST(std::memcmp(&x.dist, &y.dist, offsetof(mjContact, dim) - offsetof(mjContact, dist)) == 0);
      BOOST_TEST((x.dim == y.dim && x.geom1 == y.geom1 && x.geom2 == y.geom2 && x.exclude == y.exclude &&
                  x.efc_address == y.efc_address));
    }
  }
  BOOST_TEST(a->time == b->time);
  BOOST_TEST(a->maxuse_stack == b->maxuse_stack);
  BOOST_TEST(a->maxuse_con == b->maxuse_con);
  BOOST_TEST(a->maxuse_efc == b->maxuse_efc);
  BOOST_TEST(a->ncon == b->ncon);
  BOOST_TEST(a->nefc == b->nefc);
  BOOST_TEST(a->solver_iter == b->solver_iter);
  BOOST_TEST(a->pstack == b->pstack);
  BOOST_TEST(a->timer[mjTIMER_STEP].number == b->timer[mjTIMER_STEP].number);
  BOOST_TEST(std::memcmp(a->warning, b->warning, sizeof a->warning) == 0);
  BOOST_TEST(std::memcmp(a->energy, b->energy, sizeof a->energy) == 0);
}

// mjPassive callback of the wrong twin: a viscous force on every dof the audit is not told of.
void untold_passive_force(const mjModel* m, mjData* d) {
  for (int v = 0; v < m->nv; ++v) d->qfrc_passive[v] -= 0.05 * d->qvel[v];
}

// PD controller of the arm, written as MuJoCo users write one: a control callback.
void pd_controller(const mjModel*, mjData* d) {
  constexpr double kp = 20, kd = 2, target[2] = {1.0, -0.5};
  for (int k = 0; k < 2; ++k) d->ctrl[k] = kp * (target[k] - d->qpos[k]) - kd * d->qvel[k];
}

struct ControlCallback {
  explicit ControlCallback(mjfGeneric callback) { mjcb_control = callback; }
  ~ControlCallback() { mjcb_control = nullptr; }
};
struct PassiveCallback {
  explicit PassiveCallback(mjfGeneric callback) { mjcb_passive = callback; }
  ~PassiveCallback() { mjcb_passive = nullptr; }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(QuietWarnings);

BOOST_AUTO_TEST_SUITE(mujoco_audit)

// The audit reads and never writes: after step() or mj_step + after_step(), the user's mjData
// equals, byte for byte, the one mj_step alone gives; on every integrator, with contacts, limits,
// dampers and held controls (the humanoid-sized tree falling onto the floor).
BOOST_AUTO_TEST_CASE(mjdata_bit_for_bit_as_without_the_audit) {
  for (const int integrator : {mjINT_EULER, mjINT_RK4, mjINT_IMPLICIT}) {
    for (const Watch watch : {Watch::step, Watch::after_step}) {
      BOOST_TEST_CONTEXT("integrator " << integrator << (watch == Watch::step ? ", step" : ", after_step")) {
        const ModelPtr m = load("humanoid_tree.xml", integrator, 0.002);
        const DataPtr plain = start(m.get()), audited = start(m.get());
        mj::MujocoAudit audit(m.get(), audited.get());
        const HeldControl control{0.5};
        for (int i = 0; i < 300; ++i) {
          control(m.get(), plain.get());
          mj_step(m.get(), plain.get());
          control(m.get(), audited.get());
          if (watch == Watch::step) {
            audit.step(m.get(), audited.get());
          } else {
            mj_step(m.get(), audited.get());
            audit.after_step(m.get(), audited.get());
          }
        }
        audit.finish(m.get(), audited.get());
        BOOST_TEST(plain->ncon > 0);  // the tree lies on the floor
        require_same_data(m.get(), plain.get(), audited.get());
      }
    }
  }
}

// E_kin and E_pot are MuJoCo's own (mj_energyPos, mj_energyVel with mjENBL_ENERGY): gravity,
// joint and tendon springs, at the first state.
BOOST_AUTO_TEST_CASE(energies_are_mujocos) {
  for (const char* name : {"humanoid_tree.xml", "stiff_spring.xml", "damped_double_pendulum.xml", "tendon_pair.xml"}) {
    BOOST_TEST_CONTEXT(name) {
      mj::MujocoAuditOptions options;
      options.store_every = 1;
      const Run run = audited_run(name, mjINT_EULER, 0.001, 0.01, {}, Watch::step, options);
      const ModelPtr m = load(name, mjINT_EULER, 0.001);
      m->opt.enableflags |= mjENBL_ENERGY;
      const DataPtr d = start(m.get());
      mj_forward(m.get(), d.get());
      const auto row = run.audit->audit().history().row(0);  // t, T, T2, T1, T0, V, ...
      BOOST_TEST(row[1] == d->energy[1], boost::test_tools::tolerance(1e-12));
      BOOST_TEST(row[5] == d->energy[0], boost::test_tools::tolerance(1e-12));
    }
  }
}

// The conservative pendulum: δ_C falls 16-fold per halving of the step with RK4 (order 4) and
// 2-fold with Euler (order 1).
BOOST_AUTO_TEST_CASE(pendulum_at_each_integrators_order) {
  const auto drift = [](int integrator, double h) {
    return audited_run("pendulum.xml", integrator, h, 10.0).audit->relative_drift();
  };
  const double rk4_ratio = drift(mjINT_RK4, 0.004) / drift(mjINT_RK4, 0.002);
  BOOST_TEST(rk4_ratio > 12.0);
  BOOST_TEST(rk4_ratio < 40.0);
  const double euler_ratio = drift(mjINT_EULER, 0.002) / drift(mjINT_EULER, 0.001);
  BOOST_TEST(euler_ratio == 2.0, boost::test_tools::tolerance(0.05));
  const Run run = audited_run("pendulum.xml", mjINT_RK4, 0.001, 10.0);
  BOOST_TEST(run.audit->passed());
  BOOST_TEST(run.audit->relative_drift() < 1e-12);
}

// The damped double pendulum: the dampers' works are the energy lost, each named by its joint.
BOOST_AUTO_TEST_CASE(damping_work_is_the_energy_lost) {
  const Run run = audited_run("damped_double_pendulum.xml", mjINT_RK4, 0.001, 10.0);
  const mj::MujocoAudit& audit = *run.audit;
  BOOST_TEST(audit.passed());
  BOOST_TEST(audit.energy_change() < -1.0);
  const double shoulder = ledger_work(audit, "damping shoulder"), elbow = ledger_work(audit, "damping elbow");
  BOOST_TEST(shoulder < 0);
  BOOST_TEST(elbow < 0);
  BOOST_TEST(shoulder + elbow == audit.energy_change(), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::abs(audit.unexplained_work()) < 1e-9 * std::abs(audit.energy_change()));
  // The same with RK4 at twice the step drifts about 16 times more.
  const Run coarse = audited_run("damped_double_pendulum.xml", mjINT_RK4, 0.002, 10.0);
  BOOST_TEST(coarse.audit->relative_drift() / audit.relative_drift() > 12.0);
}

// A tendon's spring and damper: the spring in E_pot, the damper's work the energy lost, δ_C at
// RK4's order.
BOOST_AUTO_TEST_CASE(tendon_spring_and_damper) {
  const Run run = audited_run("tendon_pair.xml", mjINT_RK4, 0.001, 5.0);
  const Run coarse = audited_run("tendon_pair.xml", mjINT_RK4, 0.002, 5.0);
  BOOST_TEST(run.audit->passed());
  BOOST_TEST(run.audit->energy_change() < -0.5);
  BOOST_TEST(ledger_work(*run.audit, "tendon damping") == run.audit->energy_change(), boost::test_tools::tolerance(1e-8));
  BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() > 12.0);
}

// Dry friction on a joint (MuJoCo's frictionloss, a constraint row): its work is the energy lost,
// and δ_C falls at RK4's order.
BOOST_AUTO_TEST_CASE(friction_loss_work) {
  const auto with_friction = [](double h) {
    return audited_run("pendulum.xml", mjINT_RK4, h, 5.0, {}, Watch::step, {},
                       [](mjModel* m) { m->dof_frictionloss[0] = 0.5; });
  };
  const Run fine = with_friction(0.001), coarse = with_friction(0.002);
  BOOST_TEST(fine.audit->passed());
  BOOST_TEST(fine.audit->energy_change() < -1.0);
  BOOST_TEST(ledger_work(*fine.audit, "friction loss") == fine.audit->energy_change(), boost::test_tools::tolerance(1e-8));
  BOOST_TEST(coarse.audit->relative_drift() / fine.audit->relative_drift() > 12.0);
}

// An equality constraint (two hinges held equal, started apart): MuJoCo's soft constraint force
// does work as it pulls them together, the ledger's "equality constraints"; δ_C at RK4's order.
BOOST_AUTO_TEST_CASE(equality_constraint_work) {
  const Run run = audited_run("coupled_pendulums.xml", mjINT_RK4, 0.001, 5.0);
  const Run coarse = audited_run("coupled_pendulums.xml", mjINT_RK4, 0.002, 5.0);
  const Run euler = audited_run("coupled_pendulums.xml", mjINT_EULER, 0.001, 5.0);
  BOOST_TEST(run.audit->passed());
  BOOST_TEST(euler.audit->passed());
  BOOST_TEST(ledger_work(*run.audit, "equality constraints") < -0.05);
  BOOST_TEST(ledger_work(*euler.audit, "equality constraints") ==
                 ledger_work(*run.audit, "equality constraints"),
             boost::test_tools::tolerance(0.01));
  BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() > 12.0);
}

// The actuated arm: a PD controller written as a control callback, and a sinusoidal control the
// program sets before each step (held over the step); the motors' work and the dampers' are the
// energy change, and δ_C falls at RK4's order either way.
BOOST_AUTO_TEST_CASE(motor_work_under_a_control_callback_and_a_held_control) {
  {
    const ControlCallback pd(pd_controller);
    const Run run = audited_run("arm_two_link.xml", mjINT_RK4, 0.001, 5.0);
    const Run coarse = audited_run("arm_two_link.xml", mjINT_RK4, 0.002, 5.0);
    BOOST_TEST(run.audit->passed());
    const double motors = ledger_work(*run.audit, "actuator "), dampers = ledger_work(*run.audit, "damping ");
    BOOST_TEST(std::abs(motors) > 1.0);
    BOOST_TEST(motors + dampers == run.audit->energy_change(), boost::test_tools::tolerance(1e-4));
    BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() > 10.0);
  }
  const HeldControl sinusoid{1.0};
  const Run run = audited_run("arm_two_link.xml", mjINT_RK4, 0.001, 5.0, sinusoid);
  const Run coarse = audited_run("arm_two_link.xml", mjINT_RK4, 0.002, 5.0, sinusoid);
  BOOST_TEST(run.audit->passed());
  BOOST_TEST(std::abs(ledger_work(*run.audit, "actuator elbow_motor")) > 1.0);
  BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() > 10.0);
}

// Contacts: the sliding box stops by friction and the ball bounces; the contacts' work is the
// energy lost (to round-off once the box rests), and δ_C falls with the step.
BOOST_AUTO_TEST_CASE(contact_work) {
  for (const int integrator : {mjINT_EULER, mjINT_RK4}) {
    BOOST_TEST_CONTEXT("integrator " << integrator) {
      const Run box = audited_run("sliding_box.xml", integrator, 0.002, 1.0);
      BOOST_TEST(box.audit->passed());
      BOOST_TEST(box.audit->energy_change() == -0.5, boost::test_tools::tolerance(0.01));
      BOOST_TEST(ledger_work(*box.audit, "contacts") == box.audit->energy_change(), boost::test_tools::tolerance(5e-3));
      const Run ball = audited_run("bouncing_ball.xml", integrator, 0.001, 3.0);
      const Run fine = audited_run("bouncing_ball.xml", integrator, 0.0005, 3.0);
      BOOST_TEST(ball.audit->energy_change() < -5.0);
      BOOST_TEST(ledger_work(*fine.audit, "contacts") == fine.audit->energy_change(), boost::test_tools::tolerance(2e-3));
      // One pair of geoms touches: its work is the contacts'.
      const auto pairs = fine.audit->contact_pairs();
      BOOST_TEST_REQUIRE(pairs.size() == 1U);
      BOOST_TEST(pairs[0].name == "floor / ball");
      BOOST_TEST(pairs[0].work == ledger_work(*fine.audit, "contacts"), boost::test_tools::tolerance(1e-12));
      BOOST_TEST(ball.audit->relative_drift() / fine.audit->relative_drift() > 1.8);
    }
  }
}

// The humanoid-sized tree (free joint, 20 hinges with dampers and limits, 20 motors, contacts):
// every force has its line, and the ledger explains the energy lost.
BOOST_AUTO_TEST_CASE(humanoid_tree_ledger) {
  const Run run = audited_run("humanoid_tree.xml", mjINT_EULER, 0.002, 1.0, HeldControl{0.5});
  const mj::MujocoAudit& audit = *run.audit;
  int actuators = 0, dampers = 0;
  double total = 0;
  for (const mj::LedgerEntry& entry : audit.ledger()) {
    actuators += entry.name.rfind("actuator ", 0) == 0;
    dampers += entry.name.rfind("damping ", 0) == 0;
    total += entry.work;
  }
  BOOST_TEST(actuators == 20);
  BOOST_TEST(dampers == 20);
  BOOST_TEST(ledger_work(audit, "contacts") < 0);
  BOOST_TEST(ledger_work(audit, "limits") != 0);
  BOOST_TEST(audit.energy_change() < -50.0);
  BOOST_TEST(total + audit.unexplained_work() == audit.energy_change(), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::abs(audit.unexplained_work()) < 0.02 * std::abs(audit.energy_change()));
}

// The contacts' work per pair of geoms sums to the contacts' line, however each step's work is
// taken (Euler's step, RK4's stages, RK4's step ends).
BOOST_AUTO_TEST_CASE(contact_work_per_pair_of_geoms) {
  for (const auto& [integrator, watch] : {std::pair{mjINT_EULER, Watch::step}, std::pair{mjINT_RK4, Watch::step},
                                          std::pair{mjINT_RK4, Watch::after_step}}) {
    BOOST_TEST_CONTEXT("integrator " << integrator << (watch == Watch::step ? ", step" : ", after_step")) {
      const Run run = audited_run("humanoid_tree.xml", integrator, 0.002, 1.0, HeldControl{0.5}, watch);
      double sum = 0;
      bool feet_on_floor = false;
      for (const mj::LedgerEntry& pair : run.audit->contact_pairs()) {
        sum += pair.work;
        feet_on_floor = feet_on_floor || (pair.name.rfind("floor / foot_", 0) == 0 && pair.work < -1.0);
      }
      BOOST_TEST(run.audit->contact_pairs().size() > 2U);
      BOOST_TEST(feet_on_floor);
      BOOST_TEST(sum == ledger_work(*run.audit, "contacts"), boost::test_tools::tolerance(1e-9));
    }
  }
}

// MuJoCo keeps the constraint and tendon Jacobians dense or sparse (opt.jacobian; sparse by default
// from nv = 60): the audit reads either, to the same works.
BOOST_AUTO_TEST_CASE(sparse_jacobians) {
  for (const char* name : {"humanoid_tree.xml", "tendon_pair.xml"}) {
    std::vector<mj::LedgerEntry> ledgers[2];
    for (const int jacobian : {mjJAC_DENSE, mjJAC_SPARSE}) {
      const Run run = audited_run(name, mjINT_EULER, 0.002, 1.0, HeldControl{0.5}, Watch::step, {},
                                  [jacobian](mjModel* m) { m->opt.jacobian = jacobian; });
      BOOST_TEST_REQUIRE(mj_isSparse(run.model.get()) == (jacobian == mjJAC_SPARSE ? 1 : 0));
      ledgers[jacobian == mjJAC_SPARSE] = run.audit->ledger();
    }
    BOOST_TEST_REQUIRE(ledgers[0].size() == ledgers[1].size());
    for (std::size_t k = 0; k < ledgers[0].size(); ++k) {
      BOOST_TEST_CONTEXT(name << ": " << ledgers[0][k].name) {
        BOOST_TEST(ledgers[0][k].work == ledgers[1][k].work, boost::test_tools::tolerance(1e-9));
      }
    }
    BOOST_TEST(ledger_work_of(ledgers[0], name == std::string("tendon_pair.xml") ? "tendon damping" : "contacts") < 0);
  }
}

// Fluid forces (MuJoCo's medium: viscosity, density): qfrc_passive less its springs and dampers,
// the ledger's "fluid"; in a viscous medium it is the pendulum's whole loss, and δ_C falls at RK4's
// order; with density's quadratic drag on the spherical pendulum it passes beside the damper.
BOOST_AUTO_TEST_CASE(fluid_work) {
  const auto viscous = [](double h) {
    return audited_run("pendulum.xml", mjINT_RK4, h, 5.0, {}, Watch::step, {},
                       [](mjModel* m) { m->opt.viscosity = 0.5; });
  };
  const Run fine = viscous(0.001), coarse = viscous(0.002);
  BOOST_TEST(fine.audit->passed());
  BOOST_TEST(fine.audit->energy_change() < -1.0);
  BOOST_TEST(ledger_work(*fine.audit, "fluid") == fine.audit->energy_change(), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(coarse.audit->relative_drift() / fine.audit->relative_drift() > 12.0);

  const Run dense = audited_run("spherical_pendulum.xml", mjINT_EULER, 0.001, 5.0, {}, Watch::step, {},
                                [](mjModel* m) { m->opt.density = 1.2; });
  const mj::MujocoAudit& audit = *dense.audit;
  BOOST_TEST(audit.passed());
  BOOST_TEST(ledger_work(audit, "fluid") < -0.1);
  BOOST_TEST(ledger_work(audit, "damping ball") < -0.1);
  BOOST_TEST(audit.uncounted_passive_work() == 0.0);
}

// A ball joint (nq = 4, nv = 3): the audit on a quaternion. MuJoCo's RK4 advances the orientation
// at second order: undamped (Z = 0, δ_C is MuJoCo's energy alone) δ_C falls 4-fold per halving;
// damped, δ_C falls at that same order, and the damper's work is the energy lost (to 1e-4).
BOOST_AUTO_TEST_CASE(ball_joint) {
  const auto undamped_drift = [](double h, double stiffness) {
    const Run run = audited_run("spherical_pendulum.xml", mjINT_RK4, h, 5.0, {}, Watch::step, {},
                                [stiffness](mjModel* m) {
                                  for (int v = 0; v < m->nv; ++v) m->dof_damping[v] = 0;
                                  m->jnt_stiffness[0] = stiffness;
                                });
    BOOST_TEST(run.audit->ledger().size() == 2U);  // applied forces, contacts: nothing damps
    return run.audit->relative_drift();
  };
  // Without and with a spring on the ball joint (MuJoCo's torque −k r and energy ½ k |r|² for the
  // rotation vector r of the joint's quaternion: conservative, since r · ṙ = r · ω).
  for (const double stiffness : {0.0, 20.0}) {
    BOOST_TEST_CONTEXT("stiffness " << stiffness) {
      const double undamped_ratio = undamped_drift(0.004, stiffness) / undamped_drift(0.002, stiffness);
      BOOST_TEST(undamped_ratio == 4.0, boost::test_tools::tolerance(0.1));
    }
  }
  const Run run = audited_run("spherical_pendulum.xml", mjINT_RK4, 0.002, 5.0);
  const Run coarse = audited_run("spherical_pendulum.xml", mjINT_RK4, 0.004, 5.0);
  BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() == 4.0, boost::test_tools::tolerance(0.1));
  BOOST_TEST(run.audit->passed());
  const double damper = ledger_work(*run.audit, "damping ball");
  BOOST_TEST(damper < -0.1);
  BOOST_TEST(std::abs(damper - run.audit->energy_change()) < 1e-4 * std::abs(damper));
}

// Wrong twin: a passive callback's force the audit was not told of is unexplained work (the run
// fails, and the diagnosis names qfrc_passive); told, the same run passes.
BOOST_AUTO_TEST_CASE(untold_callback_force_fails_as_unexplained_work) {
  const PassiveCallback callback(untold_passive_force);
  const Run untold = audited_run("pendulum.xml", mjINT_RK4, 0.001, 5.0);
  BOOST_TEST(std::string(untold.audit->verdict()) == "fail");
  BOOST_TEST(untold.audit->unexplained_work() < -0.1);
  BOOST_TEST(untold.audit->uncounted_passive_work() == untold.audit->unexplained_work(),
             boost::test_tools::tolerance(1e-6));
  BOOST_TEST(untold.audit->diagnosis().find("qfrc_passive") != std::string::npos);
  mj::MujocoAuditOptions told;
  told.count_passive_callback = true;
  const Run counted = audited_run("pendulum.xml", mjINT_RK4, 0.001, 5.0, {}, Watch::step, told);
  BOOST_TEST(counted.audit->passed());
  BOOST_TEST(ledger_work(*counted.audit, "passive callback") < -0.1);
}

// Wrong twin: a timestep past the integrator's stability (ω h = 3 for RK4, 2.5 for Euler) blows
// up; MuJoCo resets the state, and the audit says so: "diverged", never a pass.
BOOST_AUTO_TEST_CASE(timestep_past_stability_diverges) {
  for (const auto& [integrator, timestep] : {std::pair{mjINT_RK4, 0.03}, std::pair{mjINT_EULER, 0.025}}) {
    for (const Watch watch : {Watch::step, Watch::after_step}) {
      const Run run = audited_run("stiff_spring.xml", integrator, timestep, 2.0, {}, watch);
      BOOST_TEST(std::string(run.audit->verdict()) == "diverged");
      BOOST_TEST(run.audit->diagnosis().find("mjWARN_BADQACC") != std::string::npos);
    }
  }
  const Run stable = audited_run("stiff_spring.xml", mjINT_RK4, 0.001, 2.0);
  BOOST_TEST(stable.audit->passed());
}

// after_step on RK4 evaluates the step's start on the audit's own data: on smooth dynamics the
// same verdict, and the same order, as step().
BOOST_AUTO_TEST_CASE(after_step_on_rk4) {
  const Run run = audited_run("damped_double_pendulum.xml", mjINT_RK4, 0.001, 10.0, {}, Watch::after_step);
  const Run coarse = audited_run("damped_double_pendulum.xml", mjINT_RK4, 0.002, 10.0, {}, Watch::after_step);
  BOOST_TEST(run.audit->passed());
  BOOST_TEST(coarse.audit->relative_drift() / run.audit->relative_drift() > 12.0);
  // Across a contact's onset the step ends' quadrature is first order: the bouncing ball fails
  // there (step() passes it, contact_work), and the diagnosis points to step().
  const Run ball = audited_run("bouncing_ball.xml", mjINT_RK4, 0.0005, 3.0, {}, Watch::after_step);
  BOOST_TEST(std::string(ball.audit->verdict()) == "fail");
  BOOST_TEST(ball.audit->diagnosis().find("MujocoAudit::step reads RK4's own stages") != std::string::npos);
}

// A step the audit does not see, a state set between steps, the wrong data: incomplete with one
// line, or refused with one line.
BOOST_AUTO_TEST_CASE(a_step_not_seen_and_misuse) {
  const ModelPtr m = load("pendulum.xml", mjINT_EULER, 0.001);
  const DataPtr d = start(m.get()), other = start(m.get());
  mj::MujocoAudit audit(m.get(), d.get());
  audit.step(m.get(), d.get());
  mj_step(m.get(), d.get());  // not seen
  audit.step(m.get(), d.get());
  audit.finish(m.get(), d.get());
  BOOST_TEST(std::string(audit.verdict()) == "incomplete");
  BOOST_TEST(audit.diagnosis().find("a step was not seen") != std::string::npos);
  BOOST_CHECK_THROW(audit.step(m.get(), d.get()), energy_audit::InvalidArgument);  // after finish
  mj::MujocoAudit fresh(m.get(), d.get());
  BOOST_CHECK_THROW(fresh.step(m.get(), other.get()), energy_audit::InvalidArgument);
  BOOST_CHECK_THROW(mj::MujocoAudit(nullptr, d.get()), energy_audit::InvalidArgument);
  mj::MujocoAudit unfinished(m.get(), d.get());
  unfinished.step(m.get(), d.get());
  BOOST_TEST(std::string(unfinished.verdict()) == "incomplete");
}

// The C interface: the same audit, and failures as -1 with one line, never an exception.
BOOST_AUTO_TEST_CASE(c_interface) {
  const ModelPtr m = load("damped_double_pendulum.xml", mjINT_RK4, 0.001);
  const DataPtr d = start(m.get()), other = start(m.get());
  BOOST_TEST(ea_mujoco_audit_create(nullptr, d.get(), nullptr) == nullptr);
  BOOST_TEST(std::string(ea_mujoco_audit_last_error(nullptr)).find("model") != std::string::npos);
  ea_mujoco_audit_options options = ea_mujoco_audit_default_options();
  BOOST_TEST(options.threshold == 1e-3);
  options.threshold = 1e-6;
  ea_mujoco_audit* audit = ea_mujoco_audit_create(m.get(), d.get(), &options);
  BOOST_TEST_REQUIRE(audit != nullptr);
  for (int i = 0; i < 2000; ++i) BOOST_TEST_REQUIRE(ea_mujoco_audit_step(audit, m.get(), d.get()) == 0);
  BOOST_TEST(std::string(ea_mujoco_audit_verdict(audit)) == "incomplete");
  BOOST_TEST(ea_mujoco_audit_step(audit, m.get(), other.get()) == -1);
  BOOST_TEST(std::string(ea_mujoco_audit_last_error(audit)).find("not the data") != std::string::npos);
  BOOST_TEST(ea_mujoco_audit_finish(audit, m.get(), d.get()) == 0);
  BOOST_TEST(ea_mujoco_audit_passed(audit) == 1);
  BOOST_TEST(ea_mujoco_audit_relative_drift(audit) < 1e-6);
  double works = 0;
  for (int k = 0; k < ea_mujoco_audit_ledger_size(audit); ++k) works += ea_mujoco_audit_ledger_work(audit, k);
  BOOST_TEST(std::string(ea_mujoco_audit_ledger_name(audit, 0)) == "damping shoulder");
  BOOST_TEST(ea_mujoco_audit_ledger_name(audit, 99) == nullptr);
  BOOST_TEST(works + ea_mujoco_audit_unexplained_work(audit) < 0);
  ea_mujoco_audit_free(&audit);
  BOOST_TEST(audit == nullptr);
  ea_mujoco_audit_free(&audit);  // twice: nothing
}

BOOST_AUTO_TEST_SUITE_END()
