#pragma once
/// \file
/// What CvodeAudit, IdaAudit and ArkodeAudit share: the audit of every step a SUNDIALS solver
/// takes through the program's own solve calls (CVode, IDASolve, ERKStepEvolve, ARKStepEvolve),
/// over one solver's functions given as SolverCalls. A normal-mode call is carried out as
/// one-step calls up to tout, each accepted step audited, then one normal-mode call that only
/// interpolates at tout (no solver steps once tout was passed), so the steps and the solution
/// are those of the plain call.

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <energy_audit/audit.hpp>
#include <energy_audit/energy_terms.hpp>
#include <energy_audit/error.hpp>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>

#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_step.hpp"
#include "energy_audit/sundials/handles.hpp"
#include "energy_audit/sundials/solver_error.hpp"

namespace energy_audit::sun::detail {

/// Where a solve call writes its solution: y, and for IDA also y'.
struct SolverOutput {
  N_Vector y = nullptr;
  N_Vector yp = nullptr;  ///< null for CVODE
};

/// One SUNDIALS solver's functions as the drop-in audit uses them. `interpolate` writes the k-th
/// derivative of the last step's interpolant at t; `output` writes the solution at t as the
/// solver's normal mode would return it. The functions and the names of the solve and
/// interpolation functions are reached through an object, so that one solver with several
/// steppers (ARKODE's ERKStep and ARKStep) may choose them per call; the flags are constants.
template <class Calls>
concept SolverCalls = requires(const Calls calls, void* memory, sunrealtype t, int k, N_Vector v,
                               SolverOutput out, sunrealtype* tret) {
  { calls.solve(memory, t, out, tret, k) } -> std::same_as<int>;
  { calls.steps(memory) } -> std::same_as<long>;
  { calls.current_time(memory) } -> std::same_as<double>;
  { calls.last_step(memory) } -> std::same_as<double>;
  { calls.interpolate(memory, t, k, v) } -> std::same_as<int>;
  { calls.output(memory, t, out) } -> std::same_as<int>;
  { calls.set_stop_time(memory, t) } -> std::same_as<int>;
  { calls.flag_name(k) } -> std::same_as<std::string>;
  { Calls::normal } -> std::convertible_to<int>;
  { Calls::one_step } -> std::convertible_to<int>;
  { Calls::success } -> std::convertible_to<int>;
  { Calls::root_return } -> std::convertible_to<int>;
  { Calls::tstop_return } -> std::convertible_to<int>;
  { Calls::ill_input } -> std::convertible_to<int>;
  { Calls::audit_name } -> std::convertible_to<const char*>;       // "CvodeAudit"
  { calls.solve_name } -> std::convertible_to<const char*>;        // "CVode"
  { Calls::solver_name } -> std::convertible_to<const char*>;      // "CVODE"
  { calls.interpolate_name } -> std::convertible_to<const char*>;  // "CVodeGetDky"
};

/// The right-hand side of a solver's quadrature (CVODES' CVQuadRhsFn).
using QuadratureRhs = int (*)(sunrealtype t, N_Vector y, N_Vector rates, void* user_data);

/// A solver that integrates quadratures of its own (CVODES): Z may be one of them, integrated
/// with the solver's steps from one evaluation of Ż per step. `has_quadrature` says whether the
/// solver has a quadrature set up; `quadrature_at` writes its value at t in the last step.
template <class Calls>
concept QuadratureCalls =
    SolverCalls<Calls> && requires(void* memory, QuadratureRhs rhs, sunrealtype t, N_Vector v) {
  { Calls::has_quadrature(memory) } -> std::same_as<bool>;
  { Calls::start_quadrature(memory, rhs, v) } -> std::same_as<int>;
  { Calls::restart_quadrature(memory, v) } -> std::same_as<int>;
  { Calls::quadrature_at(memory, t, v) } -> std::same_as<int>;
  { Calls::quadrature_name } -> std::convertible_to<const char*>;  // "CVodeGetQuadDky"
};

// 4-point Gauss–Legendre rule on [-1, 1]: exact for polynomials of degree 7.
inline constexpr std::array<double, 4> gauss_nodes{-0.8611363115940526, -0.3399810435848563,
                                                   0.3399810435848563, 0.8611363115940526};
inline constexpr std::array<double, 4> gauss_weights{0.3478548451374538, 0.6521451548625461,
                                                     0.6521451548625461, 0.3478548451374538};

template <SolverCalls Calls>
class DropInAuditState {
 public:
  DropInAuditState(int n, DropInEnergies e, double threshold)
      : dofs(n),
        energies(std::move(e)),
        audit(AuditOptions{
            .threshold = threshold, .equation_threshold = drop_in_equation_threshold, .store_every = 0}) {
    for (const DropInNamedPower& term : energies.named_powers) {
      if (term.name.empty() || !term.power) {
        throw InvalidArgument(std::string(Calls::audit_name) + ": a named power term needs a name and a function" +
                              (term.name.empty() ? "" : " ('" + term.name + "' has none)"));
      }
    }
    works.assign(energies.named_powers.size(), 0.0);
    works_returned = step_works = works;
    if (energies.sum_shares && energies.equation_residual) {
      throw InvalidArgument(std::string(Calls::audit_name) +
                            ": the equation check (equation_residual) needs the whole state in one process; "
                            "it cannot be used with sum_shares");
    }
  }

