// The C interface of the ARKODE drop-in audit (arkode_drop_in.h) over ArkodeAudit, through the
// handle and guards that the C interfaces share (c_audit_handle.hpp).
#include "c_audit_handle.hpp"
#include "energy_audit/sundials/arkode_drop_in.h"
#include "energy_audit/sundials/arkode_drop_in.hpp"

struct EaArkodeAudit : energy_audit::sun::detail::CAuditHandle<energy_audit::sun::ArkodeAudit> {};

namespace detail = energy_audit::sun::detail;

namespace {

/// One audited evolve call: `evolve` is the ArkodeAudit member the program's call stands for.
template <class Evolve>
int audited_evolve(EaArkodeAudit* audit, Evolve evolve, void* arkode_mem, sunrealtype tout, N_Vector yout,
                   sunrealtype* tret, int itask) {
  return detail::audited_solve(audit, EA_ARKODE_AUDIT_FAILED, [&](energy_audit::sun::ArkodeAudit& arkode_audit) {
    return (arkode_audit.*evolve)(arkode_mem, tout, yout, tret, itask);
  });
}

}  // namespace

extern "C" {

EaArkodeAudit* ea_arkode_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                      EaPowerFn power, void* user_data, double threshold) {
  return detail::create_handle<EaArkodeAudit>("ea_arkode_audit", dofs, kinetic, potential, power, user_data,
                                              threshold);
}

EaArkodeAudit* ea_arkode_audit_create_hamiltonian(int dofs, EaHamiltonianFn hamiltonian, EaHamiltonianFn hamiltonian_rate,
                                    EaGeneralizedForcesFn forces, void* user_data, double threshold) {
  return detail::create_hamiltonian_handle<EaArkodeAudit>("ea_arkode_audit", dofs, hamiltonian, hamiltonian_rate, forces,
                                                   user_data, threshold);
}

EaArkodeAudit* ea_arkode_audit_create_whole_state(EaStateEnergyFn energy, EaStateEnergyFn energy_rate, EaStateEnergyFn power,
                                    void* user_data, double threshold) {
  return detail::create_whole_state_handle<EaArkodeAudit>("ea_arkode_audit", energy, energy_rate, power, user_data, threshold);
}

int ea_arkode_audit_set_layout(EaArkodeAudit* audit, long length, long q_first, long v_first, long stride) {
  return detail::set_strided_layout(audit, length, q_first, v_first, stride);
}

int ea_arkode_audit_set_layout_indices(EaArkodeAudit* audit, long length, const long* coordinates, const long* velocities) {
  return detail::set_layout(audit, "set_layout_indices", length, coordinates, velocities);
}

int ea_arkode_audit_declare_quadratic_kinetic_energy(EaArkodeAudit* audit) {
  return detail::declare_quadratic_kinetic_energy(audit);
}

int ea_arkode_audit_set_energy_rates(EaArkodeAudit* audit, EaPowerFn kinetic_rate,
                                     EaPotentialRateFn potential_rate) {
  return detail::set_energy_rates(audit, kinetic_rate, potential_rate);
}

int ea_arkode_audit_add_named_power(EaArkodeAudit* audit, const char* name, EaPowerFn power) {
  return detail::add_named_power(audit, name, power);
}
int ea_arkode_audit_named_power_count(const EaArkodeAudit* audit) { return detail::named_power_count(audit); }
int ea_arkode_audit_named_work(const EaArkodeAudit* audit, int k, double* work) {
  return detail::named_work(audit, k, work);
}

int ea_arkode_audit_set_share_sum(EaArkodeAudit* audit, EaShareSumFn sum, void* context) {
  return detail::set_share_sum(audit, sum, context);
}

int ea_arkode_audit_erkstep_evolve(EaArkodeAudit* audit, void* arkode_mem, sunrealtype tout, N_Vector yout,
                                   sunrealtype* tret, int itask) {
  return audited_evolve(audit, &energy_audit::sun::ArkodeAudit::ERKStepEvolve, arkode_mem, tout, yout, tret,
                        itask);
}
int ea_arkode_audit_arkstep_evolve(EaArkodeAudit* audit, void* arkode_mem, sunrealtype tout, N_Vector yout,
                                   sunrealtype* tret, int itask) {
  return audited_evolve(audit, &energy_audit::sun::ArkodeAudit::ARKStepEvolve, arkode_mem, tout, yout, tret,
                        itask);
}
#if SUNDIALS_VERSION_MAJOR >= 7
int ea_arkode_audit_evolve(EaArkodeAudit* audit, void* arkode_mem, sunrealtype tout, N_Vector yout,
                           sunrealtype* tret, int itask) {
  return audited_evolve(audit, &energy_audit::sun::ArkodeAudit::ARKodeEvolve, arkode_mem, tout, yout, tret,
                        itask);
}
#endif

double ea_arkode_audit_relative_drift(const EaArkodeAudit* audit) { return detail::relative_drift(audit); }
const char* ea_arkode_audit_verdict(const EaArkodeAudit* audit) { return detail::verdict(audit); }
int ea_arkode_audit_passed(const EaArkodeAudit* audit) { return detail::passed(audit); }
long ea_arkode_audit_steps(const EaArkodeAudit* audit) { return detail::audited_steps(audit); }
long ea_arkode_audit_first_step_above_threshold(const EaArkodeAudit* audit) {
  return detail::first_step_above_threshold(audit);
}
double ea_arkode_audit_time_first_above_threshold(const EaArkodeAudit* audit) {
  return detail::time_first_above_threshold(audit);
}
int ea_arkode_audit_last_energies(const EaArkodeAudit* audit, EaArkodeAuditEnergies* energies) {
  return detail::last_energies(audit, energies);
}
const char* ea_arkode_audit_diagnosis(EaArkodeAudit* audit) { return detail::diagnosis(audit); }
const char* ea_arkode_audit_last_error(const EaArkodeAudit* audit) { return detail::last_error(audit); }
void ea_arkode_audit_print_summary(const EaArkodeAudit* audit, FILE* out) {
  detail::print_summary(audit, out);
}
void ea_arkode_audit_print_summary_stdout(const EaArkodeAudit* audit) {
  detail::print_summary(audit, stdout);
  std::fflush(stdout);
}
void ea_arkode_audit_free(EaArkodeAudit* audit) { delete audit; }

}  // extern "C"
