#include "energy_audit/sundials/cvode_drop_in.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include <energy_audit/error.hpp>

#include "drop_in_audit_state.hpp"
#include "energy_audit/sundials/cvode_check.hpp"

namespace energy_audit::sun {
namespace {

/// CVODE's functions for the drop-in audit (drop_in_audit_state.hpp).
struct CvodeCalls {
  static constexpr int normal = CV_NORMAL, one_step = CV_ONE_STEP, success = CV_SUCCESS,
                       root_return = CV_ROOT_RETURN, tstop_return = CV_TSTOP_RETURN, ill_input = CV_ILL_INPUT;
  static constexpr const char* audit_name = "CvodeAudit";
  static constexpr const char* solve_name = "CVode";
  static constexpr const char* solver_name = "CVODE";
  static constexpr const char* interpolate_name = "CVodeGetDky";

  static int solve(void* memory, sunrealtype tout, detail::SolverOutput out, sunrealtype* tret, int itask) {
    return ::CVode(memory, tout, out.y, tret, itask);
  }
  static long steps(void* memory) {
    long count = 0;
    check_cvode(CVodeGetNumSteps(memory, &count), "CVodeGetNumSteps");
    return count;
  }
  static double current_time(void* memory) {
    sunrealtype t = 0;
    check_cvode(CVodeGetCurrentTime(memory, &t), "CVodeGetCurrentTime");
    return t;
  }
  static double last_step(void* memory) {
    sunrealtype h = 0;
    check_cvode(CVodeGetLastStep(memory, &h), "CVodeGetLastStep");
    return h;
  }
  static int interpolate(void* memory, sunrealtype t, int k, N_Vector out) { return CVodeGetDky(memory, t, k, out); }
  /// CV_NORMAL's output at t: CVodeGetDky, as CVode itself interpolates.
  static int output(void* memory, sunrealtype t, detail::SolverOutput out) { return CVodeGetDky(memory, t, 0, out.y); }
  static int set_stop_time(void* memory, sunrealtype t) { return CVodeSetStopTime(memory, t); }
  /// Whether CVODES integrates a quadrature on this solver. CVODES' quadrature getters report an
  /// error (printed by its error handler) on a solver without one; its statistics list the
  /// quadrature's only when there is one, so they are read instead, into memory.
  static bool has_quadrature(void* memory) {
    char* text = nullptr;
    std::size_t size = 0;
    FILE* stats = open_memstream(&text, &size);
    if (stats == nullptr) throw Error("CvodeAudit: open_memstream failed; CVODES' statistics cannot be read");
    const int flag = CVodePrintAllStats(memory, stats, SUN_OUTPUTFORMAT_TABLE);
    std::fclose(stats);
    const bool found =
        flag == CV_SUCCESS && std::string_view(text, size).find("Quad") != std::string_view::npos;
    std::free(text);
    check_cvode(flag, "CVodePrintAllStats");
    return found;
  }
  /// The quadrature from `zero`, outside CVODES' error test (its default): the steps stay those of
  /// the program.
  static int start_quadrature(void* memory, detail::QuadratureRhs rates, N_Vector zero) {
    return CVodeQuadInit(memory, rates, zero);
  }
  static int restart_quadrature(void* memory, N_Vector zero) { return CVodeQuadReInit(memory, zero); }
  static int quadrature_at(void* memory, sunrealtype t, N_Vector out) {
    return CVodeGetQuadDky(memory, t, 0, out);
  }
  static constexpr const char* quadrature_name = "CVodeGetQuadDky";
  static std::string flag_name(int flag) { return cvode_flag_name(flag); }
};

}  // namespace

struct CvodeAudit::State : detail::DropInAuditState<CvodeCalls> {
  using DropInAuditState::DropInAuditState;
};

CvodeAudit::CvodeAudit(int dofs, DropInEnergies energies, double threshold) {
  if (dofs <= 0) throw InvalidArgument("CvodeAudit: dofs = " + std::to_string(dofs) + "; the number of coordinates must be > 0");
  if (!energies.kinetic_energy || !energies.potential_energy) {
    throw InvalidArgument("CvodeAudit: the kinetic and the potential energy are required");
  }
  if (energies.constraint_power) {
    throw InvalidArgument(
        "CvodeAudit: constraint_power reads multipliers from the state, and a CVODE state y = [q, v] has none; "
        "IdaAudit audits programs with multipliers");
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
  return state().solve(cvode_mem, tout, detail::SolverOutput{yout, nullptr}, tret, itask);
}

double CvodeAudit::relative_drift() const { return state().audit.relative_drift(); }
const char* CvodeAudit::verdict() const { return state().verdict(); }
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
void CvodeAudit::integrate_flow_as_quadrature() {
  State& s = state();
  if (s.audit.accepted_steps() > 0) {
    throw InvalidArgument("CvodeAudit: choose Z as CVODES' quadrature before the first CVode call");
  }
  s.solver_quadrature = true;
}
bool CvodeAudit::integrates_flow_as_quadrature() const { return state().solver_quadrature; }
bool CvodeAudit::passed() const { return std::string_view(verdict()) == "pass"; }
std::string CvodeAudit::diagnosis() const { return state().diagnosis(); }
long CvodeAudit::audited_steps() const { return state().audited; }
double CvodeAudit::threshold() const { return state().audit.threshold(); }
double CvodeAudit::max_abs_drift() const { return state().audit.max_abs_drift(); }
long CvodeAudit::first_step_above_threshold() const { return state().first_step_above_threshold; }
double CvodeAudit::time_first_above_threshold() const { return state().audit.time_first_above_threshold(); }
double CvodeAudit::time_of_fastest_growth() const { return state().audit.time_of_fastest_growth(); }
double CvodeAudit::energy_scale() const { return state().audit.energy_scale(); }
double CvodeAudit::initial_control() const { return state().audit.initial_control(); }
DropInStep CvodeAudit::last_step() const { return state().last; }
std::vector<double> CvodeAudit::named_works() const { return state().works; }
int CvodeAudit::dofs() const { return state().dofs; }

void CvodeAudit::print_summary(FILE* out) const { state().print_summary(out); }

}  // namespace energy_audit::sun