  Calls calls;  // the solver's functions for the current call
  int dofs;
  DropInEnergies energies;
  Audit audit;
  long audited = 0;
  bool incomplete = false;  // a step went unaudited (taken outside the audit, or an energy function threw)
  int failure_flag = 0;     // the first negative flag a solve call returned
  double t_audited = 0;     // t_n of the last audited step (or the start)
  long first_step_above_threshold = -1;  // the audited step (0: the start) where |C − C0| first exceeded it
  DropInStep last;
  /// W_k of each named power term (DropInEnergies::named_powers), in their order [J].
  std::vector<double> works;
  /// Z and the works as the solver's own quadrature (QuadratureCalls) instead of by Gauss–Legendre
  /// on its interpolant; set before the first solve call.
  bool solver_quadrature = false;

  /// The program's solve call, audited; the arguments were checked by the caller.
  int solve(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, int itask) {
    check_state(out.y);
    Scratch scratch(out.y);
    NVector quadrature_vector;
    if (solver_quadrature) {
      quadrature_vector = NVector(N_VNew_Serial(static_cast<sunindextype>(1 + works.size()), out.y->sunctx));
      if (!quadrature_vector) throw Error("N_VNew_Serial could not make the audit's quadrature vector");
      quadrature = quadrature_vector.get();
    }
    // Ż for the solver's quadrature comes from this audit while this call lasts.
    struct Integrating {
      DropInAuditState* previous = integrating;
      explicit Integrating(DropInAuditState* self) { integrating = self; }
      ~Integrating() { integrating = previous; }
    } integrating_here{this};
    if (zero_v.empty()) {  // sized once the state is known to hold [q, v]: dofs alone may be any int
      minus_v.resize(static_cast<std::size_t>(dofs));
      zero_v.assign(static_cast<std::size_t>(dofs), 0.0);
    }
    NVector derivative_vector;
    if (energies.equation_residual) {
      derivative_vector = clone(out.y);
      derivative = derivative_vector.get();
    }
    // Forgets the scratch vector however this call ends: none is kept between calls.
    struct Forget {
      N_Vector& vector;
      N_Vector& quadrature;
      ~Forget() { vector = quadrature = nullptr; }
    } forget{derivative, quadrature};
    synchronize(memory, scratch);
    int flag = 0;
    if (root_pending) {
      if (itask == Calls::normal && (t_root - tout) * calls.last_step(memory) > 0) {
        flag = output(memory, tout, out, tret, Calls::success);
      } else {
        root_pending = false;
        flag = output(memory, t_root, out, tret, Calls::root_return);
      }
    } else if (itask == Calls::one_step) {
      flag = call(memory, tout, out, tret, Calls::one_step, scratch);
    } else {
      flag = normal(memory, tout, out, tret, scratch);
    }
    if (flag >= 0) {
      note_return(memory, *tret, scratch);
    } else if (failure_flag == 0) {
      failure_flag = flag;
    }
    return flag;
  }

