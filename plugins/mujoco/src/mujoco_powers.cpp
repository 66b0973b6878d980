// The channels of the MuJoCo audit's ledger and their powers at one state.
#include "mujoco_powers.hpp"

#include <algorithm>
#include <cmath>

namespace energy_audit::mujoco::detail {

namespace {

bool disabled(const mjModel* m, int flag) { return (m->opt.disableflags & flag) != 0; }

std::string name_of(const mjModel* m, int type, int id, const char* kind) {
  const char* name = mj_id2name(m, type, id);
  return name != nullptr && name[0] != '\0' ? std::string(name) : std::string(kind) + " " + std::to_string(id);
}

/// Degrees of freedom of a joint type.
int joint_dofs(int type) {
  switch (type) {
    case mjJNT_FREE: return 6;
    case mjJNT_BALL: return 3;
    default: return 1;
  }
}

double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

/// out += scale · row `row` of a Jacobian MuJoCo keeps dense (rows × nv) or sparse (CSR).
void add_row(const mjModel* m, const double* jacobian, const int* row_nonzeros, const int* row_start,
             const int* columns, int row, double scale, double* out) {
  if (mj_isSparse(m)) {
    const int start = row_start[row], end = start + row_nonzeros[row];
    for (int k = start; k < end; ++k) out[columns[k]] += scale * jacobian[k];
  } else {
    const double* values = jacobian + static_cast<std::ptrdiff_t>(row) * m->nv;
    for (int v = 0; v < m->nv; ++v) out[v] += scale * values[v];
  }
}

}  // namespace

std::size_t add_to_pair(std::vector<ContactPair>& pairs, int geom1, int geom2, double value) {
  if (geom2 < geom1) std::swap(geom1, geom2);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (pairs[k].geom1 == geom1 && pairs[k].geom2 == geom2) {
      pairs[k].value += value;
      return k;
    }
  }
  pairs.push_back({geom1, geom2, value});
  return pairs.size() - 1;
}

PowerModel::PowerModel(const mjModel* m, bool count_passive_callback)
    : joint_channel_(static_cast<std::size_t>(m->njnt), -1),
      recomputable_(static_cast<std::size_t>(m->nu), 0),
      translation_qpos_(static_cast<std::size_t>(m->nv), -1),
      count_passive_callback_(count_passive_callback),
      scratch_(static_cast<std::size_t>(m->nv)) {
  const auto add = [this](std::string name) {
    names_.push_back(std::move(name));
    return static_cast<int>(names_.size()) - 1;
  };
  for (int a = 0; a < m->nu; ++a) {
    add("actuator " + name_of(m, mjOBJ_ACTUATOR, a, "actuator"));
    recomputable_[static_cast<std::size_t>(a)] = recomputable(m, a) ? 1 : 0;
  }
  for (int j = 0; j < m->njnt; ++j) {
    const int type = m->jnt_type[j], dof = m->jnt_dofadr[j], q = m->jnt_qposadr[j];
    if (type == mjJNT_HINGE || type == mjJNT_SLIDE) translation_qpos_[static_cast<std::size_t>(dof)] = q;
    if (type == mjJNT_FREE) {
      for (int i = 0; i < 3; ++i) translation_qpos_[static_cast<std::size_t>(dof + i)] = q + i;
    }
  }
  for (int j = 0; j < m->njnt; ++j) {
    bool damped = false;
    for (int k = 0; k < joint_dofs(m->jnt_type[j]); ++k) damped = damped || m->dof_damping[m->jnt_dofadr[j] + k] != 0;
    if (damped) joint_channel_[static_cast<std::size_t>(j)] = add("damping " + name_of(m, mjOBJ_JOINT, j, "joint"));
  }
  bool tendon_damped = false, tendon_limited = false, tendon_friction = false;
  for (int t = 0; t < m->ntendon; ++t) {
    tendon_damped = tendon_damped || m->tendon_damping[t] != 0;
    tendon_limited = tendon_limited || m->tendon_limited[t] != 0;
    tendon_friction = tendon_friction || m->tendon_frictionloss[t] != 0;
  }
  if (tendon_damped) tendon_damping_ = add("tendon damping");
  const bool fluid = m->opt.viscosity > 0 || m->opt.density > 0;
  if (fluid || count_passive_callback) {
    passive_rest_ = add(fluid && count_passive_callback ? "fluid and passive callback"
                        : fluid                         ? "fluid"
                                                        : "passive callback");
  }
  applied_ = add("applied forces");
  contacts_ = add("contacts");
  bool joint_limited = false, dof_friction = false;
  for (int j = 0; j < m->njnt; ++j) joint_limited = joint_limited || m->jnt_limited[j] != 0;
  for (int v = 0; v < m->nv; ++v) dof_friction = dof_friction || m->dof_frictionloss[v] != 0;
  if (joint_limited || tendon_limited) limits_ = add("limits");
  if (m->neq > 0) equality_ = add("equality constraints");
  if (dof_friction || tendon_friction) friction_ = add("friction loss");
  cross_.assign(names_.size(), 0.0);
}

