#include "energy_audit/sundials/ida_drop_in.hpp"

#include <energy_audit/error.hpp>
#include <memory>
#include <string>
#include <utility>

#include "drop_in_solve_emulation.hpp"
#include "energy_audit/sundials/integrate_idas.hpp"

namespace energy_audit::sun {
namespace {

void check_ida(int flag, const char* function) {
  if (flag < 0) throw SolverError(function, flag, idas_flag_name(flag), {}, 0);
}

/// IDA's functions for the drop-in audit (drop_in_solver_calls.hpp).
struct IdaCalls {
  static constexpr int normal = IDA_NORMAL, one_step = IDA_ONE_STEP, success = IDA_SUCCESS,
                       root_return = IDA_ROOT_RETURN, tstop_return = IDA_TSTOP_RETURN,
                       ill_input = IDA_ILL_INPUT;
  static constexpr const char* audit_name = "IdaAudit";
  static constexpr const char* solve_name = "IDASolve";
  static constexpr const char* solver_name = "IDA";
  static constexpr const char* interpolate_name = "IDAGetDky";

  static int solve(void* memory, sunrealtype tout, detail::SolverOutput out, sunrealtype* tret, int itask) {
    return ::IDASolve(memory, tout, tret, out.y, out.yp, itask);
  }
  static long steps(void* memory) {
    long count = 0;
    check_ida(IDAGetNumSteps(memory, &count), "IDAGetNumSteps");
    return count;
  }
  static double current_time(void* memory) {
    sunrealtype t = 0;
    check_ida(IDAGetCurrentTime(memory, &t), "IDAGetCurrentTime");
    return t;
  }
  static double last_step(void* memory) {
    sunrealtype h = 0;
    check_ida(IDAGetLastStep(memory, &h), "IDAGetLastStep");
    return h;
  }
  static int interpolate(void* memory, sunrealtype t, int k, N_Vector out) {
    return IDAGetDky(memory, t, k, out);
  }
  /// y and y' at t by IDAGetDky (IDA's own interpolation routine for IDASolve is not public).
  static int output(void* memory, sunrealtype t, detail::SolverOutput out) {
    const int flag = IDAGetDky(memory, t, 0, out.y);
    return flag < 0 ? flag : IDAGetDky(memory, t, 1, out.yp);
  }
  static int set_stop_time(void* memory, sunrealtype t) { return IDASetStopTime(memory, t); }
  static std::string flag_name(int flag) { return idas_flag_name(flag); }
};

using IdaState = detail::DropInSolveEmulation<IdaCalls>;

}  // namespace

IdaAudit::IdaAudit(int dofs, DropInEnergies energies, double threshold)
    : IdaAudit(detail::DropInForm{dofs, std::move(energies)}, threshold) {}

IdaAudit IdaAudit::hamiltonian(int dofs, DropInHamiltonian energies, double threshold) {
  return IdaAudit(detail::DropInForm{dofs, std::move(energies)}, threshold);
}

IdaAudit IdaAudit::whole_state(DropInStateEnergy energies, double threshold) {
  return IdaAudit(detail::DropInForm{0, std::move(energies)}, threshold);
}

IdaAudit::IdaAudit(detail::DropInForm form, double threshold) : DropInAudit("IdaAudit") {
  const auto* energies = std::get_if<DropInEnergies>(&form.energies);
  if (energies != nullptr && energies->equation_residual) {
    throw InvalidArgument(
        "IdaAudit: equation_residual checks Lagrange's equations without multipliers, which an IDA program's "
        "residual holds; leave it empty");
  }
  hold(std::make_unique<IdaState>(std::move(form), threshold));
}

int IdaAudit::IDASolve(void* ida_mem, sunrealtype tout, sunrealtype* tret, N_Vector yret, N_Vector ypret,
                       int itask) {
  if (ida_mem == nullptr || yret == nullptr || ypret == nullptr || tret == nullptr ||
      (itask != IDA_NORMAL && itask != IDA_ONE_STEP)) {
    return ::IDASolve(ida_mem, tout, tret, yret, ypret, itask);  // IDA reports the bad argument
  }
  return state_as<IdaState>().solve(ida_mem, tout, detail::SolverOutput{yret, ypret}, tret, itask);
}

}  // namespace energy_audit::sun
