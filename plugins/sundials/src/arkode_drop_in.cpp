#include "energy_audit/sundials/arkode_drop_in.hpp"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>

#include <cstdlib>
#include <energy_audit/error.hpp>
#include <memory>
#include <string>
#include <utility>

#include "drop_in_solve_emulation.hpp"
#include "energy_audit/sundials/solver_error.hpp"

namespace energy_audit::sun {
namespace {

/// The evolve function a program called, which fixes the functions that reach its integrator:
/// on SUNDIALS 6 each stepper has its own (ERKStepGetDky, ARKStepGetDky, ...), on SUNDIALS 7
/// ARKODE's (ARKodeGetDky, ...) serve every stepper.
enum class Stepper { erk, ark, any };

/// ARKODE's functions for the drop-in audit (drop_in_solver_calls.hpp), for the stepper of the
/// current call.
struct ArkodeCalls {
  static constexpr int normal = ARK_NORMAL, one_step = ARK_ONE_STEP, success = ARK_SUCCESS,
                       root_return = ARK_ROOT_RETURN, tstop_return = ARK_TSTOP_RETURN,
                       ill_input = ARK_ILL_INPUT;
  static constexpr const char* audit_name = "ArkodeAudit";
  static constexpr const char* solver_name = "ARKODE";
  // ARKODE's Hermite interpolant evaluates f(t_n, y_n) at its first use after a step.
  static constexpr bool interpolation_may_evaluate_rhs = true;

  Stepper stepper = Stepper::erk;
  const char* solve_name = "ERKStepEvolve";
  const char* interpolate_name = "ERKStepGetDky";

  void use(Stepper s) {
    stepper = s;
    solve_name = s == Stepper::erk ? "ERKStepEvolve" : s == Stepper::ark ? "ARKStepEvolve" : "ARKodeEvolve";
#if SUNDIALS_VERSION_MAJOR >= 7
    interpolate_name = "ARKodeGetDky";
#else
    interpolate_name = s == Stepper::erk ? "ERKStepGetDky" : "ARKStepGetDky";
#endif
  }

  int solve(void* memory, sunrealtype tout, detail::SolverOutput out, sunrealtype* tret, int itask) const {
#if SUNDIALS_VERSION_MAJOR >= 7
    return ::ARKodeEvolve(memory, tout, out.y, tret, itask);
#else
    return stepper == Stepper::erk ? ::ERKStepEvolve(memory, tout, out.y, tret, itask)
                                   : ::ARKStepEvolve(memory, tout, out.y, tret, itask);
#endif
  }
  long steps(void* memory) const {
    long count = 0;
#if SUNDIALS_VERSION_MAJOR >= 7
    check(ARKodeGetNumSteps(memory, &count), "ARKodeGetNumSteps");
#else
    if (stepper == Stepper::erk) {
      check(ERKStepGetNumSteps(memory, &count), "ERKStepGetNumSteps");
    } else {
      check(ARKStepGetNumSteps(memory, &count), "ARKStepGetNumSteps");
    }
#endif
    return count;
  }
  double current_time(void* memory) const {
    sunrealtype t = 0;
#if SUNDIALS_VERSION_MAJOR >= 7
    check(ARKodeGetCurrentTime(memory, &t), "ARKodeGetCurrentTime");
#else
    if (stepper == Stepper::erk) {
      check(ERKStepGetCurrentTime(memory, &t), "ERKStepGetCurrentTime");
    } else {
      check(ARKStepGetCurrentTime(memory, &t), "ARKStepGetCurrentTime");
    }
#endif
    return t;
  }
  double last_step(void* memory) const {
    sunrealtype h = 0;
#if SUNDIALS_VERSION_MAJOR >= 7
    check(ARKodeGetLastStep(memory, &h), "ARKodeGetLastStep");
#else
    if (stepper == Stepper::erk) {
      check(ERKStepGetLastStep(memory, &h), "ERKStepGetLastStep");
    } else {
      check(ARKStepGetLastStep(memory, &h), "ARKStepGetLastStep");
    }
#endif
    return h;
  }
  int interpolate(void* memory, sunrealtype t, int k, N_Vector out) const {
#if SUNDIALS_VERSION_MAJOR >= 7
    return ARKodeGetDky(memory, t, k, out);
#else
    return stepper == Stepper::erk ? ERKStepGetDky(memory, t, k, out) : ARKStepGetDky(memory, t, k, out);
#endif
  }
  /// ARK_NORMAL's output at t: the interpolant, as the evolve function itself interpolates.
  int output(void* memory, sunrealtype t, detail::SolverOutput out) const {
    return interpolate(memory, t, 0, out.y);
  }
  int set_stop_time(void* memory, sunrealtype t) const {
#if SUNDIALS_VERSION_MAJOR >= 7
    return ARKodeSetStopTime(memory, t);
#else
    return stepper == Stepper::erk ? ERKStepSetStopTime(memory, t) : ARKStepSetStopTime(memory, t);
#endif
  }
  std::string flag_name(int flag) const {
    // SUNDIALS allocates the name with malloc; the caller frees it.
#if SUNDIALS_VERSION_MAJOR >= 7
    char* allocated = ARKodeGetReturnFlagName(flag);
#else
    char* allocated =
        stepper == Stepper::erk ? ERKStepGetReturnFlagName(flag) : ARKStepGetReturnFlagName(flag);
#endif
    const std::unique_ptr<char, decltype(&std::free)> name(allocated, &std::free);
    return name ? std::string(name.get()) : "flag " + std::to_string(flag);
  }