bool PowerModel::recomputable(const mjModel* m, int a) const {
  const int gain = m->actuator_gaintype[a], bias = m->actuator_biastype[a];
  return m->actuator_dyntype[a] == mjDYN_NONE && (gain == mjGAIN_FIXED || gain == mjGAIN_AFFINE) &&
         (bias == mjBIAS_NONE || bias == mjBIAS_AFFINE);
}

int PowerModel::constraint_channel(int slot) const {
  switch (slot) {
    case 1: return limits_;
    case 2: return equality_;
    case 3: return friction_;
    default: return contacts_;
  }
}

bool PowerModel::constant_force(const mjModel* m, int a) const {
  return recomputable_[static_cast<std::size_t>(a)] && m->actuator_gaintype[a] == mjGAIN_FIXED &&
         m->actuator_biastype[a] == mjBIAS_NONE;
}

Node PowerModel::make_node() const {
  Node node;
  node.powers.assign(names_.size(), 0.0);
  const std::size_t nu = recomputable_.size(), nv = scratch_.size();
  node.qvel.assign(nv, 0.0);
  node.qpos.clear();
  node.constraint_force.assign(constraint_slots * nv, 0.0);
  node.tendon_damping_force.assign(nv, 0.0);
  node.passive_rest_force.assign(nv, 0.0);
  node.actuator_force.assign(nu, 0.0);
  node.qfrc_applied.assign(nv, 0.0);
  node.actuator_length.assign(nu, 0.0);
  node.actuator_velocity.assign(nu, 0.0);
  node.ctrl.assign(nu, 0.0);
  return node;
}

// As mj_fwdActuation computes it, for an actuator without activation and with a fixed or
// affine gain and bias.
double PowerModel::actuator_force(const mjModel* m, int a, double length, double velocity, double ctrl) const {
  if (!disabled(m, mjDSBL_CLAMPCTRL) && m->actuator_ctrllimited[a]) {
    ctrl = std::clamp(ctrl, m->actuator_ctrlrange[2 * a], m->actuator_ctrlrange[2 * a + 1]);
  }
  const double* g = m->actuator_gainprm + mjNGAIN * a;
  const double gain = m->actuator_gaintype[a] == mjGAIN_FIXED ? g[0] : g[0] + g[1] * length + g[2] * velocity;
  const double* b = m->actuator_biasprm + mjNBIAS * a;
  const double bias = m->actuator_biastype[a] == mjBIAS_NONE ? 0.0 : b[0] + b[1] * length + b[2] * velocity;
  double force = gain * ctrl + bias;
  if (m->actuator_forcelimited[a]) {
    force = std::clamp(force, m->actuator_forcerange[2 * a], m->actuator_forcerange[2 * a + 1]);
  }
  return force;
}

