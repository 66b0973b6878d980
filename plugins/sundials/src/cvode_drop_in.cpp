#include "energy_audit/sundials/cvode_drop_in.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <energy_audit/audit.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/error.hpp>

#include "energy_audit/sundials/cvode_check.hpp"
#include "energy_audit/sundials/handles.hpp"

namespace energy_audit::sun {
namespace {

// 4-point Gauss–Legendre rule on [-1, 1]: exact for polynomials of degree 7.
constexpr std::array<double, 4> gauss_nodes{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                            0.8611363115940526};
constexpr std::array<double, 4> gauss_weights{0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                              0.3478548451374538};

long number_of_steps(void* cvode_mem) {
  long steps = 0;
  check_cvode(CVodeGetNumSteps(cvode_mem, &steps), "CVodeGetNumSteps");
  return steps;
}

double current_time(void* cvode_mem) {
  sunrealtype t = 0;
  check_cvode(CVodeGetCurrentTime(cvode_mem, &t), "CVodeGetCurrentTime");
  return t;
}

double last_step_size(void* cvode_mem) {
  sunrealtype h = 0;
  check_cvode(CVodeGetLastStep(cvode_mem, &h), "CVodeGetLastStep");
  return h;
}

}  // namespace

struct CvodeAudit::State {
  State(int n, DropInEnergies e, double threshold)
      : dofs(n),
        energies(std::move(e)),
        audit(AuditOptions{.threshold = threshold, .equation_threshold = drop_in_equation_threshold, .store_every = 0}),
        minus_v(static_cast<std::size_t>(n)),
        zero_v(static_cast<std::size_t>(n), 0.0) {}

  int dofs;
  DropInEnergies energies;
  Audit audit;
  long audited = 0;
  bool incomplete = false;     // a step went unaudited (an energy function threw)
  int failure_flag = 0;        // the first negative flag a CVode call returned

  bool started = false;  // the first sample has been recorded
  // The solver stands at t_start with no step taken: its state is read after the first step.
  bool start_pending = false;
  double t_start = 0;
  long steps_seen = 0;  // CVodeGetNumSteps after the last call

  // A root that CV_ONE_STEP found beyond tout, returned on the next call as CV_NORMAL would.
  bool root_pending = false;
  double t_root = 0;

  double Z = 0;
  double t_audited = 0;  // t_n of the last audited step (or the start)
  // Z at the time CVode last returned, for a CVodeReInit from there.
  bool returned_known = false;
  double t_returned = 0, Z_returned = 0;
  DropInStep last;
  std::vector<double> minus_v, zero_v;

  // T (V) seen to change with t at fixed q and v although no ∂T/∂t (∂V/∂t) was given, and the
  // rate seen then: Z misses that power, so δ_C cannot be judged.
  struct MissingRate {
    bool seen = false;
    double rate = 0, t = 0;
  };
  MissingRate missing_kinetic_rate, missing_potential_rate;
  int time_dependence_checks = 0;  // states checked so far, up to time_dependence_checked_states
  N_Vector derivative = nullptr;  // y' at a step's end for the equation check, during one CVode call

  /// A scratch vector like yout for CVodeGetDky, owned for one call only.
  NVector scratch_like(N_Vector yout) const {
    if (const sunindextype length = N_VGetLength(yout); length < 2 * static_cast<sunindextype>(dofs)) {
      throw InvalidArgument("CvodeAudit: the CVODE state has " + std::to_string(length) + " entries; the audit of " +
                            std::to_string(dofs) + " coordinates needs y = [q, v], at least " +
                            std::to_string(2 * dofs));
    }
    NVector scratch(N_VClone(yout));
    if (!scratch) throw Error("N_VClone could not make a scratch vector for the audit");
    if (N_VGetArrayPointer(scratch.get()) == nullptr) {
      throw InvalidArgument(
          "the audit needs an N_Vector whose data N_VGetArrayPointer exposes (serial, OpenMP, pthreads)");
    }
    return scratch;
  }