  /// "error", "incomplete", "pass" or "fail" (cvode_drop_in.hpp's verdict()).
  const char* verdict() const {
    if (failure_flag < 0) return "error";
    if (audited == 0 || incomplete || !diagnosis().empty()) return "incomplete";
    const bool within = audit.relative_drift() <= audit.threshold() && audit.equation_check().passed();
    return within ? "pass" : "fail";
  }

  /// What check_time_dependence found, in one line; empty when nothing is missing.
  std::string diagnosis() const {
    std::string line;
    const auto describe = [&line](const MissingRate& missing, const char* what) {
      if (!missing.seen) return;
      char text[256];
      std::snprintf(text, sizeof text, "%s%s (%.3g W at t = %.6g)", line.empty() ? "" : "; ", what,
                    missing.rate, missing.t);
      line += text;
    };
    describe(missing_kinetic_rate,
             "T changes with t at fixed q and v but no kinetic_energy_rate (dT/dt) was given");
    describe(missing_potential_rate,
             "V changes with t at fixed q but no potential_energy_rate (dV/dt) was given");
    if (!line.empty()) line += ": Z misses that power, so delta_C is not judged";
    if (not_quadratic.seen) {
      char text[256];
      std::snprintf(text, sizeof text,
                    "%sT was declared quadratic in v (kinetic_energy_is_quadratic) but has T1 = %.3g J, "
                    "T0 = %.3g J at t = %.6g; T is split at every state from there",
                    line.empty() ? "" : "; ", not_quadratic.T1, not_quadratic.T0, not_quadratic.t);
      line += text;
    }
    return line;
  }

  void print_summary(FILE* out) const {
    std::fprintf(out, "energy audit: delta_C = %.3e (threshold %.1e, %ld steps audited): %s\n",
                 audit.relative_drift(), audit.threshold(), audited, verdict());
    std::fprintf(out, "energy audit: max |C - C(t0)| = %.3e J, energy scale = %.3e J%s\n",
                 audit.max_abs_drift(), audit.energy_scale(),
                 incomplete ? ", incomplete (a step was not audited)" : "");
    if (audit.equation_check().checked_steps() > 0) {
      std::fprintf(out,
                   "energy audit: equations' relative residual = %.3e (threshold %.1e, %ld steps checked)\n",
                   audit.equation_check().relative_residual(), audit.equation_check().threshold(),
                   static_cast<long>(audit.equation_check().checked_steps()));
    }
    for (std::size_t k = 0; k < works.size(); ++k) {
      std::fprintf(out, "energy audit: work W_%s = %+.6g J", energies.named_powers[k].name.c_str(), works[k]);
      if (Z != 0 && std::isfinite(Z)) std::fprintf(out, " (share of Z %+.1f %%)", -100 * works[k] / Z);
      std::fprintf(out, "\n");
    }
    if (const std::string missing = diagnosis(); !missing.empty()) {
      std::fprintf(out, "energy audit: %s\n", missing.c_str());
    }
    if (audit.relative_drift() > audit.threshold()) {
      std::fprintf(out, "energy audit: |C - C(t0)| first above the threshold at step %ld, t = %.6g; grows fastest at t = %.6g\n",
                   first_step_above_threshold, audit.time_first_above_threshold(), audit.time_of_fastest_growth());
    }
    if (failure_flag < 0) {
      std::fprintf(out, "energy audit: %s returned %s at t = %.6g; the run did not finish\n",
                   calls.solve_name, calls.flag_name(failure_flag).c_str(), t_audited);
    }
  }

 private:
  bool started = false;  // the first sample has been recorded
  // The solver stands at t_start with no step taken: its state is read after the first step.
  bool start_pending = false;
  double t_start = 0;
  long steps_seen = 0;  // the solver's step count after the last call

  // A root that the one-step mode found beyond tout, returned on the next call as the normal
  // mode would.
  bool root_pending = false;
  double t_root = 0;

  double Z = 0;
  // Z at the time the solver last returned, for a re-initialization from there.
  bool returned_known = false;
  double t_returned = 0, Z_returned = 0;
  std::vector<double> minus_v, zero_v;
  std::vector<double> works_returned;  // the works at t_returned, as Z_returned
  std::vector<double> step_works;      // the works over the interval of the last flow_integral
  std::vector<double> node_values;     // Ż, then each named power, at the Gauss nodes

