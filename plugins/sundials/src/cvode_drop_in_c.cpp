// The C interface of the drop-in audit (cvode_drop_in.h) over CvodeAudit: the C energy functions
// with the program's user_data become DropInEnergies, and every entry point turns an exception
// into a return code and a message kept in the handle.
#include "energy_audit/sundials/cvode_drop_in.h"

#include <cmath>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include <energy_audit/error.hpp>

#include "energy_audit/sundials/cvode_drop_in.hpp"

using energy_audit::sun::CvodeAudit;
using energy_audit::sun::DropInEnergies;

struct EaCvodeAudit {
  int dofs = 0;
  double threshold = 0;
  EaKineticEnergyFn kinetic = nullptr, power = nullptr, kinetic_rate = nullptr;
  EaPotentialEnergyFn potential = nullptr, potential_rate = nullptr;
  void* user_data = nullptr;
  std::optional<CvodeAudit> audit;  // absent when created with bad arguments
  bool called = false;              // ea_cvode_audit was called: the energies are fixed
  std::string last_error;
  std::string diagnosis;

  /// The C functions as DropInEnergies, each passing user_data on.
  DropInEnergies energies() const {
    DropInEnergies e;
    e.kinetic_energy = [f = kinetic, data = user_data](const double* q, const double* v, double t) {
      return f(q, v, t, data);
    };
    e.potential_energy = [f = potential, data = user_data](const double* q, double t) { return f(q, t, data); };
    if (power != nullptr) {
      e.nonpotential_power = [f = power, data = user_data](const double* q, const double* v, double t) {
        return f(q, v, t, data);
      };
    }
    if (kinetic_rate != nullptr) {
      e.kinetic_energy_rate = [f = kinetic_rate, data = user_data](const double* q, const double* v, double t) {
        return f(q, v, t, data);
      };
    }
    if (potential_rate != nullptr) {
      e.potential_energy_rate = [f = potential_rate, data = user_data](const double* q, double t) {
        return f(q, t, data);
      };
    }
    return e;
  }

  /// (Re)builds the C++ audit from the functions held; a bad argument leaves it absent.
  int build() {
    try {
      audit.emplace(dofs, energies(), threshold);
      last_error.clear();
      return EA_CVODE_AUDIT_SUCCESS;
    } catch (const std::exception& e) {
      audit.reset();
      last_error = e.what();
      return EA_CVODE_AUDIT_INVALID_ARGUMENT;
    }
  }
};

namespace {

/// Runs `body` on a valid handle, turning exceptions into `failure` and the handle's message.
template <class Body>
int guarded(EaCvodeAudit* handle, int failure, Body&& body) {
  if (handle == nullptr) return EA_CVODE_AUDIT_INVALID_ARGUMENT;
  if (!handle->audit) return EA_CVODE_AUDIT_INVALID_ARGUMENT;  // last_error says why
  try {
    return body(*handle->audit);
  } catch (const energy_audit::InvalidArgument& e) {
    handle->last_error = e.what();
    return EA_CVODE_AUDIT_INVALID_ARGUMENT;
  } catch (const std::exception& e) {
    handle->last_error = e.what();
    return failure;
  } catch (...) {
    handle->last_error = "the audit failed with an unknown exception";
    return failure;
  }
}

}  // namespace

extern "C" {

EaCvodeAudit* ea_cvode_audit_create(int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                                    EaKineticEnergyFn power, void* user_data, double threshold) {
  EaCvodeAudit* handle = new (std::nothrow) EaCvodeAudit;
  if (handle == nullptr) return nullptr;
  handle->dofs = dofs;
  handle->threshold = threshold;
  handle->kinetic = kinetic;
  handle->potential = potential;
  handle->power = power;
  handle->user_data = user_data;
  if (kinetic == nullptr || potential == nullptr) {
    handle->last_error = std::string("ea_cvode_audit_create: the ") + (kinetic == nullptr ? "kinetic" : "potential") +
                         " energy function is NULL; T and V are required";
    return handle;
  }
  try {
    handle->build();
  } catch (...) {  // std::bad_alloc from a message: the handle stays without an audit
    handle->last_error = "ea_cvode_audit_create: out of memory";
  }
  return handle;
}

int ea_cvode_audit_set_energy_rates(EaCvodeAudit* audit, EaKineticEnergyFn kinetic_rate,
                                    EaPotentialEnergyFn potential_rate) {
  return guarded(audit, EA_CVODE_AUDIT_FAILED, [&](CvodeAudit&) {
    if (audit->called) {
      audit->last_error = "ea_cvode_audit_set_energy_rates: set the rates before the first ea_cvode_audit call";
      return EA_CVODE_AUDIT_INVALID_ARGUMENT;
    }
    audit->kinetic_rate = kinetic_rate;
    audit->potential_rate = potential_rate;
    return audit->build();
  });
}

int ea_cvode_audit(EaCvodeAudit* audit, void* cvode_mem, sunrealtype tout, N_Vector yout, sunrealtype* tret,
                   int itask) {
  return guarded(audit, EA_CVODE_AUDIT_FAILED, [&](CvodeAudit& cvode_audit) {
    audit->called = true;
    return cvode_audit.CVode(cvode_mem, tout, yout, tret, itask);
  });
}

double ea_cvode_audit_relative_drift(const EaCvodeAudit* audit) {
  return audit != nullptr && audit->audit ? audit->audit->relative_drift() : std::nan("");
}

const char* ea_cvode_audit_verdict(const EaCvodeAudit* audit) {
  return audit != nullptr && audit->audit ? audit->audit->verdict() : "error";
}

int ea_cvode_audit_passed(const EaCvodeAudit* audit) { return audit != nullptr && audit->audit && audit->audit->passed(); }

long ea_cvode_audit_steps(const EaCvodeAudit* audit) {
  return audit != nullptr && audit->audit ? audit->audit->audited_steps() : 0;
}

int ea_cvode_audit_last_energies(const EaCvodeAudit* audit, EaCvodeAuditEnergies* energies) {
  if (audit == nullptr || !audit->audit || energies == nullptr) return EA_CVODE_AUDIT_INVALID_ARGUMENT;
  const energy_audit::sun::DropInStep last = audit->audit->last_step();
  *energies = {last.t, last.kinetic, last.potential, last.jacobi, last.energy_flow, last.control};
  return EA_CVODE_AUDIT_SUCCESS;
}

const char* ea_cvode_audit_diagnosis(EaCvodeAudit* audit) {
  if (audit == nullptr || !audit->audit) return "";
  try {
    audit->diagnosis = audit->audit->diagnosis();
  } catch (...) {
    audit->diagnosis.clear();
  }
  return audit->diagnosis.c_str();
}

const char* ea_cvode_audit_last_error(const EaCvodeAudit* audit) {
  return audit != nullptr ? audit->last_error.c_str() : "ea_cvode_audit: the handle is NULL";
}

void ea_cvode_audit_print_summary(const EaCvodeAudit* audit, FILE* out) {
  if (out == nullptr) return;
  if (audit == nullptr || !audit->audit) {
    std::fprintf(out, "energy audit: not set up: %s\n", ea_cvode_audit_last_error(audit));
    return;
  }
  try {
    audit->audit->print_summary(out);
  } catch (...) {  // nothing escapes into C
  }
}

void ea_cvode_audit_free(EaCvodeAudit* audit) { delete audit; }

}  // extern "C"