double PowerModel::applied_power(const mjModel* m, const Node& at, const Node& inputs, bool rotations_only) const {
  double power = 0;
  for (int v = 0; v < m->nv; ++v) {
    if (!rotations_only || translation_qpos_[static_cast<std::size_t>(v)] < 0) power += at.qvel[v] * inputs.qfrc_applied[v];
  }
  if (!inputs.any_body_force) return power;
  for (int b = 1; b < m->nbody; ++b) {
    const double* f = inputs.xfrc_applied.data() + 6 * b;
    if (f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && f[4] == 0 && f[5] == 0) continue;
    const double* w = at.body_velocity.data() + 6 * b;
    power += dot3(f + 3, w);
    if (!rotations_only) power += dot3(f, w + 3);
  }
  return power;
}

void PowerModel::add_held_work(const mjModel* m, const Node& start, const Node& end, std::vector<double>& sums) const {
  if (!start.inputs_held) return;
  if (!disabled(m, mjDSBL_ACTUATION)) {
    for (int a = 0; a < m->nu; ++a) {
      if (!constant_force(m, a)) continue;
      const double force = actuator_force(m, a, start.actuator_length[a], start.actuator_velocity[a], start.ctrl[a]);
      sums[a] += force * (end.actuator_length[a] - start.actuator_length[a]);
    }
  }
  double work = 0;
  for (int v = 0; v < m->nv; ++v) {
    const int q = translation_qpos_[static_cast<std::size_t>(v)];
    if (q >= 0 && start.qfrc_applied[v] != 0) work += start.qfrc_applied[v] * (end.qpos[q] - start.qpos[q]);
  }
  for (int b = 1; b < m->nbody && start.any_body_force; ++b) {
    const double* f = start.xfrc_applied.data() + 6 * b;
    if (f[0] == 0 && f[1] == 0 && f[2] == 0) continue;
    for (int i = 0; i < 3; ++i) work += f[i] * (end.body_position[3 * b + i] - start.body_position[3 * b + i]);
  }
  sums[applied_] += work;
}