  // T (V) seen to change with t at fixed q and v although no ∂T/∂t (∂V/∂t) was given, and the
  // rate seen then: Z misses that power, so δ_C cannot be judged.
  struct MissingRate {
    bool seen = false;
    double rate = 0, t = 0;
  };
  MissingRate missing_kinetic_rate, missing_potential_rate;
  // T declared quadratic in v (DropInEnergies::kinetic_energy_is_quadratic) but found with a T1 or
  // a T0 beyond round-off at one of the first states: T is split at every state from there.
  struct NotQuadratic {
    bool seen = false;
    double T1 = 0, T0 = 0, t = 0;
  };
  NotQuadratic not_quadratic;
  int split_states = 0;  // states whose T was split
  int time_dependence_checks = 0;  // states checked so far, up to checked_states
  N_Vector derivative = nullptr;   // y' at a step's end for the equation check, during one call

  // With solver_quadrature: the solver whose quadrature integrates this rank's shares of Ż and of
  // the named powers, from 0 at its (re)start, where Z and the works were Z_origin and
  // works_origin; the quadrature's value (during one call); an exception from an energy function
  // inside the solver, rethrown once the solver has returned; the audit whose solve call is under
  // way on this thread, which the quadrature's right-hand side serves.
  void* quadrature_memory = nullptr;
  double Z_origin = 0;
  std::vector<double> works_origin, quadrature_values;
  N_Vector quadrature = nullptr;
  std::exception_ptr quadrature_failure;
  static inline thread_local DropInAuditState* integrating = nullptr;

  /// The states at which T and V without a given rate are checked for a dependence on t, and a T
  /// declared quadratic in v is split all the same.
  static constexpr int checked_states = 4;

  void check(int flag, const char* function, double t) const {
    if (flag < 0) throw SolverError(function, flag, calls.flag_name(flag), {}, t);
  }

  void interpolate(void* memory, double t, N_Vector out, int order = 0) const {
    check(calls.interpolate(memory, t, order, out), calls.interpolate_name, t);
  }

  /// Checks that the solver's state holds [q, v] (and the multipliers) in data the audit can read.
  void check_state(N_Vector state) const {
    const sunindextype length = N_VGetLength(state);
    const sunindextype needed = 2 * static_cast<sunindextype>(dofs) + (energies.constraint_power ? 1 : 0);
    if (length < needed) {
      throw InvalidArgument(std::string(Calls::audit_name) + ": the " + Calls::solver_name + " state has " +
                            std::to_string(length) + " entries; the audit of " + std::to_string(dofs) +
                            " coordinates needs y = [q, v" +
                            (energies.constraint_power ? ", multipliers" : "") + "], at least " +
                            std::to_string(needed));
    }
    if (N_VGetArrayPointer(state) == nullptr) {
      throw InvalidArgument(
          "the audit needs an N_Vector whose data N_VGetArrayPointer exposes (serial, OpenMP, pthreads)");
    }
  }

  /// A vector like the state, owned for one call only.
  static NVector clone(N_Vector state) {
    NVector vector(N_VClone(state));
    if (!vector) throw Error("N_VClone could not make a scratch vector for the audit");
    return vector;
  }

  /// A vector like the state for interpolation, made on its first use in a call: with Z as the
  /// solver's quadrature most calls need none.
  class Scratch {
   public:
    explicit Scratch(N_Vector state) : state_(state) {}
    N_Vector vector() {
      if (!owned_) owned_ = clone(state_);
      return owned_.get();
    }
    /// Frees the vector until its next use.
    void release() { owned_.reset(); }

   private:
    N_Vector state_;
    NVector owned_;
  };

  /// The round-off of energies of the size of T and V: a change of T or V, or a T1 or T0, beyond it
  /// is the model's, not the arithmetic's.
  static double round_off_of(const EnergyTerms& e) {
    return 1e3 * std::numeric_limits<double>::epsilon() *
           std::max({std::abs(e.T), std::abs(e.V), std::numeric_limits<double>::min()});
  }

