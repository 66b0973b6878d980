#pragma once
/// \file
/// What a drop-in audit (CvodeAudit, IdaAudit, ArkodeAudit) has found so far, whatever its
/// solver: the energies' record (energy_audit::Audit), Z and the named works, the step counts and
/// the verdict. DropInAudit holds it; each solver's audit derives its solve emulation from it
/// (drop_in_solve_emulation.hpp).

#include <cstdio>
#include <energy_audit/audit.hpp>
#include <string>
#include <vector>

#include <nvector/nvector_serial.h>

#include "drop_in_energy_evaluation.hpp"
#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_step.hpp"

namespace energy_audit::sun::detail {

class DropInAuditState {
 public:
  /// Throws InvalidArgument for a threshold that is negative or not finite, and as
  /// DropInEnergyEvaluation does.
  DropInAuditState(const char* audit_name, DropInForm form, double threshold);
  virtual ~DropInAuditState() = default;
  DropInAuditState(const DropInAuditState&) = delete;
  DropInAuditState& operator=(const DropInAuditState&) = delete;

  /// The solve function of the last call ("CVode") and `flag`'s name as its solver gives it.
  virtual const char* solve_name() const = 0;
  virtual std::string flag_name(int flag) const = 0;

  /// "error", "incomplete", "pass" or "fail" (cvode_drop_in.hpp's verdict()).
  const char* verdict() const;
  /// The summary lines (drop_in_summary.cpp).
  void print_summary(FILE* out) const;
  /// Completes what the results read must include (a step the audit holds back,
  /// drop_in_pending_step.hpp) without the solver, which the program may have freed. No throw.
  virtual void settle() noexcept {}

  Audit audit;
  DropInEnergyEvaluation energy;
  long audited = 0;
  bool incomplete = false;  // a step went unaudited (taken outside the audit, or an energy function threw)
  int failure_flag = 0;     // the first negative flag a solve call returned
  double t_audited = 0;     // t_n of the last audited step (or the start)
  long first_step_above_threshold = -1;  // the audited step (0: the start) where |C − C0| first exceeded it
  DropInStep last;
  double Z = 0;
  /// W_k of each named power term (DropInEnergies::named_powers), in their order [J].
  std::vector<double> works;
  /// Z and the works as the solver's own quadrature (QuadratureCalls) instead of by Gauss–Legendre
  /// on its interpolant; set before the first solve call.
  bool solver_quadrature = false;

 protected:
  /// Records the state in `y` at t with the current Z.
  void record(double t, N_Vector y) { record(t, N_VGetArrayPointer(y)); }
  void record(double t, const double* y);
};

}  // namespace energy_audit::sun::detail
