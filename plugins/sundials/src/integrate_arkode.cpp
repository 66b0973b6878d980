#include "energy_audit/sundials/integrate_arkode.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#if EA_ARKODE_HAS_SPRK
#include <arkode/arkode_sprkstep.h>
#endif
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include "energy_audit/sundials/adaptive_interval.hpp"
#include "energy_audit/sundials/butcher_tables.hpp"

// SUNDIALS 6 reaches each ARKODE integrator through its stepper's functions (ERKStepEvolve,
// ARKStepEvolve, ...); SUNDIALS 7 through ARKODE's own (ARKodeEvolve, ...), the stepper's being
// deprecated. The functions below pick one or the other; creating, re-initializing and choosing
// the table are the stepper's own in both.
#if SUNDIALS_VERSION_MAJOR >= 7
#define EA_ARKODE_CALL(erk_function, ark_function, arkode_function, ...) arkode_function(__VA_ARGS__)
#define EA_ARKODE_NAME(erk_function, ark_function, arkode_function) #arkode_function
#else
#define EA_ARKODE_CALL(erk_function, ark_function, arkode_function, ...) \
  (explicit_stepper ? erk_function(__VA_ARGS__) : ark_function(__VA_ARGS__))
#define EA_ARKODE_NAME(erk_function, ark_function, arkode_function) \
  (explicit_stepper ? #erk_function : #ark_function)
#endif

namespace energy_audit::sun {

const char* arkode_relaxation_problem() {
  return arkode_has_relaxation
             ? ""
             : "relaxation needs SUNDIALS 6.6 or later (ARKODE's relaxation); found " SUNDIALS_VERSION;
}

}  // namespace energy_audit::sun

namespace energy_audit::sun::detail {
namespace {

static_assert(ARK_WARNING == 99, "SUNDIALS 6's message handler takes ARKODE's warnings as CVODE's (99)");

/// The name of an ARKODE return flag ("ARK_TOO_MUCH_WORK").
std::string flag_name([[maybe_unused]] bool explicit_stepper, int flag) {
  // SUNDIALS allocates the name with malloc; the caller frees it.
  const std::unique_ptr<char, decltype(&std::free)> name(
      EA_ARKODE_CALL(ERKStepGetReturnFlagName, ARKStepGetReturnFlagName, ARKodeGetReturnFlagName, flag),
      &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

/// Throws SolverError for a negative flag.
void check(bool explicit_stepper, int flag, const char* function, const CallbackData& data, double t) {
  if (flag < 0) throw SolverError(function, flag, flag_name(explicit_stepper, flag), data.last_message, t);
}

void capture_messages(ArkodeSolver& solver, CallbackData& data, [[maybe_unused]] bool explicit_stepper) {
#if SUNDIALS_VERSION_MAJOR >= 7
  solver.messages.capture_arkode(solver.context, data);
#else
  void* memory = solver.memory.get();
  check_message_setup(explicit_stepper ? ERKStepSetErrHandlerFn(memory, handle_sundials6_message, &data)
                                       : ARKStepSetErrHandlerFn(memory, handle_sundials6_message, &data),
                      explicit_stepper ? "ERKStepSetErrHandlerFn" : "ARKStepSetErrHandlerFn");
#endif
}

/// The stop time, and the fixed step (which SUNDIALS 6 may reset on a re-initialization).
void set_step_and_stop_time(void* memory, bool explicit_stepper, double t0, double t1, CallbackData& data,
                            const ArkodeOptions& options) {
  const auto call = [&](int flag, const char* function) {
    check(explicit_stepper, flag, function, data, t0);
  };
  call(EA_ARKODE_CALL(ERKStepSetStopTime, ARKStepSetStopTime, ARKodeSetStopTime, memory, t1),
       EA_ARKODE_NAME(ERKStepSetStopTime, ARKStepSetStopTime, ARKodeSetStopTime));
  if (options.fixed_step > 0) {
    call(EA_ARKODE_CALL(ERKStepSetFixedStep, ARKStepSetFixedStep, ARKodeSetFixedStep, memory,
                        options.fixed_step),
         EA_ARKODE_NAME(ERKStepSetFixedStep, ARKStepSetFixedStep, ARKodeSetFixedStep));
  }
}

/// The Newton iterations a DIRK stage may take at a fixed step (ARKODE's default: 3).
constexpr int fixed_step_newton_iterations = 10;

/// The table a run of `options` takes; throws InvalidArgument for one ARKODE does not have (naming
/// its tables), without an embedded method for adaptive steps, or that relaxation cannot take
/// (naming the ones it can).
const ArkodeTable& checked_table(const ArkodeOptions& options, bool adaptive) {
  const TableKind kind = table_kind(options.stepper);
  const char* kind_name = table_kind_name(kind);
  const ArkodeTable* table = chosen_table(kind, options.table, options.relax);
  if (!table) {
    const char* family = kind == TableKind::Explicit             ? "explicit tables"
                         : kind == TableKind::DiagonallyImplicit ? "diagonally implicit tables"
                                                                 : "SPRK methods";
    throw InvalidArgument(std::string("unknown ") + kind_name + " table " + options.table + " (ARKODE's " + family +
                          ": " + table_names(kind) + ")");
  }
  if (adaptive && table->embedded_order == 0) {
    throw InvalidArgument(std::string(kind_name) + " table " + table->name +
                          " has no embedded method to choose adaptive steps with: give a fixed step");
  }
  if (options.relax) {
    if (const std::string problem = relaxation_problem(*table); !problem.empty()) {
      throw InvalidArgument("relaxation: " + problem + " (the " + kind_name +
                            " tables relaxation takes: " + relaxable_table_names(kind) + ")");
    }
  }
  return *table;
}

/// Throws InvalidArgument for options ARKODE would refuse; returns the table the run takes.
const ArkodeTable& check_options(const ArkodeOptions& options, double t0, double t1) {
  if (options.relax && !arkode_has_relaxation) throw InvalidArgument(arkode_relaxation_problem());
  const bool adaptive = !(options.fixed_step > 0);
  if (options.stepper == ArkodeStepper::Sprk) {
    if (!arkode_has_sprk) throw InvalidArgument(arkode_sprk_problem());
    if (options.relax) throw InvalidArgument("relaxation is for ERKStep and ARKStep, not SPRKStep");
    if (adaptive && options.fixed_step == 0) {
      throw InvalidArgument("SPRKStep takes a fixed step (its methods have no error estimate to adapt one)");
    }
  }
  if (!(options.fixed_step >= 0) || !std::isfinite(options.fixed_step)) {
    throw InvalidArgument("the fixed step must be finite and > 0 (0: adaptive steps)");
  }
  if (adaptive && (!(options.rtol > 0) || !(options.atol > 0)))
    throw InvalidArgument("rtol and atol must be > 0");
  if (!(options.max_steps > 0)) throw InvalidArgument("max_steps must be > 0");
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  return checked_table(options, adaptive);
}

/// Relaxes the steps with `relaxation` (a run with options.relax on SUNDIALS >= 6.6).
void set_relaxation(void* memory, [[maybe_unused]] bool explicit_stepper, const RelaxationFunctions& relaxation,
                    CallbackData& data, double t0) {
#if EA_ARKODE_HAS_RELAXATION
  check(explicit_stepper,
        EA_ARKODE_CALL(ERKStepSetRelaxFn, ARKStepSetRelaxFn, ARKodeSetRelaxFn, memory, relaxation.energy,
                       relaxation.gradient),
        EA_ARKODE_NAME(ERKStepSetRelaxFn, ARKStepSetRelaxFn, ARKodeSetRelaxFn), data, t0);
  const double residual_tolerance = 10 * std::numeric_limits<double>::epsilon() * relaxation.energy_scale;
  if (residual_tolerance > 0) {  // 0 or less: ARKODE's default
    check(explicit_stepper,
          EA_ARKODE_CALL(ERKStepSetRelaxResTol, ARKStepSetRelaxResTol, ARKodeSetRelaxResTol, memory,
                         residual_tolerance),
          EA_ARKODE_NAME(ERKStepSetRelaxResTol, ARKStepSetRelaxResTol, ARKodeSetRelaxResTol), data, t0);
  }
#else
  (void)memory, (void)relaxation, (void)data, (void)t0;
  throw InvalidArgument(arkode_relaxation_problem());
#endif
}

/// The step attempts that failed so far: error tests and relaxations.
long attempts_failed(void* memory, const ArkodeOptions& options) {
  [[maybe_unused]] const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  long error_tests = 0, relaxations = 0;
  EA_ARKODE_CALL(ERKStepGetNumErrTestFails, ARKStepGetNumErrTestFails, ARKodeGetNumErrTestFails, memory,
                 &error_tests);
#if EA_ARKODE_HAS_RELAXATION
  EA_ARKODE_CALL(ERKStepGetNumRelaxFails, ARKStepGetNumRelaxFails, ARKodeGetNumRelaxFails, memory, &relaxations);
#endif
  return error_tests + relaxations;
}

/// The relaxation counters of a relaxed run.
RelaxationCounters read_relaxation_counters([[maybe_unused]] void* memory, [[maybe_unused]] bool explicit_stepper) {
  RelaxationCounters c;
#if EA_ARKODE_HAS_RELAXATION
  EA_ARKODE_CALL(ERKStepGetNumRelaxFnEvals, ARKStepGetNumRelaxFnEvals, ARKodeGetNumRelaxFnEvals, memory,
                 &c.energy_evaluations);
  EA_ARKODE_CALL(ERKStepGetNumRelaxJacEvals, ARKStepGetNumRelaxJacEvals, ARKodeGetNumRelaxJacEvals, memory,
                 &c.gradient_evaluations);
  EA_ARKODE_CALL(ERKStepGetNumRelaxFails, ARKStepGetNumRelaxFails, ARKodeGetNumRelaxFails, memory, &c.failures);
  EA_ARKODE_CALL(ERKStepGetNumRelaxSolveIters, ARKStepGetNumRelaxSolveIters, ARKodeGetNumRelaxSolveIters, memory,
                 &c.solver_iterations);
#endif
  return c;
}

const char* stepper_name(ArkodeStepper stepper) {
  switch (stepper) {
    case ArkodeStepper::Erk: return "ERKStep";
    case ArkodeStepper::Dirk: return "ARKStep";
    case ArkodeStepper::Sprk: return "SPRKStep";
  }
  return "";
}

void* create_stepper(ArkodeStepper stepper, const ArkodeRhs& rhs, double t0, N_Vector y, SUNContext context) {
  switch (stepper) {
    case ArkodeStepper::Erk: return ERKStepCreate(rhs.f, t0, y, context);
    case ArkodeStepper::Dirk: return ARKStepCreate(nullptr, rhs.f, t0, y, context);
    case ArkodeStepper::Sprk:
#if EA_ARKODE_HAS_SPRK
      return SPRKStepCreate(rhs.kick, rhs.drift, t0, y, context);
#else
      return nullptr;  // check_options refuses SPRKStep below SUNDIALS 7
#endif
  }
  return nullptr;
}

}  // namespace

void ArkodeMemoryDeleter::operator()(void* memory) const {
#if SUNDIALS_VERSION_MAJOR >= 7
  ARKodeFree(&memory);
#else
  if (stepper == ArkodeStepper::Erk) {
    ERKStepFree(&memory);
  } else {
    ARKStepFree(&memory);
  }
#endif
}

const char* evolve_name([[maybe_unused]] const ArkodeOptions& options) {
  [[maybe_unused]] const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  return EA_ARKODE_NAME(ERKStepEvolve, ARKStepEvolve, ARKodeEvolve);
}

int too_much_work_flag() { return ARK_TOO_MUCH_WORK; }

void configure(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, const ArkodeRhs& rhs,
               CallbackData& data, const ArkodeOptions& options, const RelaxationFunctions& relaxation) {
  const ArkodeTable& table = check_options(options, t0, t1);
  const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  SUNContext context = solver.context;
  const auto length = static_cast<sunindextype>(y0.size());
  solver.y = make_serial_vector(length, context);
  view(solver.y.get()) = y0;

  solver.memory = ArkodeMemory(create_stepper(options.stepper, rhs, t0, solver.y.get(), context),
                               ArkodeMemoryDeleter{options.stepper});
  if (!solver.memory) throw energy_audit::Error(std::string(stepper_name(options.stepper)) + "Create failed");
  void* memory = solver.memory.get();
  capture_messages(solver, data, explicit_stepper);
  const auto call = [&](int flag, const char* function) {
    check(explicit_stepper, flag, function, data, t0);
  };
  CallbackData* callback_data = &data;  // user_data points to the base; problem_of() casts back
  call(EA_ARKODE_CALL(ERKStepSetUserData, ARKStepSetUserData, ARKodeSetUserData, memory, callback_data),
       EA_ARKODE_NAME(ERKStepSetUserData, ARKStepSetUserData, ARKodeSetUserData));
  switch (options.stepper) {
    case ArkodeStepper::Erk: call(ERKStepSetTableName(memory, table.name.c_str()), "ERKStepSetTableName"); break;
    case ArkodeStepper::Dirk:  // the implicit table alone: no explicit part
      call(ARKStepSetTableNum(memory, static_cast<ARKODE_DIRKTableID>(table.id), ARKODE_ERK_NONE),
           "ARKStepSetTableNum");
      break;
    case ArkodeStepper::Sprk:
#if EA_ARKODE_HAS_SPRK
      call(SPRKStepSetMethodName(memory, table.name.c_str()), "SPRKStepSetMethodName");
#endif
      break;
  }
  if (options.fixed_step > 0) {
    set_step_and_stop_time(memory, explicit_stepper, t0, t1, data, options);
  } else {
    call(EA_ARKODE_CALL(ERKStepSStolerances, ARKStepSStolerances, ARKodeSStolerances, memory, options.rtol,
                        options.atol),
         EA_ARKODE_NAME(ERKStepSStolerances, ARKStepSStolerances, ARKodeSStolerances));
    set_step_and_stop_time(memory, explicit_stepper, t0, t1, data, options);
    if (options.initial_step > 0) {
      call(EA_ARKODE_CALL(ERKStepSetInitStep, ARKStepSetInitStep, ARKodeSetInitStep, memory,
                          options.initial_step),
           EA_ARKODE_NAME(ERKStepSetInitStep, ARKStepSetInitStep, ARKodeSetInitStep));
    }
    if (options.max_step > 0) {
      call(EA_ARKODE_CALL(ERKStepSetMaxStep, ARKStepSetMaxStep, ARKodeSetMaxStep, memory, options.max_step),
           EA_ARKODE_NAME(ERKStepSetMaxStep, ARKStepSetMaxStep, ARKodeSetMaxStep));
    }
  }
  if (options.stepper == ArkodeStepper::Dirk) {  // Newton (ARKStep's default) with a dense linear solver
    solver.jacobian.reset(SUNDenseMatrix(length, length, context));
    solver.linear_solver.reset(SUNLinSol_Dense(solver.y.get(), solver.jacobian.get(), context));
    if (!solver.jacobian || !solver.linear_solver)
      throw energy_audit::Error("dense linear solver not created");
    call(EA_ARKODE_CALL(ARKStepSetLinearSolver, ARKStepSetLinearSolver, ARKodeSetLinearSolver, memory,
                        solver.linear_solver.get(), solver.jacobian.get()),
         EA_ARKODE_NAME(ARKStepSetLinearSolver, ARKStepSetLinearSolver, ARKodeSetLinearSolver));
    // Adaptive steps recover from a Newton iteration that has not converged after ARKODE's 3 by a
    // smaller step; a fixed step cannot, and the run would end there: more iterations instead.
    if (options.fixed_step > 0) {
      call(EA_ARKODE_CALL(ARKStepSetMaxNonlinIters, ARKStepSetMaxNonlinIters, ARKodeSetMaxNonlinIters, memory,
                          fixed_step_newton_iterations),
           EA_ARKODE_NAME(ARKStepSetMaxNonlinIters, ARKStepSetMaxNonlinIters, ARKodeSetMaxNonlinIters));
    }
  }
  // Kept by ARKODE across *ReInit: set once.
  if (options.relax) set_relaxation(memory, explicit_stepper, relaxation, data, t0);
}

void reinitialize(ArkodeSolver& solver, const ConstVectorRef& y0, double t0, double t1, const ArkodeRhs& rhs,
                  CallbackData& data, const ArkodeOptions& options) {
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  void* memory = solver.memory.get();
  view(solver.y.get()) = y0;
  switch (options.stepper) {
    case ArkodeStepper::Erk:
      check(true, ERKStepReInit(memory, rhs.f, t0, solver.y.get()), "ERKStepReInit", data, t0);
      break;
    case ArkodeStepper::Dirk:
      check(false, ARKStepReInit(memory, nullptr, rhs.f, t0, solver.y.get()), "ARKStepReInit", data, t0);
      break;
    case ArkodeStepper::Sprk:
#if EA_ARKODE_HAS_SPRK
      check(false, SPRKStepReInit(memory, rhs.kick, rhs.drift, t0, solver.y.get()), "SPRKStepReInit", data, t0);
#endif
      break;
  }
  set_step_and_stop_time(memory, explicit_stepper, t0, t1, data, options);
}

int take_one_step(ArkodeSolver& solver, double tout, double& t, const CallbackData& data,
                  const ArkodeOptions& options) {
  void* memory = solver.memory.get();
  [[maybe_unused]] const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  // ARKODE adds the fixed step to its time, and the sum of n steps may fall short of the stop
  // time by more than its round-off allowance: the last step would then be followed by one of a
  // few ulps. A last step within round-off of h is taken as the step that reaches the stop time.
  const double h = options.fixed_step, remaining = tout - t;
  if (h > 0 && remaining != h && std::abs(remaining - h) <= 1e-8 * h) {
    check(explicit_stepper,
          EA_ARKODE_CALL(ERKStepSetFixedStep, ARKStepSetFixedStep, ARKodeSetFixedStep, memory, remaining),
          EA_ARKODE_NAME(ERKStepSetFixedStep, ARKStepSetFixedStep, ARKodeSetFixedStep), data, t);
  }
  // Relaxation scales each step by its factor γ, the time too: the step ARKODE aims at the stop
  // time ends γ h after the previous time, off the stop time by (γ − 1) h. Such a step, taken as
  // aimed (no failed attempt in between), is taken as the state at the stop time: the relaxed state
  // then stands for the unrelaxed step's time, which changes the time of that one step within the
  // method's local error and keeps H where relaxation put it.
  sunrealtype next_step = 0;
  long failures_before = 0;
  if (options.relax) {
    EA_ARKODE_CALL(ERKStepGetCurrentStep, ARKStepGetCurrentStep, ARKodeGetCurrentStep, memory, &next_step);
    failures_before = attempts_failed(memory, options);
  }
  sunrealtype reached = t;
  const int flag = EA_ARKODE_CALL(ERKStepEvolve, ARKStepEvolve, ARKodeEvolve, memory, tout, solver.y.get(),
                                  &reached, ARK_ONE_STEP);
  if (options.relax && flag >= 0 && reached != tout) {
    const double round_off = 16 * std::numeric_limits<double>::epsilon() * (std::abs(t) + std::abs(next_step));
    const bool aimed_at_stop = std::abs(t + next_step - tout) <= round_off;
    if (aimed_at_stop && attempts_failed(memory, options) == failures_before) reached = tout;
  }
  t = reached;
  return flag;
}

SolverCounters read_counters(void* memory, const ArkodeOptions& options) {
  [[maybe_unused]] const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  SolverCounters c;
  EA_ARKODE_CALL(ERKStepGetNumSteps, ARKStepGetNumSteps, ARKodeGetNumSteps, memory, &c.steps);
  EA_ARKODE_CALL(ERKStepGetNumErrTestFails, ARKStepGetNumErrTestFails, ARKodeGetNumErrTestFails, memory,
                 &c.error_test_failures);
#if SUNDIALS_VERSION_MAJOR > 7 || (SUNDIALS_VERSION_MAJOR == 7 && SUNDIALS_VERSION_MINOR >= 2)
  if (options.stepper == ArkodeStepper::Sprk) {  // kicks and drifts: each one half of the rates
    long kicks = 0, drifts = 0;
    ARKodeGetNumRhsEvals(memory, 0, &kicks);
    ARKodeGetNumRhsEvals(memory, 1, &drifts);
    c.rhs_evaluations = kicks + drifts;
  } else {
    ARKodeGetNumRhsEvals(memory, explicit_stepper ? 0 : 1,
                         &c.rhs_evaluations);  // ARKStep: fi, the implicit part
  }
#elif EA_ARKODE_HAS_SPRK
  if (options.stepper == ArkodeStepper::Sprk) {
    long kicks = 0, drifts = 0;
    SPRKStepGetNumRhsEvals(memory, &kicks, &drifts);
    c.rhs_evaluations = kicks + drifts;
  } else if (explicit_stepper) {
    ERKStepGetNumRhsEvals(memory, &c.rhs_evaluations);
  } else {
    long explicit_part = 0;
    ARKStepGetNumRhsEvals(memory, &explicit_part, &c.rhs_evaluations);
  }
#else
  if (explicit_stepper) {
    ERKStepGetNumRhsEvals(memory, &c.rhs_evaluations);
  } else {
    long explicit_part = 0;
    ARKStepGetNumRhsEvals(memory, &explicit_part, &c.rhs_evaluations);
  }
#endif
  if (options.stepper == ArkodeStepper::Dirk) {
    EA_ARKODE_CALL(ARKStepGetNumNonlinSolvIters, ARKStepGetNumNonlinSolvIters, ARKodeGetNumNonlinSolvIters,
                   memory, &c.nonlinear_iterations);
    EA_ARKODE_CALL(ARKStepGetNumNonlinSolvConvFails, ARKStepGetNumNonlinSolvConvFails,
                   ARKodeGetNumNonlinSolvConvFails, memory, &c.nonlinear_convergence_failures);
    EA_ARKODE_CALL(ARKStepGetNumJacEvals, ARKStepGetNumJacEvals, ARKodeGetNumJacEvals, memory,
                   &c.jacobian_evaluations);
    EA_ARKODE_CALL(ARKStepGetNumLinRhsEvals, ARKStepGetNumLinRhsEvals, ARKodeGetNumLinRhsEvals, memory,
                   &c.jacobian_rhs_evaluations);
  }
  if (options.relax) {
    c.relaxed = true;
    c.relaxation = read_relaxation_counters(memory, explicit_stepper);
  }
  return c;
}

void fail(ArkodeSolver& solver, int flag, const char* function, const CallbackData& data,
          const ArkodeOptions& options) {
  const bool explicit_stepper = options.stepper == ArkodeStepper::Erk;
  void* memory = solver.memory.get();
  sunrealtype t = 0;
  EA_ARKODE_CALL(ERKStepGetCurrentTime, ARKStepGetCurrentTime, ARKodeGetCurrentTime, memory, &t);
  const std::string message = failure_message(data, flag == ARK_TOO_MUCH_WORK, options.max_steps);
  throw ArkodeFailure(SolverError(function, flag, flag_name(explicit_stepper, flag), message, t),
                      read_counters(memory, options));
}

}  // namespace energy_audit::sun::detail