  /// Sums values across the ranks when the state is spread over them (sum_shares).
  void sum_shares(double* values, int count) const {
    if (energies.sum_shares) energies.sum_shares(values, count);
  }

  EnergyTerms energy_terms(const double* q, const double* v, double t) {
    // T declared quadratic in v (T = T2): split only at the first states, which check the claim.
    if (energies.kinetic_energy_is_quadratic && !not_quadratic.seen && split_states >= checked_states) {
      double shares[2] = {energies.kinetic_energy(q, v, t), energies.potential_energy(q, t)};
      sum_shares(shares, 2);
      EnergyTerms e = split_kinetic_energy(shares[0], shares[0], 0.0);
      e.V = shares[1];
      return e;
    }
    ++split_states;
    for (int i = 0; i < dofs; ++i) minus_v[static_cast<std::size_t>(i)] = -v[i];
    // T(q, v), T(q, −v), T(q, 0) and V: this rank's shares, summed before the split.
    double shares[4] = {energies.kinetic_energy(q, v, t), energies.kinetic_energy(q, minus_v.data(), t),
                        energies.kinetic_energy(q, zero_v.data(), t), energies.potential_energy(q, t)};
    sum_shares(shares, 4);
    EnergyTerms e = split_kinetic_energy(shares[0], shares[1], shares[2]);
    e.V = shares[3];
    if (energies.kinetic_energy_is_quadratic && !not_quadratic.seen) {
      const double resolution = round_off_of(e);
      if (std::abs(e.T1) > resolution || std::abs(e.T0) > resolution) not_quadratic = {true, e.T1, e.T0, t};
    }
    return e;
  }

  /// Ż = ∂T/∂t − ∂V/∂t − vᵀf − vᵀGᵀλ over the state y = [q, v, λ].
  double energy_flow_rate(const double* y, double t) const {
    const double* q = y;
    const double* v = y + dofs;
    double rate = 0;
    if (energies.kinetic_energy_rate) rate += energies.kinetic_energy_rate(q, v, t);
    if (energies.potential_energy_rate) rate -= energies.potential_energy_rate(q, t);
    if (energies.nonpotential_power) rate -= energies.nonpotential_power(q, v, t);
    if (energies.constraint_power) rate -= energies.constraint_power(q, v, y + 2 * dofs, t);
    return rate;
  }

  /// Lagrange's equations at the step's end, with the v̇ the solver holds there.
  void check_equations(void* memory, double t, N_Vector state, N_Vector scratch) {
    if (!energies.equation_residual) return;
    interpolate(memory, t, scratch, 1);
    const double* y = N_VGetArrayPointer(state);
    double out[2] = {0, 0};
    energies.equation_residual(y, y + dofs, N_VGetArrayPointer(scratch) + dofs, t, out);
    audit.record_equation_residual({out[0], out[1]});
  }

  /// Whether T (V), given without ∂T/∂t (∂V/∂t), changes with t at fixed q and v at this state:
  /// a function that does not read t returns the same value at t + Δt, while the smallest
  /// dependence that could move δ_C changes it by far more than round-off.
  void check_time_dependence(const double* q, const double* v, double t, const EnergyTerms& e) {
    ++time_dependence_checks;
    const double dt = 1e-6 * std::max(1.0, std::abs(t));
    const double resolution = round_off_of(e);
    const auto note = [&](MissingRate& missing, double at_t, double later) {
      if (missing.seen || std::abs(later - at_t) <= resolution) return;
      missing = {true, (later - at_t) / dt, t};
    };
    double shares[4] = {0, 0, 0, 0};  // T and V at t and t + Δt, this rank's shares
    if (!energies.kinetic_energy_rate) {
      shares[0] = energies.kinetic_energy(q, v, t);
      shares[1] = energies.kinetic_energy(q, v, t + dt);
    }
    if (!energies.potential_energy_rate) {
      shares[2] = energies.potential_energy(q, t);
      shares[3] = energies.potential_energy(q, t + dt);
    }
    sum_shares(shares, 4);
    if (!energies.kinetic_energy_rate) note(missing_kinetic_rate, shares[0], shares[1]);
    if (!energies.potential_energy_rate) note(missing_potential_rate, shares[2], shares[3]);
  }