void PowerModel::read(const mjModel* m, const mjData* d, const double* qpos, const double* qvel, double t,
                      Node& node) const {
  const int nv = m->nv, nu = m->nu;
  node.t = t;
  node.inputs_held = mjcb_control == nullptr;
  node.one_stage = m->opt.integrator != mjINT_RK4;
  node.stage_work.clear();
  std::fill(node.powers.begin(), node.powers.end(), 0.0);
  std::copy_n(qvel, nv, node.qvel.begin());
  node.qpos.assign(qpos, qpos + m->nq);
  node.body_position.assign(d->xipos, d->xipos + 3 * m->nbody);

  // E_kin = ½ vᵀ M v with M of this state; E_pot as mj_energyPos counts it: gravity and springs.
  mj_mulM(m, d, scratch_.data(), qvel);
  double vMv = 0;
  for (int v = 0; v < nv; ++v) vMv += qvel[v] * scratch_[v];
  node.kinetic_energy = 0.5 * vMv;
  double potential = 0;
  if (!disabled(m, mjDSBL_GRAVITY)) {
    for (int b = 1; b < m->nbody; ++b) potential -= m->body_mass[b] * dot3(m->opt.gravity, d->xipos + 3 * b);
  }

  // Passive forces: springs are in E_pot, dampers are channels, the rest (fluid, a passive
  // callback) is qfrc_passive's power less theirs.
  const bool passive = !disabled(m, mjDSBL_PASSIVE);
  double spring_power = 0, damper_power = 0, passive_power = 0;
  // One-stage steps: qfrc_passive less its springs and dampers as a force, and the tendons' dampers.
  double* rest = node.passive_rest_force.data();
  double* tendon_damping = node.tendon_damping_force.data();
  if (node.one_stage) {
    for (int v = 0; v < nv; ++v) rest[v] = passive ? d->qfrc_passive[v] + m->dof_damping[v] * qvel[v] : 0.0;
    std::fill(node.tendon_damping_force.begin(), node.tendon_damping_force.end(), 0.0);
  }
  if (passive) {
    for (int j = 0; j < m->njnt; ++j) {
      const double k = m->jnt_stiffness[j];
      int q = m->jnt_qposadr[j], v = m->jnt_dofadr[j];
      double joint_damping = 0;
      for (int i = 0; i < joint_dofs(m->jnt_type[j]); ++i) {
        joint_damping -= m->dof_damping[v + i] * qvel[v + i] * qvel[v + i];
      }
      if (joint_channel_[j] >= 0) node.powers[joint_channel_[j]] += joint_damping;
      damper_power += joint_damping;
      if (k == 0) continue;
      double difference[3];
      switch (m->jnt_type[j]) {
        case mjJNT_FREE:
          for (int i = 0; i < 3; ++i) difference[i] = qpos[q + i] - m->qpos_spring[q + i];
          potential += 0.5 * k * dot3(difference, difference);
          spring_power -= k * dot3(difference, qvel + v);
          if (node.one_stage) for (int i = 0; i < 3; ++i) rest[v + i] += k * difference[i];
          q += 3;
          v += 3;
          [[fallthrough]];
        case mjJNT_BALL:
          mju_subQuat(difference, qpos + q, m->qpos_spring + q);
          potential += 0.5 * k * dot3(difference, difference);
          spring_power -= k * dot3(difference, qvel + v);
          if (node.one_stage) for (int i = 0; i < 3; ++i) rest[v + i] += k * difference[i];
          break;
        default: {
          const double x = qpos[q] - m->qpos_spring[q];
          potential += 0.5 * k * x * x;
          spring_power -= k * x * qvel[v];
          if (node.one_stage) rest[v] += k * x;
        }
      }
    }
    for (int i = 0; i < m->ntendon; ++i) {
      const double stretch = d->ten_length[i] - m->tendon_lengthspring[i], rate = d->ten_velocity[i];
      potential += 0.5 * m->tendon_stiffness[i] * stretch * stretch;
      spring_power -= m->tendon_stiffness[i] * stretch * rate;
      const double tendon_damping_power = -m->tendon_damping[i] * rate * rate;
      if (tendon_damping_ >= 0) node.powers[tendon_damping_] += tendon_damping_power;
      damper_power += tendon_damping_power;
      if (node.one_stage) {
        const double spring = -m->tendon_stiffness[i] * stretch, damper = -m->tendon_damping[i] * rate;
        add_row(m, d->ten_J, d->ten_J_rownnz, d->ten_J_rowadr, d->ten_J_colind, i, -(spring + damper), rest);
        add_row(m, d->ten_J, d->ten_J_rownnz, d->ten_J_rowadr, d->ten_J_colind, i, damper, tendon_damping);
      }
    }
    for (int v = 0; v < nv; ++v) passive_power += qvel[v] * d->qfrc_passive[v];
  }
  node.potential_energy = potential;
  const double passive_rest = passive_power - spring_power - damper_power;
  if (passive_rest_ >= 0) {
    node.powers[passive_rest_] = passive_rest;
    node.uncounted_passive_power = 0;
  } else {
    node.uncounted_passive_power = passive_rest;
  }

  // Actuators: force · velocity (= vᵀ qfrc_actuator); their inputs and what a held ctrl's force
  // depends on.
  for (int a = 0; a < nu; ++a) {
    node.powers[a] = d->actuator_force[a] * d->actuator_velocity[a];
    node.actuator_length[a] = d->actuator_length[a];
    node.actuator_velocity[a] = d->actuator_velocity[a];
    node.ctrl[a] = d->ctrl[a];
    node.actuator_force[a] = d->actuator_force[a];
  }

  // Applied forces: qfrc_applied, and xfrc_applied at each body's centre of mass, whose velocity
  // is cvel's (about the subtree's centre of mass of the body's root) moved there.
  std::copy_n(d->qfrc_applied, nv, node.qfrc_applied.begin());
  const std::size_t body_values = 6 * static_cast<std::size_t>(m->nbody);
  node.xfrc_applied.assign(d->xfrc_applied, d->xfrc_applied + body_values);
  node.any_body_force = std::any_of(node.xfrc_applied.begin() + 6, node.xfrc_applied.end(),
                                    [](double f) { return f != 0; });
  node.body_velocity.resize(body_values);
  for (int b = 0; b < m->nbody; ++b) {
    const double* c = d->cvel + 6 * b;
    const double* origin = d->subtree_com + 3 * m->body_rootid[b];
    const double r[3] = {d->xipos[3 * b] - origin[0], d->xipos[3 * b + 1] - origin[1], d->xipos[3 * b + 2] - origin[2]};
    double* w = node.body_velocity.data() + 6 * b;
    w[0] = c[0], w[1] = c[1], w[2] = c[2];
    w[3] = c[3] + c[1] * r[2] - c[2] * r[1];
    w[4] = c[4] + c[2] * r[0] - c[0] * r[2];
    w[5] = c[5] + c[0] * r[1] - c[1] * r[0];
  }
  node.powers[applied_] = applied_power(m, node, node, false);

  // Constraint forces, row by row: efc_force · efc_vel (= vᵀ qfrc_constraint); the contacts'
  // also per pair of geoms. For one-stage steps also Jᵀ f: per pair for the contacts, per channel
  // for the other kinds (a row of zero force adds nothing).
  if (node.one_stage) std::fill(node.constraint_force.begin(), node.constraint_force.end(), 0.0);
  node.contact_pairs.clear();
  node.contact_pair_force.clear();
  int last_contact = -1;
  std::size_t pair = 0;
  for (int i = 0; i < d->nefc; ++i) {
    const int type = d->efc_type[i];
    const double force = d->efc_force[i], power = force * d->efc_vel[i];
    double* generalized = nullptr;  // where Jᵀ f of this row goes
    if (type == mjCNSTR_CONTACT_FRICTIONLESS || type == mjCNSTR_CONTACT_PYRAMIDAL || type == mjCNSTR_CONTACT_ELLIPTIC) {
      node.powers[contacts_] += power;
      if (d->efc_id[i] != last_contact) {  // a contact's rows are consecutive
        last_contact = d->efc_id[i];
        const mjContact& contact = d->contact[last_contact];
        pair = add_to_pair(node.contact_pairs, contact.geom1, contact.geom2, 0.0);
        if (node.one_stage) node.contact_pair_force.resize(node.contact_pairs.size() * static_cast<std::size_t>(nv), 0.0);
      }
      node.contact_pairs[pair].value += power;
      generalized = node.contact_pair_force.data() + static_cast<std::ptrdiff_t>(pair) * nv;
    } else {
      int slot = 0;  // a kind without its own channel (enabled after the audit began) counts as contacts
      switch (type) {
        case mjCNSTR_EQUALITY: slot = equality_ >= 0 ? 2 : 0; break;
        case mjCNSTR_FRICTION_DOF:
        case mjCNSTR_FRICTION_TENDON: slot = friction_ >= 0 ? 3 : 0; break;
        case mjCNSTR_LIMIT_JOINT:
        case mjCNSTR_LIMIT_TENDON: slot = limits_ >= 0 ? 1 : 0; break;
        default: break;
      }
      node.powers[constraint_channel(slot)] += power;
      generalized = node.constraint_force.data() + static_cast<std::ptrdiff_t>(slot) * nv;
    }
    if (node.one_stage && force != 0) {
      add_row(m, d->efc_J, d->efc_J_rownnz, d->efc_J_rowadr, d->efc_J_colind, i, force, generalized);
    }
  }
}