  EnergyTerms energy_terms(const double* q, const double* v, double t) {
    for (int i = 0; i < dofs; ++i) minus_v[static_cast<std::size_t>(i)] = -v[i];
    EnergyTerms e = split_kinetic_energy(energies.kinetic_energy(q, v, t),
                                         energies.kinetic_energy(q, minus_v.data(), t),
                                         energies.kinetic_energy(q, zero_v.data(), t));
    e.V = energies.potential_energy(q, t);
    return e;
  }

  /// Ż = ∂T/∂t − ∂V/∂t − vᵀf.
  double energy_flow_rate(const double* q, const double* v, double t) const {
    double rate = 0;
    if (energies.kinetic_energy_rate) rate += energies.kinetic_energy_rate(q, v, t);
    if (energies.potential_energy_rate) rate -= energies.potential_energy_rate(q, t);
    if (energies.nonpotential_power) rate -= energies.nonpotential_power(q, v, t);
    return rate;
  }

  void interpolate(void* cvode_mem, double t, N_Vector out, int order = 0) const {
    check_cvode(CVodeGetDky(cvode_mem, t, order, out), "CVodeGetDky", {}, t);
  }

  /// Lagrange's equations at the step's end, with the v̇ CVODE holds there.
  void check_equations(void* cvode_mem, double t, N_Vector state, N_Vector scratch) {
    if (!energies.equation_residual) return;
    interpolate(cvode_mem, t, scratch, 1);
    const double* y = N_VGetArrayPointer(state);
    double out[2] = {0, 0};
    energies.equation_residual(y, y + dofs, N_VGetArrayPointer(scratch) + dofs, t, out);
    audit.record_equation_residual({out[0], out[1]});
  }

  /// The states at which T and V without a given rate are checked for a dependence on t.
  static constexpr int time_dependence_checked_states = 4;

  /// Whether T (V), given without ∂T/∂t (∂V/∂t), changes with t at fixed q and v at this state:
  /// a function that does not read t returns the same value at t + Δt, while the smallest
  /// dependence that could move δ_C changes it by far more than round-off.
  void check_time_dependence(const double* q, const double* v, double t, const EnergyTerms& e) {
    ++time_dependence_checks;
    const double dt = 1e-6 * std::max(1.0, std::abs(t));
    const double resolution = 1e3 * std::numeric_limits<double>::epsilon() *
                              std::max({std::abs(e.T), std::abs(e.V), std::numeric_limits<double>::min()});
    const auto note = [&](MissingRate& missing, double at_t, double later) {
      if (missing.seen || std::abs(later - at_t) <= resolution) return;
      missing = {true, (later - at_t) / dt, t};
    };
    if (!energies.kinetic_energy_rate) {
      note(missing_kinetic_rate, energies.kinetic_energy(q, v, t), energies.kinetic_energy(q, v, t + dt));
    }
    if (!energies.potential_energy_rate) {
      note(missing_potential_rate, energies.potential_energy(q, t), energies.potential_energy(q, t + dt));
    }
  }

  /// What check_time_dependence found, in one line; empty when nothing is missing.
  std::string diagnosis() const {
    std::string line;
    const auto describe = [&line](const MissingRate& missing, const char* what) {
      if (!missing.seen) return;
      char text[256];
      std::snprintf(text, sizeof text, "%s%s (%.3g W at t = %.6g)", line.empty() ? "" : "; ", what, missing.rate,
                    missing.t);
      line += text;
    };
    describe(missing_kinetic_rate, "T changes with t at fixed q and v but no kinetic_energy_rate (dT/dt) was given");
    describe(missing_potential_rate, "V changes with t at fixed q but no potential_energy_rate (dV/dt) was given");
    if (!line.empty()) line += ": Z misses that power, so delta_C is not judged";
    return line;
  }

