#include "energy_audit/sundials/cvode_drop_in.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <energy_audit/error.hpp>

#include "drop_in_solve_emulation.hpp"
#include "energy_audit/sundials/cvode_check.hpp"

namespace energy_audit::sun {
namespace {

/// CVODE's functions for the drop-in audit (drop_in_solver_calls.hpp).
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

using CvodeState = detail::DropInSolveEmulation<CvodeCalls>;

}  // namespace

CvodeAudit::CvodeAudit(int dofs, DropInEnergies energies, double threshold)
    : CvodeAudit(detail::DropInForm{dofs, std::move(energies)}, threshold) {}

CvodeAudit CvodeAudit::hamiltonian(int dofs, DropInHamiltonian energies, double threshold) {
  return CvodeAudit(detail::DropInForm{dofs, std::move(energies)}, threshold);
}

CvodeAudit CvodeAudit::whole_state(DropInStateEnergy energies, double threshold) {
  return CvodeAudit(detail::DropInForm{0, std::move(energies)}, threshold);
}

CvodeAudit::CvodeAudit(detail::DropInForm form, double threshold) : DropInAudit("CvodeAudit") {
  const auto* energies = std::get_if<DropInEnergies>(&form.energies);
  if (energies != nullptr && energies->constraint_power) {
    throw InvalidArgument(
        "CvodeAudit: constraint_power reads multipliers from the state, and a CVODE state y = [q, v] has none; "
        "IdaAudit audits programs with multipliers");
  }
  hold(std::make_unique<CvodeState>(std::move(form), threshold));
}

int CvodeAudit::CVode(void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret, int itask) {
  if (cvode_mem == nullptr || yout == nullptr || tret == nullptr ||
      (itask != CV_NORMAL && itask != CV_ONE_STEP)) {
    return ::CVode(cvode_mem, tout, yout, tret, itask);  // CVODE reports the bad argument
  }
  return state_as<CvodeState>().solve(cvode_mem, tout, detail::SolverOutput{yout, nullptr}, tret, itask);
}

void CvodeAudit::set_equation_threshold(double threshold) { change_equation_threshold(threshold, "CVode"); }

void CvodeAudit::integrate_flow_as_quadrature() {
  detail::DropInAuditState& s = state();
  if (s.audit.accepted_steps() > 0) {
    throw InvalidArgument("CvodeAudit: choose Z as CVODES' quadrature before the first CVode call");
  }
  s.solver_quadrature = true;
}
bool CvodeAudit::integrates_flow_as_quadrature() const { return state().solver_quadrature; }

}  // namespace energy_audit::sun