void PowerModel::add_weighted_contact_powers(const Node& at, double weight, std::vector<ContactPair>& works) {
  for (const ContactPair& pair : at.contact_pairs) add_to_pair(works, pair.geom1, pair.geom2, weight * pair.value);
}

void PowerModel::add_one_stage_work(const mjModel* m, const Node& start, const Node& end, std::vector<double>& sums,
                                    double& uncounted_passive, std::vector<ContactPair>& contact_works) const {
  // h/2 · (F·v(start) + F·v(end)): the first half is start's power, the second F with end's
  // velocities.
  const double half = 0.5 * (end.t - start.t);
  const int nv = m->nv;
  std::vector<double>& cross = cross_;
  std::fill(cross.begin(), cross.end(), 0.0);
  for (int a = 0; a < m->nu; ++a) cross[a] = start.actuator_force[a] * end.actuator_velocity[a];
  for (int j = 0; j < m->njnt; ++j) {
    const int channel = joint_channel_[static_cast<std::size_t>(j)];
    if (channel < 0 || disabled(m, mjDSBL_PASSIVE)) continue;
    const int v = m->jnt_dofadr[j];
    for (int i = 0; i < joint_dofs(m->jnt_type[j]); ++i) {
      cross[channel] -= m->dof_damping[v + i] * start.qvel[v + i] * end.qvel[v + i];
    }
  }
  if (tendon_damping_ >= 0) cross[tendon_damping_] = dot(start.tendon_damping_force, end.qvel);
  const double rest = dot(start.passive_rest_force, end.qvel);
  double uncounted = 0;
  if (passive_rest_ >= 0) {
    cross[passive_rest_] = rest;
  } else {
    uncounted = rest;
  }
  cross[applied_] = applied_power(m, end, start, false);
  for (int slot = 0; slot < constraint_slots; ++slot) {
    double power = 0;
    const double* force = start.constraint_force.data() + static_cast<std::ptrdiff_t>(slot) * nv;
    for (int v = 0; v < nv; ++v) power += force[v] * end.qvel[v];
    if (power != 0) cross[constraint_channel(slot)] += power;
  }
  for (std::size_t k = 0; k < start.contact_pairs.size(); ++k) {
    const double* force = start.contact_pair_force.data() + static_cast<std::ptrdiff_t>(k) * nv;
    double power = 0;
    for (int v = 0; v < nv; ++v) power += force[v] * end.qvel[v];
    cross[contacts_] += power;
    const ContactPair& pair = start.contact_pairs[k];
    add_to_pair(contact_works, pair.geom1, pair.geom2, half * (pair.value + power));
  }
  for (std::size_t c = 0; c < sums.size(); ++c) sums[c] += half * (start.powers[c] + cross[c]);
  uncounted_passive += half * (start.uncounted_passive_power + uncounted);
}

void PowerModel::add_weighted_powers(const mjModel* m, const Node& at, const Node& inputs, double weight,
                                     std::vector<double>& sums, double& uncounted_passive) const {
  for (std::size_t c = 0; c < sums.size(); ++c) sums[c] += weight * at.powers[c];
  uncounted_passive += weight * at.uncounted_passive_power;
  if (!inputs.inputs_held) return;
  // The inputs held over inputs' step: the actuators' and the applied forces' powers at `at`
  // under them, in place of at's own; constant forces' work is add_held_work's.
  for (int a = 0; a < m->nu; ++a) {
    if (!recomputable_[a] || disabled(m, mjDSBL_ACTUATION)) continue;
    const double held = constant_force(m, a) ? 0.0
                                             : actuator_force(m, a, at.actuator_length[a], at.actuator_velocity[a],
                                                              inputs.ctrl[a]) *
                                                   at.actuator_velocity[a];
    sums[a] += weight * (held - at.powers[a]);
  }
  sums[applied_] += weight * (applied_power(m, at, inputs, true) - at.powers[applied_]);
}

}  // namespace energy_audit::mujoco::detail