  /// Records the state in `y` at t with the current Z.
  void record(double t, N_Vector y) {
    const double* data = N_VGetArrayPointer(y);
    const double* q = data;
    const double* v = data + dofs;
    const EnergyTerms e = energy_terms(q, v, t);
    if (time_dependence_checks < time_dependence_checked_states) check_time_dependence(q, v, t, e);
    const Eigen::Map<const Vector> q_view(q, dofs), v_view(v, dofs);
    audit.record(EnergySample{t, q_view, v_view, e, Z});
    last = DropInStep{t, e.T, e.T2, e.T1, e.T0, e.V, e.H(), Z, e.H() + Z};
  }

  /// ∫ Ż dt from a to b, both in the last step, by Gauss–Legendre on CVODE's interpolant.
  double flow_integral(void* cvode_mem, double a, double b, N_Vector scratch) {
    const double t_mid = 0.5 * (a + b), half = 0.5 * (b - a);
    const double* data = N_VGetArrayPointer(scratch);
    double sum = 0;
    for (std::size_t i = 0; i < gauss_nodes.size(); ++i) {
      const double t = t_mid + half * gauss_nodes[i];
      interpolate(cvode_mem, t, scratch);
      sum += gauss_weights[i] * energy_flow_rate(data, data + dofs, t);
    }
    return half * sum;
  }

  /// Audits the step just accepted, [t_n − h, t_n]: Z over it, then the sample at t_n.
  void audit_step(void* cvode_mem, N_Vector scratch) {
    const double t_end = current_time(cvode_mem);
    const double h = last_step_size(cvode_mem);
    if (start_pending) {  // y(t0) from the first step's interpolant (CVodeGetDky needs h ≠ 0)
      interpolate(cvode_mem, t_start, scratch);
      record(t_start, scratch);
      start_pending = false;
      started = true;
    }
    Z += flow_integral(cvode_mem, t_end - h, t_end, scratch);
    interpolate(cvode_mem, t_end, scratch);
    record(t_end, scratch);
    if (derivative != nullptr) check_equations(cvode_mem, t_end, scratch, derivative);
    t_audited = t_end;
    ++audited;
  }

  /// Keeps Z at the time CVode returned (an output time before t_n, say), from which the
  /// program may restart the solver with CVodeReInit.
  void note_return(void* cvode_mem, double t, N_Vector scratch) {
    returned_known = false;
    if (!started || start_pending) return;
    const double h = last_step_size(cvode_mem);
    if (t == t_audited) {
      Z_returned = Z;
    } else if (h != 0 && (t - (t_audited - h)) / h >= 0 && (t_audited - t) / h >= 0) {
      Z_returned = Z - flow_integral(cvode_mem, t, t_audited, scratch);
    } else {
      return;
    }
    t_returned = t;
    returned_known = true;
  }

  /// Brings the audit up to the solver before a call: the start, a CVodeReInit, steps not seen.
  void synchronize(void* cvode_mem, N_Vector scratch) {
    const long steps = number_of_steps(cvode_mem);
    if (steps == 0) {  // a new or re-initialized solver: (re)start at its current time
      start_pending = true;
      t_start = current_time(cvode_mem);
      if (started && returned_known && t_start == t_returned) Z = Z_returned;  // restarted where it returned
      returned_known = false;
      steps_seen = 0;
      root_pending = false;
      return;
    }
    if (!started) {  // first call on a solver that has stepped already: start where it stands
      const double t = current_time(cvode_mem);
      interpolate(cvode_mem, t, scratch);
      record(t, scratch);
      t_audited = t;
      started = true;
      start_pending = false;
      steps_seen = steps;
      return;
    }
    if (steps != steps_seen) {
      throw Error("CvodeAudit: " + std::to_string(steps - steps_seen) +
                  " CVODE step(s) were taken outside CvodeAudit::CVode and cannot be audited");
    }
  }

