#include "energy_audit/sundials/ida_drop_in.hpp"

#include <energy_audit/error.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "drop_in_audit_state.hpp"
#include "energy_audit/sundials/integrate_idas.hpp"

namespace energy_audit::sun {
namespace {

void check_ida(int flag, const char* function) {
  if (flag < 0) throw SolverError(function, flag, idas_flag_name(flag), {}, 0);
}

/// IDA's functions for the drop-in audit (drop_in_audit_state.hpp).
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

}  // namespace

struct IdaAudit::State : detail::DropInAuditState<IdaCalls> {
  using DropInAuditState::DropInAuditState;
};

IdaAudit::IdaAudit(int dofs, DropInEnergies energies, double threshold) {
  if (dofs <= 0)
    throw InvalidArgument("IdaAudit: dofs = " + std::to_string(dofs) +
                          "; the number of coordinates must be > 0");
  if (!energies.kinetic_energy || !energies.potential_energy) {
    throw InvalidArgument("IdaAudit: the kinetic and the potential energy are required");
  }
  if (energies.equation_residual) {
    throw InvalidArgument(
        "IdaAudit: equation_residual checks Lagrange's equations without multipliers, which an IDA program's "
        "residual holds; leave it empty");
  }
  state_ = std::make_unique<State>(dofs, std::move(energies), threshold);
}

IdaAudit::IdaAudit(IdaAudit&&) noexcept = default;
IdaAudit& IdaAudit::operator=(IdaAudit&&) noexcept = default;
IdaAudit::~IdaAudit() = default;

IdaAudit::State& IdaAudit::state() const {
  if (!state_) throw Error("IdaAudit: used after it was moved from");
  return *state_;
}

int IdaAudit::IDASolve(void* ida_mem, sunrealtype tout, sunrealtype* tret, N_Vector yret, N_Vector ypret,
                       int itask) {
  if (ida_mem == nullptr || yret == nullptr || ypret == nullptr || tret == nullptr ||
      (itask != IDA_NORMAL && itask != IDA_ONE_STEP)) {
    return ::IDASolve(ida_mem, tout, tret, yret, ypret, itask);  // IDA reports the bad argument
  }
  return state().solve(ida_mem, tout, detail::SolverOutput{yret, ypret}, tret, itask);
}

double IdaAudit::relative_drift() const { return state().audit.relative_drift(); }
const char* IdaAudit::verdict() const { return state().verdict(); }
bool IdaAudit::passed() const { return std::string_view(verdict()) == "pass"; }
std::string IdaAudit::diagnosis() const { return state().diagnosis(); }
long IdaAudit::audited_steps() const { return state().audited; }
double IdaAudit::threshold() const { return state().audit.threshold(); }
double IdaAudit::max_abs_drift() const { return state().audit.max_abs_drift(); }
long IdaAudit::first_step_above_threshold() const { return state().first_step_above_threshold; }
double IdaAudit::time_first_above_threshold() const { return state().audit.time_first_above_threshold(); }
double IdaAudit::time_of_fastest_growth() const { return state().audit.time_of_fastest_growth(); }
double IdaAudit::energy_scale() const { return state().audit.energy_scale(); }
double IdaAudit::initial_control() const { return state().audit.initial_control(); }
DropInStep IdaAudit::last_step() const { return state().last; }
std::vector<double> IdaAudit::named_works() const { return state().works; }
int IdaAudit::dofs() const { return state().dofs; }
void IdaAudit::print_summary(FILE* out) const { state().print_summary(out); }

}  // namespace energy_audit::sun