  /// Records the state in `y` at t with the current Z.
  void record(double t, N_Vector y) {
    const double* data = N_VGetArrayPointer(y);
    const double* q = data;
    const double* v = data + dofs;
    const EnergyTerms e = energy_terms(q, v, t);
    if (time_dependence_checks < checked_states) check_time_dependence(q, v, t, e);
    // No row is read back (store_every = 0): the sample goes without q and v, which the row
    // would copy at every step, a pass over the whole state.
    const Eigen::Map<const Vector> no_coordinates(q, 0);
    audit.record(EnergySample{t, no_coordinates, no_coordinates, e, Z});
    last = DropInStep{t, e.T, e.T2, e.T1, e.T0, e.V, e.H(), Z, e.H() + Z};
    // The sample just recorded ends audited step `audited + 1`, or is the start (step 0).
    if (first_step_above_threshold < 0 && !std::isnan(audit.time_first_above_threshold())) {
      first_step_above_threshold = audit.accepted_steps() == 1 ? 0 : audited + 1;
    }
  }

  /// ∫ Ż dt from a to b, both in the last step, by Gauss–Legendre on the solver's interpolant;
  /// each named power's integral over the same nodes goes to step_works.
  double flow_integral(void* memory, double a, double b, Scratch& scratch) {
    const double t_mid = 0.5 * (a + b), half = 0.5 * (b - a);
    const double* data = N_VGetArrayPointer(scratch.vector());
    constexpr std::size_t nodes = gauss_nodes.size();
    const std::size_t terms = energies.named_powers.size();
    node_values.assign(nodes * (1 + terms), 0.0);  // this rank's shares, summed in one call
    for (std::size_t i = 0; i < nodes; ++i) {
      const double t = t_mid + half * gauss_nodes[i];
      interpolate(memory, t, scratch.vector());
      node_values[i] = energy_flow_rate(data, t);
      for (std::size_t k = 0; k < terms; ++k) {
        node_values[nodes * (1 + k) + i] = energies.named_powers[k].power(data, data + dofs, t);
      }
    }
    sum_shares(node_values.data(), static_cast<int>(node_values.size()));
    double sum = 0;
    for (std::size_t i = 0; i < nodes; ++i) {
      double named = 0;
      for (std::size_t k = 0; k < terms; ++k) named += node_values[nodes * (1 + k) + i];
      sum += gauss_weights[i] * (node_values[i] - named);
    }
    for (std::size_t k = 0; k < terms; ++k) {
      double work = 0;
      for (std::size_t i = 0; i < nodes; ++i) work += gauss_weights[i] * node_values[nodes * (1 + k) + i];
      step_works[k] = half * work;
    }
    return half * sum;
  }

  /// The solver's quadrature right-hand side: this rank's shares of Ż and of each named power at
  /// the state y. No exception leaves it: one is kept for the audit to rethrow, and the solver
  /// stops with a failed quadrature.
  static int quadrature_rates(sunrealtype t, N_Vector y, N_Vector rates, void*) {
    DropInAuditState* self = integrating;
    if (self == nullptr) {  // a plain solve call: its steps are not audited (synchronize says so)
      N_VConst(0.0, rates);
      return 0;
    }
    try {
      const double* data = N_VGetArrayPointer(y);
      double* out = N_VGetArrayPointer(rates);
      out[0] = self->energy_flow_rate(data, t);
      for (std::size_t k = 0; k < self->works.size(); ++k) {
        out[1 + k] = self->energies.named_powers[k].power(data, data + self->dofs, t);
      }
      return 0;
    } catch (...) {
      self->quadrature_failure = std::current_exception();
      return -1;
    }
  }

