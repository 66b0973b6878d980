// The C interface of the IDA drop-in audit (ida_drop_in.h) over IdaAudit, through the
// handle and guards that the C interfaces share (c_audit_handle.hpp).
#include "c_audit_handle.hpp"
#include "energy_audit/sundials/ida_drop_in.h"
#include "energy_audit/sundials/ida_drop_in.hpp"

struct EaIdaAudit : energy_audit::sun::detail::CAuditHandle<energy_audit::sun::IdaAudit> {};

namespace detail = energy_audit::sun::detail;

extern "C" {

EaIdaAudit* ea_ida_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                EaPowerFn power, void* user_data, double threshold) {
  return detail::create_handle<EaIdaAudit>("ea_ida_audit", dofs, kinetic, potential, power, user_data,
                                           threshold);
}

EaIdaAudit* ea_ida_audit_create_hamiltonian(int dofs, EaHamiltonianFn hamiltonian, EaHamiltonianFn hamiltonian_rate,
                                    EaGeneralizedForcesFn forces, void* user_data, double threshold) {
  return detail::create_hamiltonian_handle<EaIdaAudit>("ea_ida_audit", dofs, hamiltonian, hamiltonian_rate, forces,
                                                   user_data, threshold);
}

EaIdaAudit* ea_ida_audit_create_whole_state(EaStateEnergyFn energy, EaStateEnergyFn energy_rate, EaStateEnergyFn power,
                                    void* user_data, double threshold) {
  return detail::create_whole_state_handle<EaIdaAudit>("ea_ida_audit", energy, energy_rate, power, user_data, threshold);
}

int ea_ida_audit_set_layout(EaIdaAudit* audit, long length, long q_first, long v_first, long stride) {
  return detail::set_strided_layout(audit, length, q_first, v_first, stride);
}

int ea_ida_audit_set_layout_indices(EaIdaAudit* audit, long length, const long* coordinates, const long* velocities) {
  return detail::set_layout(audit, "set_layout_indices", length, coordinates, velocities);
}

int ea_ida_audit_set_layout_multipliers(EaIdaAudit* audit, const long* indices, int count) {
  return detail::set_layout_multipliers(audit, indices, count);
}

int ea_ida_audit_declare_quadratic_kinetic_energy(EaIdaAudit* audit) {
  return detail::declare_quadratic_kinetic_energy(audit);
}

int ea_ida_audit_set_energy_rates(EaIdaAudit* audit, EaPowerFn kinetic_rate,
                                  EaPotentialRateFn potential_rate) {
  return detail::set_energy_rates(audit, kinetic_rate, potential_rate);
}

int ea_ida_audit_set_constraint_power(EaIdaAudit* audit, EaConstraintPowerFn power) {
  return detail::set_functions(audit, "set_constraint_power",
                               [&](EaIdaAudit& handle) { handle.constraint_power = power; });
}

int ea_ida_audit_add_named_power(EaIdaAudit* audit, const char* name, EaPowerFn power) {
  return detail::add_named_power(audit, name, power);
}
int ea_ida_audit_named_power_count(const EaIdaAudit* audit) { return detail::named_power_count(audit); }
int ea_ida_audit_named_work(const EaIdaAudit* audit, int k, double* work) { return detail::named_work(audit, k, work); }

int ea_ida_audit_set_share_sum(EaIdaAudit* audit, EaShareSumFn sum, void* context) {
  return detail::set_share_sum(audit, sum, context);
}

int ea_ida_audit(EaIdaAudit* audit, void* ida_mem, sunrealtype tout, sunrealtype* tret, N_Vector yret,
                 N_Vector ypret, int itask) {
  return detail::audited_solve(audit, EA_IDA_AUDIT_FAILED, [&](energy_audit::sun::IdaAudit& ida_audit) {
    return ida_audit.IDASolve(ida_mem, tout, tret, yret, ypret, itask);
  });
}

double ea_ida_audit_relative_drift(const EaIdaAudit* audit) { return detail::relative_drift(audit); }
const char* ea_ida_audit_verdict(const EaIdaAudit* audit) { return detail::verdict(audit); }
int ea_ida_audit_passed(const EaIdaAudit* audit) { return detail::passed(audit); }
long ea_ida_audit_steps(const EaIdaAudit* audit) { return detail::audited_steps(audit); }
long ea_ida_audit_first_step_above_threshold(const EaIdaAudit* audit) {
  return detail::first_step_above_threshold(audit);
}
double ea_ida_audit_time_first_above_threshold(const EaIdaAudit* audit) {
  return detail::time_first_above_threshold(audit);
}
int ea_ida_audit_last_energies(const EaIdaAudit* audit, EaAuditEnergies* energies) {
  return detail::last_energies(audit, energies);
}
const char* ea_ida_audit_diagnosis(EaIdaAudit* audit) { return detail::diagnosis(audit); }
const char* ea_ida_audit_last_error(const EaIdaAudit* audit) { return detail::last_error(audit); }
void ea_ida_audit_print_summary(const EaIdaAudit* audit, FILE* out) { detail::print_summary(audit, out); }
void ea_ida_audit_print_summary_stdout(const EaIdaAudit* audit) {
  detail::print_summary(audit, stdout);
  std::fflush(stdout);
}
void ea_ida_audit_free(EaIdaAudit* audit) { delete audit; }

}  // extern "C"