 private:
  void check(int flag, const char* function) const {
    if (flag < 0) throw SolverError(function, flag, flag_name(flag), {}, 0);
  }
};

/// ARKODE's drop-in audit state, with the evolve call through a chosen stepper's functions.
struct ArkodeState : detail::DropInSolveEmulation<ArkodeCalls> {
  using DropInSolveEmulation::DropInSolveEmulation;

  /// The program's evolve call through `stepper`'s functions, audited.
  int evolve(Stepper stepper, void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
    calls.use(stepper);
    if (arkode_mem == nullptr || yout == nullptr || tret == nullptr ||
        (itask != ARK_NORMAL && itask != ARK_ONE_STEP)) {
      return calls.solve(arkode_mem, tout, detail::SolverOutput{yout, nullptr}, tret, itask);  // ARKODE reports it
    }
    return solve(arkode_mem, tout, detail::SolverOutput{yout, nullptr}, tret, itask);
  }
};

}  // namespace

ArkodeAudit::ArkodeAudit(int dofs, DropInEnergies energies, double threshold)
    : ArkodeAudit(detail::DropInForm{dofs, std::move(energies)}, threshold) {}

ArkodeAudit ArkodeAudit::hamiltonian(int dofs, DropInHamiltonian energies, double threshold) {
  return ArkodeAudit(detail::DropInForm{dofs, std::move(energies)}, threshold);
}

ArkodeAudit ArkodeAudit::whole_state(DropInStateEnergy energies, double threshold) {
  return ArkodeAudit(detail::DropInForm{0, std::move(energies)}, threshold);
}

ArkodeAudit::ArkodeAudit(detail::DropInForm form, double threshold) : DropInAudit("ArkodeAudit") {
  const auto* energies = std::get_if<DropInEnergies>(&form.energies);
  if (energies != nullptr && energies->constraint_power) {
    throw InvalidArgument(
        "ArkodeAudit: constraint_power reads multipliers from the state, and an ARKODE state y = [q, v] has "
        "none; IdaAudit audits programs with multipliers");
  }
  hold(std::make_unique<ArkodeState>(std::move(form), threshold));
}

int ArkodeAudit::ERKStepEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
  return state_as<ArkodeState>().evolve(Stepper::erk, arkode_mem, tout, yout, tret, itask);
}
int ArkodeAudit::ARKStepEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
  return state_as<ArkodeState>().evolve(Stepper::ark, arkode_mem, tout, yout, tret, itask);
}
#if SUNDIALS_VERSION_MAJOR >= 7
int ArkodeAudit::ARKodeEvolve(void* arkode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
  return state_as<ArkodeState>().evolve(Stepper::any, arkode_mem, tout, yout, tret, itask);
}
#endif

void ArkodeAudit::set_equation_threshold(double threshold) { change_equation_threshold(threshold, "evolve"); }

}  // namespace energy_audit::sun
