// The C interface of the CVODE drop-in audit (cvode_drop_in.h) over CvodeAudit, through the
// handle and guards that the C interfaces share (c_audit_handle.hpp).
#include "c_audit_handle.hpp"
#include "energy_audit/sundials/cvode_drop_in.h"
#include "energy_audit/sundials/cvode_drop_in.hpp"

struct EaCvodeAudit : energy_audit::sun::detail::CAuditHandle<energy_audit::sun::CvodeAudit> {};

namespace detail = energy_audit::sun::detail;

extern "C" {

EaCvodeAudit* ea_cvode_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                    EaPowerFn power, void* user_data, double threshold) {
  return detail::create_handle<EaCvodeAudit>("ea_cvode_audit", dofs, kinetic, potential, power, user_data,
                                             threshold);
}

EaCvodeAudit* ea_cvode_audit_create_hamiltonian(int dofs, EaHamiltonianFn hamiltonian, EaHamiltonianFn hamiltonian_rate,
                                    EaGeneralizedForcesFn forces, void* user_data, double threshold) {
  return detail::create_hamiltonian_handle<EaCvodeAudit>("ea_cvode_audit", dofs, hamiltonian, hamiltonian_rate, forces,
                                                   user_data, threshold);
}

EaCvodeAudit* ea_cvode_audit_create_whole_state(EaStateEnergyFn energy, EaStateEnergyFn energy_rate, EaStateEnergyFn power,
                                    void* user_data, double threshold) {
  return detail::create_whole_state_handle<EaCvodeAudit>("ea_cvode_audit", energy, energy_rate, power, user_data, threshold);
}

int ea_cvode_audit_set_layout(EaCvodeAudit* audit, long length, long q_first, long v_first, long stride) {
  return detail::set_strided_layout(audit, length, q_first, v_first, stride);
}

int ea_cvode_audit_set_layout_indices(EaCvodeAudit* audit, long length, const long* coordinates, const long* velocities) {
  return detail::set_layout(audit, "set_layout_indices", length, coordinates, velocities);
}

int ea_cvode_audit_declare_quadratic_kinetic_energy(EaCvodeAudit* audit) {
  return detail::declare_quadratic_kinetic_energy(audit);
}

int ea_cvode_audit_set_energy_rates(EaCvodeAudit* audit, EaPowerFn kinetic_rate,
                                    EaPotentialRateFn potential_rate) {
  return detail::set_energy_rates(audit, kinetic_rate, potential_rate);
}

int ea_cvode_audit_add_named_power(EaCvodeAudit* audit, const char* name, EaPowerFn power) {
  return detail::add_named_power(audit, name, power);
}
int ea_cvode_audit_named_power_count(const EaCvodeAudit* audit) { return detail::named_power_count(audit); }
int ea_cvode_audit_named_work(const EaCvodeAudit* audit, int k, double* work) { return detail::named_work(audit, k, work); }

int ea_cvode_audit_set_share_sum(EaCvodeAudit* audit, EaShareSumFn sum, void* context) {
  return detail::set_share_sum(audit, sum, context);
}

int ea_cvode_audit_integrate_flow_as_quadrature(EaCvodeAudit* audit) {
  return detail::set_functions(audit, "integrate_flow_as_quadrature",
                               [](EaCvodeAudit& handle) { handle.flow_as_quadrature = true; });
}

int ea_cvode_audit(EaCvodeAudit* audit, void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret,
                   int itask) {
  return detail::audited_solve(audit, EA_CVODE_AUDIT_FAILED, [&](energy_audit::sun::CvodeAudit& cvode_audit) {
    return cvode_audit.CVode(cvode_mem, tout, yout, tret, itask);
  });
}

double ea_cvode_audit_relative_drift(const EaCvodeAudit* audit) { return detail::relative_drift(audit); }
const char* ea_cvode_audit_verdict(const EaCvodeAudit* audit) { return detail::verdict(audit); }
int ea_cvode_audit_passed(const EaCvodeAudit* audit) { return detail::passed(audit); }
long ea_cvode_audit_steps(const EaCvodeAudit* audit) { return detail::audited_steps(audit); }
long ea_cvode_audit_first_step_above_threshold(const EaCvodeAudit* audit) {
  return detail::first_step_above_threshold(audit);
}
double ea_cvode_audit_time_first_above_threshold(const EaCvodeAudit* audit) {
  return detail::time_first_above_threshold(audit);
}
int ea_cvode_audit_last_energies(const EaCvodeAudit* audit, EaCvodeAuditEnergies* energies) {
  return detail::last_energies(audit, energies);
}
const char* ea_cvode_audit_diagnosis(EaCvodeAudit* audit) { return detail::diagnosis(audit); }
const char* ea_cvode_audit_last_error(const EaCvodeAudit* audit) { return detail::last_error(audit); }
void ea_cvode_audit_print_summary(const EaCvodeAudit* audit, FILE* out) { detail::print_summary(audit, out); }
void ea_cvode_audit_print_summary_stdout(const EaCvodeAudit* audit) {
  detail::print_summary(audit, stdout);
  std::fflush(stdout);
}
void ea_cvode_audit_free(EaCvodeAudit* audit) { delete audit; }

}  // extern "C"