  /// One plain CVode call that takes at most one step, audited if it took one.
  int call(void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask, N_Vector scratch) {
    const int flag = ::CVode(cvode_mem, tout, yout, tret, itask);
    const long steps = number_of_steps(cvode_mem);
    if (steps == steps_seen) return flag;
    const long taken = steps - steps_seen;
    steps_seen = steps;
    if (taken != 1) {
      incomplete = true;
      throw Error("CvodeAudit: one CVode call took " + std::to_string(taken) +
                  " steps; only one can be audited");
    }
    try {
      audit_step(cvode_mem, scratch);
    } catch (...) {
      incomplete = true;
      throw;
    }
    return flag;
  }

  /// y(t) from the last step's interpolant as CVode's output.
  int output(void* cvode_mem, double t, N_Vector yout, sunrealtype* tret, int flag) {
    if (CVodeGetDky(cvode_mem, t, 0, yout) < 0) return CV_ILL_INPUT;  // as CVode for a tout behind
    *tret = t;
    return flag;
  }

  int normal(void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, N_Vector scratch) {
    for (;;) {
      if (number_of_steps(cvode_mem) > 0 &&
          (current_time(cvode_mem) - tout) * last_step_size(cvode_mem) >= 0) {
        break;  // tout reached: CVode(CV_NORMAL) only interpolates
      }
      const int flag = call(cvode_mem, tout, yout, tret, CV_ONE_STEP, scratch);
      if (flag < 0) return flag;
      const double h = last_step_size(cvode_mem);
      if (flag == CV_ROOT_RETURN) {
        if ((*tret - tout) * h <= 0) return flag;
        // CV_ONE_STEP found the root beyond tout; CV_NORMAL returns tout first, the root next.
        root_pending = true;
        t_root = *tret;
        return output(cvode_mem, tout, yout, tret, CV_SUCCESS);
      }
      if (flag == CV_TSTOP_RETURN) {
        if ((current_time(cvode_mem) - tout) * h < 0) return flag;
        // tout reached at the stop time: CV_NORMAL returns tout and keeps the stop time set.
        const int rearm = CVodeSetStopTime(cvode_mem, *tret);
        if (rearm < 0) return rearm;
        break;
      }
    }
    return call(cvode_mem, tout, yout, tret, CV_NORMAL, scratch);
  }
};

CvodeAudit::CvodeAudit(int dofs, DropInEnergies energies, double threshold) {
  if (dofs <= 0) throw InvalidArgument("CvodeAudit: dofs = " + std::to_string(dofs) + "; the number of coordinates must be > 0");
  if (!energies.kinetic_energy || !energies.potential_energy) {
    throw InvalidArgument("CvodeAudit: the kinetic and the potential energy are required");
  }
  state_ = std::make_unique<State>(dofs, std::move(energies), threshold);
}

CvodeAudit::CvodeAudit(CvodeAudit&&) noexcept = default;
CvodeAudit& CvodeAudit::operator=(CvodeAudit&&) noexcept = default;
CvodeAudit::~CvodeAudit() = default;

CvodeAudit::State& CvodeAudit::state() const {
  if (!state_) throw Error("CvodeAudit: used after it was moved from");
  return *state_;
}

int CvodeAudit::CVode(void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
  if (cvode_mem == nullptr || yout == nullptr || tret == nullptr ||
      (itask != CV_NORMAL && itask != CV_ONE_STEP)) {
    return ::CVode(cvode_mem, tout, yout, tret, itask);  // CVODE reports the bad argument
  }
  State& s = state();
  const NVector scratch = s.scratch_like(yout);
  NVector derivative_vector;
  if (s.energies.equation_residual) {
    derivative_vector = s.scratch_like(yout);
    s.derivative = derivative_vector.get();
  }
  // Forgets the scratch vector however this call ends: none is kept between calls.
  const std::unique_ptr<State, void (*)(State*)> forget_derivative(&s, [](State* st) { st->derivative = nullptr; });
  s.synchronize(cvode_mem, scratch.get());
  int flag = 0;
  if (s.root_pending) {
    if (itask == CV_NORMAL && (s.t_root - tout) * last_step_size(cvode_mem) > 0) {
      flag = s.output(cvode_mem, tout, yout, tret, CV_SUCCESS);
    } else {
      s.root_pending = false;
      flag = s.output(cvode_mem, s.t_root, yout, tret, CV_ROOT_RETURN);
    }
  } else if (itask == CV_ONE_STEP) {
    flag = s.call(cvode_mem, tout, yout, tret, CV_ONE_STEP, scratch.get());
  } else {
    flag = s.normal(cvode_mem, tout, yout, tret, scratch.get());
  }
  if (flag >= 0) {
    s.note_return(cvode_mem, *tret, scratch.get());
  } else if (s.failure_flag == 0) {
    s.failure_flag = flag;
  }
  return flag;
}

double CvodeAudit::relative_drift() const { return state().audit.relative_drift(); }
const char* CvodeAudit::verdict() const {
  const State& s = state();
  if (s.failure_flag < 0) return "error";
  if (s.audited == 0 || s.incomplete || !s.diagnosis().empty()) return "incomplete";
  const bool within = s.audit.relative_drift() <= s.audit.threshold() && s.audit.equation_check().passed();
  return within ? "pass" : "fail";
}
double CvodeAudit::equation_residual() const { return state().audit.equation_check().relative_residual(); }
long CvodeAudit::equation_checked_steps() const {
  return static_cast<long>(state().audit.equation_check().checked_steps());
}
double CvodeAudit::equation_threshold() const { return state().audit.equation_check().threshold(); }
void CvodeAudit::set_equation_threshold(double threshold) {
  State& s = state();
  if (s.audit.accepted_steps() > 0) {
    throw InvalidArgument("CvodeAudit: set the equation threshold before the first CVode call");
  }
  s.audit = Audit(AuditOptions{.threshold = s.audit.threshold(), .equation_threshold = threshold, .store_every = 0});
}
bool CvodeAudit::passed() const { return std::string_view(verdict()) == "pass"; }
std::string CvodeAudit::diagnosis() const { return state().diagnosis(); }
long CvodeAudit::audited_steps() const { return state().audited; }
double CvodeAudit::threshold() const { return state().audit.threshold(); }
double CvodeAudit::max_abs_drift() const { return state().audit.max_abs_drift(); }
double CvodeAudit::energy_scale() const { return state().audit.energy_scale(); }
double CvodeAudit::initial_control() const { return state().audit.initial_control(); }
DropInStep CvodeAudit::last_step() const { return state().last; }
int CvodeAudit::dofs() const { return state().dofs; }

void CvodeAudit::print_summary(FILE* out) const {
  const State& s = state();
  std::fprintf(out, "energy audit: delta_C = %.3e (threshold %.1e, %ld steps audited): %s\n",
               relative_drift(), threshold(), s.audited, verdict());
  std::fprintf(out, "energy audit: max |C - C(t0)| = %.3e J, energy scale = %.3e J%s\n", max_abs_drift(),
               energy_scale(), s.incomplete ? ", incomplete (a step was not audited)" : "");
  if (s.audit.equation_check().checked_steps() > 0) {
    std::fprintf(out, "energy audit: equations' relative residual = %.3e (threshold %.1e, %ld steps checked)\n",
                 equation_residual(), equation_threshold(), equation_checked_steps());
  }
  if (const std::string missing = s.diagnosis(); !missing.empty()) {
    std::fprintf(out, "energy audit: %s\n", missing.c_str());
  }
  if (s.failure_flag < 0) {
    const std::unique_ptr<char, decltype(&std::free)> name(CVodeGetReturnFlagName(s.failure_flag), &std::free);
    std::fprintf(out, "energy audit: CVode returned %s at t = %.6g; the run did not finish\n",
                 name ? name.get() : "an error", s.t_audited);
  }
}

}  // namespace energy_audit::sun