  /// Starts the solver's quadrature of Ż at 0 where Z and the works stand now: at the solver's
  /// start or re-initialization.
  void start_quadrature(void* memory) {
    if constexpr (QuadratureCalls<Calls>) {
      Z_origin = Z;
      works_origin = works;
      N_VConst(0.0, quadrature);
      if (Calls::has_quadrature(memory)) {
        if (memory != quadrature_memory) {
          throw InvalidArgument(std::string(Calls::audit_name) +
                                ": the program integrates quadratures of its own; Z as the solver's quadrature "
                                "needs it to itself");
        }
        check(Calls::restart_quadrature(memory, quadrature), "CVodeQuadReInit", calls.current_time(memory));
      } else {
        const int flag = Calls::start_quadrature(memory, &DropInAuditState::quadrature_rates, quadrature);
        check(flag, "CVodeQuadInit", calls.current_time(memory));
        quadrature_memory = memory;
      }
    } else {
      throw InvalidArgument(std::string(Calls::audit_name) + ": " + Calls::solver_name +
                            " has no quadratures; Z is integrated on its interpolant");
    }
  }

  /// Z at t in the last step from the solver's quadrature; the works there go to `works_at_t`.
  double quadrature_flow(void* memory, double t, std::vector<double>& works_at_t) {
    if constexpr (QuadratureCalls<Calls>) {
      check(Calls::quadrature_at(memory, t, quadrature), Calls::quadrature_name, t);
      const double* values = N_VGetArrayPointer(quadrature);
      quadrature_values.assign(values, values + 1 + works.size());
      sum_shares(quadrature_values.data(), static_cast<int>(quadrature_values.size()));
      double named = 0;
      for (std::size_t k = 0; k < works.size(); ++k) {
        named += quadrature_values[1 + k];
        works_at_t[k] = works_origin[k] + quadrature_values[1 + k];
      }
      return Z_origin + (quadrature_values[0] - named);
    } else {
      (void)memory, (void)t, (void)works_at_t;
      return Z;  // not reached: start_quadrature refuses such a solver
    }
  }

  /// Audits the step just accepted, [t_n − h, t_n]: Z over it, then the sample at t_n, read from
  /// `step_end` when the solve call returned y(t_n) there (null: from the interpolant, as for a
  /// call that returned at a root before t_n).
  void audit_step(void* memory, Scratch& scratch, N_Vector step_end = nullptr) {
    const double t_end = calls.current_time(memory);
    const double h = calls.last_step(memory);
    if (start_pending) {  // y(t0) from the first step's interpolant (interpolation needs h ≠ 0)
      interpolate(memory, t_start, scratch.vector());
      record(t_start, scratch.vector());
      // With Z as the quadrature the scratch is not needed again at each step's end: the peak
      // memory of the call stays that of the program.
      if (solver_quadrature) scratch.release();
      start_pending = false;
      started = true;
    }
    if (solver_quadrature) {
      Z = quadrature_flow(memory, t_end, works);
    } else {
      Z += flow_integral(memory, t_end - h, t_end, scratch);
      for (std::size_t k = 0; k < works.size(); ++k) works[k] += step_works[k];
    }
    N_Vector state = step_end;
    if (state == nullptr) {
      state = scratch.vector();
      interpolate(memory, t_end, state);
    }
    record(t_end, state);
    if (derivative != nullptr) check_equations(memory, t_end, state, derivative);
    t_audited = t_end;
    ++audited;
  }

  /// Keeps Z at the time the solver returned (an output time before t_n, say), from which the
  /// program may re-initialize the solver.
  void note_return(void* memory, double t, Scratch& scratch) {
    returned_known = false;
    if (!started || start_pending) return;
    const double h = calls.last_step(memory);
    if (t == t_audited) {
      Z_returned = Z;
      works_returned = works;
    } else if (h != 0 && (t - (t_audited - h)) / h >= 0 && (t_audited - t) / h >= 0) {
      if (solver_quadrature) {
        Z_returned = quadrature_flow(memory, t, works_returned);
      } else {
        Z_returned = Z - flow_integral(memory, t, t_audited, scratch);
        for (std::size_t k = 0; k < works.size(); ++k) works_returned[k] = works[k] - step_works[k];
      }
    } else {
      return;
    }
    t_returned = t;
    returned_known = true;
  }

