// The MuJoCo audit: the watcher of an mj_step loop and its findings.
#include "energy_audit/mujoco/mujoco_audit.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "energy_audit/error.hpp"
#include "mujoco_audit_state.hpp"

namespace energy_audit::mujoco {

namespace detail {

namespace {

/// A number as a message shows it: `digits` significant digits (17: every bit, where two times
/// that differ in their last bits must read differently).
std::string text(double value, int digits = 10) {
  std::ostringstream out;
  out.precision(digits);
  out << value;
  return out.str();
}

/// The warnings with which MuJoCo resets a state that holds a bad number.
constexpr int reset_warnings[] = {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC};
const char* warning_name(int warning) {
  switch (warning) {
    case mjWARN_BADQPOS: return "mjWARN_BADQPOS (a bad number in qpos)";
    case mjWARN_BADQVEL: return "mjWARN_BADQVEL (a bad number in qvel)";
    default: return "mjWARN_BADQACC (a bad number in qacc)";
  }
}

AuditOptions audit_options(const MujocoAuditOptions& options) {
  AuditOptions audit;
  audit.threshold = options.threshold;
  audit.store_every = options.store_every;
  audit.equation_check_every = 0;
  return audit;
}

}  // namespace

MujocoAuditState::MujocoAuditState(const mjModel* m, const mjData* d, const MujocoAuditOptions& options)
    : model_(m),
      data_(d),
      options_(options),
      powers_((m != nullptr ? m : throw InvalidArgument("MujocoAudit: the model is null")),
              options.count_passive_callback),
      audit_(audit_options(options)),
      works_(powers_.channels(), 0.0),
      step_works_(powers_.channels(), 0.0) {
  if (d == nullptr) throw InvalidArgument("MujocoAudit: the data is null");
  if (!(options.threshold > 0) || !std::isfinite(options.threshold)) {
    throw InvalidArgument("MujocoAudit: the threshold must be positive and finite; it is " + text(options.threshold));
  }
  for (Node& node : nodes_) node = powers_.make_node();
  stage_ = powers_.make_node();
  qpos_.resize(static_cast<std::size_t>(m->nq));
  qvel_.resize(static_cast<std::size_t>(m->nv));
  act_.resize(static_cast<std::size_t>(m->na));
  for (int i = 0; i < m->nq; ++i) {
    if (!std::isfinite(d->qpos[i])) throw InvalidArgument("MujocoAudit: qpos[" + std::to_string(i) + "] is not finite");
  }
  for (int i = 0; i < m->nv; ++i) {
    if (!std::isfinite(d->qvel[i])) throw InvalidArgument("MujocoAudit: qvel[" + std::to_string(i) + "] is not finite");
  }
  keep_start(d);
}

void MujocoAuditState::check(const mjModel* m, const mjData* d, const char* call) const {
  if (m != model_) throw InvalidArgument(std::string("MujocoAudit::") + call + ": not the model the audit was made with");
  if (d != data_) throw InvalidArgument(std::string("MujocoAudit::") + call + ": not the data the audit was made with");
  if (finished_) {
    throw InvalidArgument(std::string("MujocoAudit::") + call + ": the audit was finished; no step may follow");
  }
}

void MujocoAuditState::keep_start(const mjData* d) {
  std::copy_n(d->qpos, qpos_.size(), qpos_.begin());
  std::copy_n(d->qvel, qvel_.size(), qvel_.begin());
  std::copy_n(d->act, act_.size(), act_.begin());
  time_ = d->time;
}

void MujocoAuditState::stop(RunState state, std::string why) {
  run_ = state;
  diagnosis_ = std::move(why);
}

bool MujocoAuditState::saw_reset(const mjData* d, double expected_time) {
  if (d->time == expected_time) return false;
  for (const int warning : reset_warnings) {
    if (d->warning[warning].number > 0) {
      stop(RunState::Diverged, "MuJoCo reset the state after t = " + text(time_) + ": " + warning_name(warning) +
                                   "; the step is past the integrator's stability, or the model diverged");
      return true;
    }
  }
  stop(RunState::Lost, "the time is " + text(d->time, 17) + " where one step after the state seen last (t = " +
                           text(time_, 17) + ") is " + text(expected_time, 17) +
                           ": a step was not seen, or the state was set between steps");
  return true;
}

void MujocoAuditState::step(const mjModel* m, mjData* d) {
  check(m, d, "step");
  if (m->opt.integrator != mjINT_RK4 || run_ != RunState::Running) {
    mj_step(m, d);
    if (run_ == RunState::Running) after_step(m, d, "step");
    return;
  }
  // mj_step's own sequence, with the forward dynamics of the step's start read before RK4's
  // stages overwrite them; its step timer counted as mj_step counts it.
  const double started = mjcb_time != nullptr ? mjcb_time() : 0;
  mj_checkPos(m, d);
  mj_checkVel(m, d);
  mj_forward(m, d);
  mj_checkAcc(m, d);
  if ((m->opt.enableflags & mjENBL_FWDINV) != 0) mj_compareFwdInv(m, d);
  if (saw_reset(d, time_)) {
    mj_RungeKutta(m, d, 4);
  } else {
    runge_kutta_observed(m, d, add_node(m, d, d->qpos, d->qvel, d->time));
  }
  d->timer[mjTIMER_STEP].duration += (mjcb_time != nullptr ? mjcb_time() : 0) - started;
  d->timer[mjTIMER_STEP].number++;
  if (run_ == RunState::Running) keep_start(d);
}

void MujocoAuditState::after_step(const mjModel* m, const mjData* d, const char* call) {
  check(m, d, call);
  if (run_ != RunState::Running) return;
  if (saw_reset(d, time_ + m->opt.timestep)) return;
  if (m->opt.integrator == mjINT_RK4) {
    // d holds RK4's last stage: the step's start is evaluated on the audit's own data, with the
    // inputs d holds (those of the step).
    mjData& own = own_data(m);
    copy_into_own(m, d);
    std::copy(qpos_.begin(), qpos_.end(), own.qpos);
    std::copy(qvel_.begin(), qvel_.end(), own.qvel);
    std::copy(act_.begin(), act_.end(), own.act);
    own.time = time_;
    mj_forward(m, &own);
    add_node(m, &own, own.qpos, own.qvel, time_);
    ++rk4_steps_after_;
  } else {
    add_node(m, d, qpos_.data(), qvel_.data(), time_);
  }
  if (run_ == RunState::Running) keep_start(d);
}

void MujocoAuditState::finish(const mjModel* m, const mjData* d) {
  check(m, d, "finish");
  if (run_ == RunState::Running && !saw_reset(d, time_)) {
    mjData& own = own_data(m);
    copy_into_own(m, d);
    mj_forward(m, &own);
    add_node(m, &own, own.qpos, own.qvel, own.time);
  }
  integrate_steps(m, true);
  finished_ = true;
  if (run_ == RunState::Running) run_ = RunState::Finished;
}

mjData& MujocoAuditState::own_data(const mjModel* m) {
  if (!own_) {
    own_.reset(mj_makeData(m));
    if (!own_) throw Error("MujocoAudit: MuJoCo could not allocate the audit's own mjData");
  }
  return *own_;
}

void MujocoAuditState::copy_into_own(const mjModel* m, const mjData* from) {
  mjData& own = *own_;
  own.time = from->time;
  std::copy_n(from->qpos, m->nq, own.qpos);
  std::copy_n(from->qvel, m->nv, own.qvel);
  std::copy_n(from->act, m->na, own.act);
  std::copy_n(from->qacc_warmstart, m->nv, own.qacc_warmstart);
  std::copy_n(from->ctrl, m->nu, own.ctrl);
  std::copy_n(from->qfrc_applied, m->nv, own.qfrc_applied);
  std::copy_n(from->xfrc_applied, 6 * m->nbody, own.xfrc_applied);
  std::copy_n(from->mocap_pos, 3 * m->nmocap, own.mocap_pos);
  std::copy_n(from->mocap_quat, 4 * m->nmocap, own.mocap_quat);
  std::copy_n(from->userdata, m->nuserdata, own.userdata);
}

Node& MujocoAuditState::add_node(const mjModel* m, const mjData* forward, const double* qpos, const double* qvel,
                                 double t) {
  Node& node = nodes_[static_cast<std::size_t>(node_count_ % static_cast<long>(ring))];
  powers_.read(m, forward, qpos, qvel, t, node);
  ++node_count_;
  if (node_count_ == 1) {
    first_energy_ = node.kinetic_energy + node.potential_energy;
    record(node);
  }
  integrate_steps(m, false);
  return node;
}

void MujocoAuditState::runge_kutta_observed(const mjModel* m, mjData* d, Node& start) {
  // MuJoCo's mj_RungeKutta for N = 4: the same calls on the same stack, in the same order, so
  // that d ends bit for bit as it would; the audit reads each stage's forces after its forward.
  static constexpr double A[9] = {0.5, 0, 0, 0, 0.5, 0, 0, 0, 1};
  static constexpr double B[4] = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
  const int nv = m->nv, nq = m->nq, na = m->na;
  const double h = m->opt.timestep, time = d->time;
  double C[3], T[3];
  double *X[4], *F[4];
  mjMARKSTACK;
  double* dX = mj_stackAlloc(d, 2 * nv + na);
  for (int i = 0; i < 4; ++i) {
    X[i] = mj_stackAlloc(d, nq + nv + na);
    F[i] = mj_stackAlloc(d, nv + na);
  }
  for (int i = 1; i < 4; ++i) {
    C[i - 1] = 0;
    for (int j = 0; j < i; ++j) C[i - 1] += A[(i - 1) * 3 + j];
    T[i - 1] = d->time + C[i - 1] * h;
  }
  mju_copy(X[0], d->qpos, nq);
  mju_copy(X[0] + nq, d->qvel, nv);
  mju_copy(F[0], d->qacc, nv);
  if (na) {
    mju_copy(X[0] + nq + nv, d->act, na);
    mju_copy(F[0] + nv, d->act_dot, na);
  }
  std::vector<double>& work = start.stage_work;
  work.assign(start.powers.size(), 0.0);
  for (std::size_t c = 0; c < work.size(); ++c) work[c] = h * B[0] * start.powers[c];
  start.stage_contact_work.clear();
  PowerModel::add_weighted_contact_powers(start, h * B[0], start.stage_contact_work);
  double uncounted = h * B[0] * start.uncounted_passive_power;
  for (int i = 1; i < 4; ++i) {
    mju_zero(dX, 2 * nv + na);
    for (int j = 0; j < i; ++j) {
      mju_addToScl(dX, X[j] + nq, A[(i - 1) * 3 + j], nv);
      mju_addToScl(dX + nv, F[j], A[(i - 1) * 3 + j], nv + na);
    }
    mju_copy(X[i], X[0], nq + nv + na);
    mj_integratePos(m, X[i], dX, h);
    mju_addToScl(X[i] + nq, dX + nv, h, nv + na);
    mju_copy(d->qpos, X[i], nq);
    mju_copy(d->qvel, X[i] + nq, nv);
    if (na) mju_copy(d->act, X[i] + nq + nv, na);
    d->time = T[i - 1];
    mj_forwardSkip(m, d, mjSTAGE_NONE, 1);
    mju_copy(F[i], d->qacc, nv);
    if (na) mju_copy(F[i] + nv, d->act_dot, na);
    powers_.read(m, d, d->qpos, d->qvel, d->time, stage_);
    for (std::size_t c = 0; c < work.size(); ++c) work[c] += h * B[i] * stage_.powers[c];
    PowerModel::add_weighted_contact_powers(stage_, h * B[i], start.stage_contact_work);
    uncounted += h * B[i] * stage_.uncounted_passive_power;
  }
  start.stage_uncounted_passive_work = uncounted;
  mju_zero(dX, 2 * nv + na);
  for (int j = 0; j < 4; ++j) {
    mju_addToScl(dX, X[j] + nq, B[j], nv);
    mju_addToScl(dX + nv, F[j], B[j], nv + na);
  }
  d->time = time;
  mju_copy(d->qpos, X[0], nq);
  mju_copy(d->qvel, X[0] + nq, nv);
  mju_copy(d->act, X[0] + nq + nv, na);
  // MuJoCo's mj_advance: activations (clamped), velocities, positions, time.
  const double* act_dot = dX + 2 * nv;
  if (na) {
    mju_addToScl(d->act, act_dot, h, na);
    for (int i = 0; i < na; ++i) {
      const int actuator = i + m->nu - na;
      if (m->actuator_actlimited[actuator]) {
        const double* range = m->actuator_actrange + 2 * actuator;
        d->act[i] = mju_clip(d->act[i], range[0], range[1]);
      }
    }
  }
  mju_addToScl(d->qvel, dX + nv, h, nv);
  mj_integratePos(m, d->qpos, dX, h);
  d->time += h;
  mjFREESTACK;
}

void MujocoAuditState::integrate_steps(const mjModel* m, bool final) {
  const long last = node_count_ - 1;
  while (audited_intervals_ < last) {
    const long i = audited_intervals_;
    const Node& start = nodes_[static_cast<std::size_t>(i % ring)];
    const Node& next = nodes_[static_cast<std::size_t>((i + 1) % ring)];
    std::fill(step_works_.begin(), step_works_.end(), 0.0);
    double uncounted = 0;
    if (!start.stage_work.empty()) {
      step_works_ = start.stage_work;
      for (const ContactPair& pair : start.stage_contact_work) add_to_pair(contact_works_, pair.geom1, pair.geom2, pair.value);
      add_step_work(start.stage_uncounted_passive_work);
      record(next);
      continue;
    }
    if (start.one_stage) {
      powers_.add_one_stage_work(m, start, next, step_works_, uncounted, contact_works_);
      add_step_work(uncounted);
      record(next);
      continue;
    }
    // The nodes around the step [i, i + 1]: i − 1 to i + 2, one-sided at the ends.
    long first = std::max(0L, i - 1);
    if (final) {
      first = std::max(0L, std::min(first, last - 3));
    } else if (first + 3 > last) {
      break;
    }
    const long end = std::min(first + 3, last);
    const std::size_t count = static_cast<std::size_t>(end - first + 1);
    std::array<double, max_stencil_nodes> times{};
    for (std::size_t j = 0; j < count; ++j) times[j] = nodes_[static_cast<std::size_t>((first + j) % ring)].t;
    const auto weights = step_weights(times.data(), count, start.t, next.t);
    for (std::size_t j = 0; j < count; ++j) {
      const Node& node = nodes_[static_cast<std::size_t>((first + j) % ring)];
      powers_.add_weighted_powers(m, node, start, weights[j], step_works_, uncounted);
      PowerModel::add_weighted_contact_powers(node, weights[j], contact_works_);
    }
    powers_.add_held_work(m, start, next, step_works_);
    add_step_work(uncounted);
    record(next);
  }
}

void MujocoAuditState::add_step_work(double uncounted_passive) {
  for (std::size_t c = 0; c < works_.size(); ++c) {
    works_[c] += step_works_[c];
    Z_ -= step_works_[c];
  }
  uncounted_passive_work_ += uncounted_passive;
  ++audited_intervals_;
}

void MujocoAuditState::record(const Node& node) {
  static const Vector none;
  EnergyTerms energy;
  energy.T = energy.T2 = node.kinetic_energy;
  energy.V = node.potential_energy;
  audit_.record(EnergySample{node.t, none, none, energy, Z_});
  last_energy_ = energy.E();
  last_C_ = energy.E() + Z_;
  if (audited_intervals_ == 0) first_C_ = last_C_;
  if (!std::isfinite(last_C_) && run_ == RunState::Running) {
    stop(RunState::Diverged, "the energies left the finite range at t = " + text(node.t));
  }
}

const char* MujocoAuditState::verdict() const {
  switch (run_) {
    case RunState::Running:
    case RunState::Lost: return "incomplete";
    case RunState::Diverged: return "diverged";
    case RunState::Finished: break;
  }
  return audit_.relative_drift() <= audit_.threshold() ? "pass" : "fail";
}

std::vector<LedgerEntry> MujocoAuditState::contact_pairs() const {
  const auto name = [this](int geom) {
    const char* text = mj_id2name(model_, mjOBJ_GEOM, geom);
    return text != nullptr && text[0] != '\0' ? std::string(text) : "geom " + std::to_string(geom);
  };
  std::vector<LedgerEntry> entries;
  for (const ContactPair& pair : contact_works_) entries.push_back({name(pair.geom1) + " / " + name(pair.geom2), pair.value});
  return entries;
}

std::vector<LedgerEntry> MujocoAuditState::ledger() const {
  std::vector<LedgerEntry> entries;
  for (std::size_t c = 0; c < works_.size(); ++c) entries.push_back({powers_.channel_names()[c], works_[c]});
  return entries;
}

}  // namespace detail

MujocoAudit::MujocoAudit(const mjModel* m, const mjData* d, MujocoAuditOptions options)
    : state_(std::make_unique<detail::MujocoAuditState>(m, d, options)) {}
MujocoAudit::MujocoAudit(MujocoAudit&&) noexcept = default;
MujocoAudit& MujocoAudit::operator=(MujocoAudit&&) noexcept = default;
MujocoAudit::~MujocoAudit() = default;

detail::MujocoAuditState& MujocoAudit::state() const {
  if (!state_) throw Error("MujocoAudit: used after it was moved from");
  return *state_;
}

void MujocoAudit::step(const mjModel* m, mjData* d) { state().step(m, d); }
void MujocoAudit::after_step(const mjModel* m, const mjData* d) { state().after_step(m, d, "after_step"); }
void MujocoAudit::finish(const mjModel* m, const mjData* d) { state().finish(m, d); }
const char* MujocoAudit::verdict() const { return state().verdict(); }
bool MujocoAudit::passed() const { return std::strcmp(verdict(), "pass") == 0; }
double MujocoAudit::relative_drift() const { return state().audit().relative_drift(); }
double MujocoAudit::max_abs_drift() const { return state().audit().max_abs_drift(); }
double MujocoAudit::energy_scale() const { return state().audit().energy_scale(); }
double MujocoAudit::threshold() const { return state().audit().threshold(); }
double MujocoAudit::time_first_above_threshold() const { return state().audit().time_first_above_threshold(); }
long MujocoAudit::audited_steps() const { return state().audited_steps(); }
double MujocoAudit::energy_change() const { return state().energy_change(); }
double MujocoAudit::unexplained_work() const { return state().unexplained_work(); }
std::vector<LedgerEntry> MujocoAudit::ledger() const { return state().ledger(); }
std::vector<LedgerEntry> MujocoAudit::contact_pairs() const { return state().contact_pairs(); }
double MujocoAudit::uncounted_passive_work() const { return state().uncounted_passive_work(); }
const Audit& MujocoAudit::audit() const { return state().audit(); }

std::string MujocoAudit::diagnosis() const {
  const detail::MujocoAuditState& s = state();
  std::string why = s.diagnosis();
  if (s.rk4_steps_after() > 0 && std::strcmp(s.verdict(), "fail") == 0) {
    if (!why.empty()) why += "; ";
    why += "RK4 steps watched by after_step: their work is taken over the steps' ends, first order where a "
           "contact is made or broken; MujocoAudit::step reads RK4's own stages";
  }
  const double uncounted = s.uncounted_passive_work();
  if (uncounted != 0 && std::abs(uncounted) > 0.1 * std::abs(s.unexplained_work())) {
    if (!why.empty()) why += "; ";
    std::ostringstream line;
    line.precision(4);
    line << "qfrc_passive holds a force that is neither spring, damper nor fluid (a passive callback?) whose work "
         << uncounted << " J is not counted (MujocoAuditOptions::count_passive_callback counts it)";
    why += line.str();
  }
  return why;
}

void MujocoAudit::print_summary(FILE* out) const {
  const detail::MujocoAuditState& s = state();
  std::fprintf(out, "energy audit: delta_C = %.3e (threshold %.1e, %ld steps audited): %s\n", relative_drift(),
               threshold(), audited_steps(), verdict());
  std::fprintf(out, "energy audit: max |C - C(t0)| = %.3e J, energy scale = %.3e J\n", max_abs_drift(),
               energy_scale());
  std::fprintf(out, "energy audit: energy change E - E(t0) = %+.6g J\n", s.energy_change());
  std::vector<LedgerEntry> pairs = s.contact_pairs();
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const LedgerEntry& a, const LedgerEntry& b) { return std::abs(a.work) > std::abs(b.work); });
  constexpr std::size_t pairs_shown = 5;
  for (const LedgerEntry& entry : s.ledger()) {
    std::fprintf(out, "energy audit: work of %s = %+.6g J\n", entry.name.c_str(), entry.work);
    if (entry.name != "contacts") continue;
    for (std::size_t k = 0; k < pairs.size() && k < pairs_shown; ++k) {
      std::fprintf(out, "energy audit:   of which %s = %+.6g J\n", pairs[k].name.c_str(), pairs[k].work);
    }
    if (pairs.size() > pairs_shown) {
      std::fprintf(out, "energy audit:   and %zu more pairs of geoms in contact\n", pairs.size() - pairs_shown);
    }
  }
  std::fprintf(out, "energy audit: unexplained = %+.6g J\n", s.unexplained_work());
  if (relative_drift() > threshold() && std::isfinite(time_first_above_threshold())) {
    std::fprintf(out, "energy audit: |C - C(t0)| first above the threshold at t = %.6g\n", time_first_above_threshold());
  }
  if (const std::string why = diagnosis(); !why.empty()) std::fprintf(out, "energy audit: %s\n", why.c_str());
}

}  // namespace energy_audit::mujoco