  /// Brings the audit up to the solver before a call: the start, a re-initialization, steps
  /// not seen.
  void synchronize(void* memory, Scratch& scratch) {
    const long steps = calls.steps(memory);
    if (steps == 0) {  // a new or re-initialized solver: (re)start at its current time
      start_pending = true;
      t_start = calls.current_time(memory);
      if (started && returned_known && t_start == t_returned) {  // restarted where it returned
        Z = Z_returned;
        works = works_returned;
      }
      returned_known = false;
      steps_seen = 0;
      root_pending = false;
      if (solver_quadrature) start_quadrature(memory);
      return;
    }
    if (!started && solver_quadrature) {
      throw InvalidArgument(std::string(Calls::audit_name) +
                            ": the solver has taken steps already; Z as its quadrature starts with the solver, "
                            "at its first step or after its re-initialization");
    }
    if (!started) {  // first call on a solver that has stepped already: start where it stands
      const double t = calls.current_time(memory);
      interpolate(memory, t, scratch.vector());
      record(t, scratch.vector());
      t_audited = t;
      started = true;
      start_pending = false;
      steps_seen = steps;
      return;
    }
    if (steps != steps_seen) {
      incomplete = true;
      throw Error(std::string(Calls::audit_name) + ": " + std::to_string(steps - steps_seen) + " " +
                  Calls::solver_name + " step(s) were taken outside " + Calls::audit_name +
                  "::" + calls.solve_name + " and cannot be audited");
    }
  }

  /// One plain solve call that takes at most one step, audited if it took one.
  int call(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, int itask, Scratch& scratch) {
    const int flag = calls.solve(memory, tout, out, tret, itask);
    if (quadrature_failure) {  // an energy function threw inside the solver
      incomplete = true;
      std::rethrow_exception(std::exchange(quadrature_failure, nullptr));
    }
    const long steps = calls.steps(memory);
    if (steps == steps_seen) return flag;
    const long taken = steps - steps_seen;
    steps_seen = steps;
    if (taken != 1) {
      incomplete = true;
      throw Error(std::string(Calls::audit_name) + ": one " + calls.solve_name + " call took " +
                  std::to_string(taken) + " steps; only one can be audited");
    }
    // A call that returned at t_n gave y(t_n) in out.y: the interpolant there is that state, at
    // the cost of an interpolation (a pass over the whole state).
    const bool returned_step_end = flag >= 0 && *tret == calls.current_time(memory);
    try {
      audit_step(memory, scratch, returned_step_end ? out.y : nullptr);
    } catch (...) {
      incomplete = true;
      throw;
    }
    return flag;
  }

  /// The solution at t from the last step's interpolant as the solve call's output.
  int output(void* memory, double t, SolverOutput out, sunrealtype* tret, int flag) {
    if (calls.output(memory, t, out) < 0) return Calls::ill_input;  // as the solver for a tout behind
    *tret = t;
    return flag;
  }

  int normal(void* memory, sunrealtype tout, SolverOutput out, sunrealtype* tret, Scratch& scratch) {
    for (;;) {
      if (calls.steps(memory) > 0 && (calls.current_time(memory) - tout) * calls.last_step(memory) >= 0) {
        break;  // tout reached: the normal mode only interpolates
      }
      const int flag = call(memory, tout, out, tret, Calls::one_step, scratch);
      if (flag < 0) return flag;
      const double h = calls.last_step(memory);
      if (flag == Calls::root_return) {
        if ((*tret - tout) * h <= 0) return flag;
        // The one-step mode found the root beyond tout; the normal mode returns tout first, the
        // root next.
        root_pending = true;
        t_root = *tret;
        return output(memory, tout, out, tret, Calls::success);
      }
      if (flag == Calls::tstop_return) {
        if ((calls.current_time(memory) - tout) * h < 0) return flag;
        // tout reached at the stop time: the one-step mode returned at the stop time and forgot
        // it, where the normal mode (of CVODE and ARKODE 6, and of IDA before 7) returns tout
        // first and keeps the stop time set. With the stop time set again, the normal-mode call
        // below returns as the plain call would, in either order.
        const int rearm = calls.set_stop_time(memory, *tret);
        if (rearm < 0) return rearm;
        break;
      }
    }
    return call(memory, tout, out, tret, Calls::normal, scratch);
  }
};

}  // namespace energy_audit::sun::detail
