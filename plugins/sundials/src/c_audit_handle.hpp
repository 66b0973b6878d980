#pragma once
/// \file
/// What the C interfaces of the drop-in audits (cvode_drop_in.h, ida_drop_in.h,
/// arkode_drop_in.h) share: the handle behind their opaque pointer, holding the program's C
/// energy functions with its user_data and the C++ audit built from them, and the functions that
/// turn every exception into a return code and a message kept in the handle, so that none
/// crosses into C.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <cstdio>
#include <energy_audit/error.hpp>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "energy_audit/sundials/drop_in_energy_functions.h"
#include "energy_audit/sundials/drop_in_energy_functions.hpp"
#include "energy_audit/sundials/drop_in_hamiltonian.hpp"
#include "energy_audit/sundials/drop_in_layout.hpp"
#include "energy_audit/sundials/drop_in_state_energy.hpp"
#include "energy_audit/sundials/drop_in_step.hpp"

namespace energy_audit::sun::detail {

/// The C handle of an audit (CvodeAudit, IdaAudit, ArkodeAudit); `prefix` names its functions in messages.
template <class AuditType>
struct CAuditHandle {
  /// The form of the energies the program gave (drop_in_form.hpp).
  enum class Form { lagrange, hamilton, whole_state };

  const char* prefix = "";  // "ea_cvode_audit"
  Form form = Form::lagrange;
  int dofs = 0;
  double threshold = 0;
  EaKineticEnergyFn kinetic = nullptr;
  EaPotentialEnergyFn potential = nullptr;
  EaPowerFn power = nullptr, kinetic_rate = nullptr;
  EaPotentialRateFn potential_rate = nullptr;
  EaConstraintPowerFn constraint_power = nullptr;
  EaShareSumFn share_sum = nullptr;
  void* share_context = nullptr;
  std::vector<std::pair<std::string, EaPowerFn>> named_powers;
  bool quadratic_kinetic_energy = false;  // DropInEnergies::kinetic_energy_is_quadratic
  EaHamiltonianFn hamiltonian = nullptr, hamiltonian_rate = nullptr;
  EaGeneralizedForcesFn generalized_forces = nullptr;
  EaStateEnergyFn state_energy = nullptr, state_energy_rate = nullptr, state_power = nullptr;
  std::optional<DropInLayout> layout;
  void* user_data = nullptr;
  std::optional<AuditType> audit;  // absent when created with bad arguments
  bool called = false;             // the solve function was called: the energies are fixed
  bool flow_as_quadrature = false;  // Z as the solver's quadrature (CvodeAudit only)
  std::string last_error;
  std::string diagnosis;

  /// The C functions as DropInEnergies, each passing user_data on.
  DropInEnergies energies() const {
    DropInEnergies e;
    e.kinetic_energy = [f = kinetic, data = user_data](const double* q, const double* v, double t) {
      return f(q, v, t, data);
    };
    e.potential_energy = [f = potential, data = user_data](const double* q, double t) {
      return f(q, t, data);
    };
    if (power != nullptr) {
      e.nonpotential_power = [f = power, data = user_data](const double* q, const double* v, double t) {
        return f(q, v, t, data);
      };
    }
    if (kinetic_rate != nullptr) {
      e.kinetic_energy_rate = [f = kinetic_rate, data = user_data](const double* q, const double* v,
                                                                   double t) { return f(q, v, t, data); };
    }
    if (potential_rate != nullptr) {
      e.potential_energy_rate = [f = potential_rate, data = user_data](const double* q, double t) {
        return f(q, t, data);
      };
    }
    if (constraint_power != nullptr) {
      e.constraint_power = [f = constraint_power, data = user_data](const double* q, const double* v,
                                                                    const double* multipliers, double t) {
        return f(q, v, multipliers, t, data);
      };
    }
    for (const auto& [name, f] : named_powers) {
      e.named_powers.push_back({name, [f = f, data = user_data](const double* q, const double* v, double t) {
                                  return f(q, v, t, data);
                                }});
    }
    e.kinetic_energy_is_quadratic = quadratic_kinetic_energy;
    e.sum_shares = share_sum_function();
    return e;
  }

  /// Hamilton's form of the C functions (DropInHamiltonian), each passing user_data on.
  DropInHamiltonian hamilton_energies() const {
    DropInHamiltonian h;
    h.hamiltonian = [f = hamiltonian, data = user_data](const double* q, const double* p, double t) {
      return f(q, p, t, data);
    };
    if (hamiltonian_rate != nullptr) {
      h.hamiltonian_rate = [f = hamiltonian_rate, data = user_data](const double* q, const double* p, double t) {
        return f(q, p, t, data);
      };
    }
    if (generalized_forces != nullptr) {
      h.generalized_forces = [f = generalized_forces, data = user_data](const double* q, const double* p, double t,
                                                                        double* forces) { f(q, p, t, forces, data); };
    }
    h.sum_shares = share_sum_function();
    return h;
  }

  /// The whole-state form of the C functions (DropInStateEnergy), each passing user_data on.
  DropInStateEnergy whole_state_energies() const {
    const auto bind = [data = user_data](EaStateEnergyFn f) -> std::function<double(const double*, double)> {
      if (f == nullptr) return {};
      return [f, data](const double* y, double t) { return f(y, t, data); };
    };
    return DropInStateEnergy{.energy = bind(state_energy), .energy_rate = bind(state_energy_rate),
                             .power = bind(state_power), .sum_shares = share_sum_function()};
  }

  std::function<void(double* values, int count)> share_sum_function() const {
    if (share_sum == nullptr) return {};
    return [f = share_sum, context = share_context](double* values, int count) { f(values, count, context); };
  }

  /// (Re)builds the C++ audit from the functions held; a bad argument leaves it absent.
  int build() {
    try {
      switch (form) {
        case Form::lagrange:
          audit.emplace(dofs, energies(), threshold);
          break;
        case Form::hamilton:
          audit.emplace(AuditType::hamiltonian(dofs, hamilton_energies(), threshold));
          break;
        case Form::whole_state:
          audit.emplace(AuditType::whole_state(whole_state_energies(), threshold));
          break;
      }
      if (layout) audit->use_layout(*layout);
      if constexpr (requires(AuditType& a) { a.integrate_flow_as_quadrature(); }) {
        if (flow_as_quadrature) audit->integrate_flow_as_quadrature();
      }
      last_error.clear();
      return EA_AUDIT_SUCCESS;
    } catch (const std::exception& e) {
      audit.reset();
      last_error = e.what();
      return EA_AUDIT_INVALID_ARGUMENT;
    }
  }
};

/// A new handle of `Handle` (derived from CAuditHandle); null only when memory runs out.
template <class Handle>
Handle* create_handle(const char* prefix, int dofs, EaKineticEnergyFn kinetic, EaPotentialEnergyFn potential,
                      EaPowerFn power, void* user_data, double threshold) {
  Handle* handle = new (std::nothrow) Handle;
  if (handle == nullptr) return nullptr;
  handle->prefix = prefix;
  handle->dofs = dofs;
  handle->threshold = threshold;
  handle->kinetic = kinetic;
  handle->potential = potential;
  handle->power = power;
  handle->user_data = user_data;
  try {
    if (kinetic == nullptr || potential == nullptr) {
      handle->last_error = std::string(prefix) + "_create: the " +
                           (kinetic == nullptr ? "kinetic" : "potential") +
                           " energy function is NULL; T and V are required";
      return handle;
    }
    handle->build();
  } catch (...) {  // std::bad_alloc from a message: the handle stays without an audit
    handle->audit.reset();
  }
  return handle;
}

/// A new handle of `Handle` in Hamilton's form; null only when memory runs out.
template <class Handle>
Handle* create_hamiltonian_handle(const char* prefix, int dofs, EaHamiltonianFn hamiltonian,
                                  EaHamiltonianFn hamiltonian_rate, EaGeneralizedForcesFn forces, void* user_data,
                                  double threshold) {
  Handle* handle = new (std::nothrow) Handle;
  if (handle == nullptr) return nullptr;
  handle->prefix = prefix;
  handle->form = Handle::Form::hamilton;
  handle->dofs = dofs;
  handle->threshold = threshold;
  handle->hamiltonian = hamiltonian;
  handle->hamiltonian_rate = hamiltonian_rate;
  handle->generalized_forces = forces;
  handle->user_data = user_data;
  try {
    if (hamiltonian == nullptr) {
      handle->last_error = std::string(prefix) + "_create_hamiltonian: the Hamiltonian function is NULL; H is required";
      return handle;
    }
    handle->build();
  } catch (...) {
    handle->audit.reset();
  }
  return handle;
}

/// A new handle of `Handle` in the whole-state form; null only when memory runs out.
template <class Handle>
Handle* create_whole_state_handle(const char* prefix, EaStateEnergyFn energy, EaStateEnergyFn energy_rate,
                                  EaStateEnergyFn power, void* user_data, double threshold) {
  Handle* handle = new (std::nothrow) Handle;
  if (handle == nullptr) return nullptr;
  handle->prefix = prefix;
  handle->form = Handle::Form::whole_state;
  handle->threshold = threshold;
  handle->state_energy = energy;
  handle->state_energy_rate = energy_rate;
  handle->state_power = power;
  handle->user_data = user_data;
  try {
    if (energy == nullptr) {
      handle->last_error = std::string(prefix) + "_create_whole_state: the energy function is NULL; E is required";
      return handle;
    }
    handle->build();
  } catch (...) {
    handle->audit.reset();
  }
  return handle;
}

/// Runs `body` on a valid handle's audit, turning exceptions into `failure` and the handle's
/// message (EA_AUDIT_INVALID_ARGUMENT for energy_audit::InvalidArgument).
template <class Handle, class Body>
int guarded(Handle* handle, int failure, Body&& body) {
  if (handle == nullptr) return EA_AUDIT_INVALID_ARGUMENT;
  if (!handle->audit) return EA_AUDIT_INVALID_ARGUMENT;  // last_error says why
  try {
    return body(*handle->audit);
  } catch (const energy_audit::InvalidArgument& e) {
    handle->last_error = e.what();
    return EA_AUDIT_INVALID_ARGUMENT;
  } catch (const std::exception& e) {
    handle->last_error = e.what();
    return failure;
  } catch (...) {
    handle->last_error = "the audit failed with an unknown exception";
    return failure;
  }
}

/// Replaces energy functions (through `assign`) before the first solve call, and rebuilds.
template <class Handle, class Assign>
int set_functions(Handle* handle, const char* function, Assign&& assign) {
  return guarded(handle, EA_AUDIT_FAILED, [&](auto&) {
    if (handle->called) {
      handle->last_error = std::string(handle->prefix) + "_" + function + ": call it before the first " +
                           handle->prefix + " call";
      return EA_AUDIT_INVALID_ARGUMENT;
    }
    assign(*handle);
    return handle->build();
  });
}

/// Refuses a setter of Lagrange's form (`function`) on a handle of another form.
template <class Handle>
bool refuse_unless_lagrange(Handle* handle, const char* function) {
  if (handle == nullptr || handle->form == Handle::Form::lagrange) return false;
  handle->last_error = std::string(handle->prefix) + "_" + function +
                       ": it sets a function of T and V (q, v), and this audit was created in " +
                       (handle->form == Handle::Form::hamilton ? "Hamilton's form" : "the whole-state form");
  return true;
}

/// Declares T quadratic in v (DropInEnergies::kinetic_energy_is_quadratic) before the first solve call.
template <class Handle>
int declare_quadratic_kinetic_energy(Handle* handle) {
  if (refuse_unless_lagrange(handle, "declare_quadratic_kinetic_energy")) return EA_AUDIT_INVALID_ARGUMENT;
  return set_functions(handle, "declare_quadratic_kinetic_energy",
                       [](Handle& h) { h.quadratic_kinetic_energy = true; });
}

/// Reads the state through a layout (DropInLayout) before the first solve call: the n
/// coordinates and n velocities (or momenta) at the indices `coordinates` and `velocities` list;
/// the multipliers given before are kept.
template <class Handle>
int set_layout(Handle* handle, const char* function, long length, const long* coordinates, const long* velocities) {
  if (handle != nullptr && (coordinates == nullptr || velocities == nullptr)) {
    handle->last_error = std::string(handle->prefix) + "_" + function + ": the " +
                         (coordinates == nullptr ? "coordinates'" : "velocities'") + " index list is NULL";
    return EA_AUDIT_INVALID_ARGUMENT;
  }
  return set_functions(handle, function, [&](Handle& h) {
    const auto n = static_cast<std::size_t>(std::max(h.dofs, 0));
    DropInLayout layout{length, std::vector<long>(coordinates, coordinates + n),
                        std::vector<long>(velocities, velocities + n)};
    if (h.layout) layout.multipliers = h.layout->multipliers;
    h.layout = std::move(layout);
  });
}

/// The same with n coordinates at q_first + i stride and n velocities at v_first + i stride.
template <class Handle>
int set_strided_layout(Handle* handle, long length, long q_first, long v_first, long stride) {
  return set_functions(handle, "set_layout", [&](Handle& h) {
    DropInLayout layout = DropInLayout::strided(length, h.dofs, q_first, v_first, stride);
    if (h.layout) layout.multipliers = h.layout->multipliers;
    h.layout = std::move(layout);
  });
}

/// The multipliers' entries of the layout (IDA programs with constraint_power).
template <class Handle>
int set_layout_multipliers(Handle* handle, const long* indices, int count) {
  if (handle != nullptr && (count < 0 || (indices == nullptr && count > 0))) {
    handle->last_error = std::string(handle->prefix) + "_set_layout_multipliers: " +
                         (count < 0 ? "count = " + std::to_string(count) + " is negative" : "the index list is NULL");
    return EA_AUDIT_INVALID_ARGUMENT;
  }
  if (handle != nullptr && !handle->layout) {
    handle->last_error = std::string(handle->prefix) +
                         "_set_layout_multipliers: set the layout of q and v first (_set_layout or _set_layout_indices)";
    return EA_AUDIT_INVALID_ARGUMENT;
  }
  return set_functions(handle, "set_layout_multipliers", [&](Handle& h) {
    h.layout->multipliers.assign(indices, indices + count);
  });
}

/// Adds a named power term (DropInEnergies::named_powers) before the first solve call.
template <class Handle>
int add_named_power(Handle* handle, const char* name, EaPowerFn power) {
  if (refuse_unless_lagrange(handle, "add_named_power")) return EA_AUDIT_INVALID_ARGUMENT;
  if (handle != nullptr && (name == nullptr || power == nullptr)) {
    handle->last_error = std::string(handle->prefix) + "_add_named_power: the " +
                         (name == nullptr ? "name" : "power function") + " is NULL";
    return EA_AUDIT_INVALID_ARGUMENT;
  }
  return set_functions(handle, "add_named_power", [&](Handle& h) { h.named_powers.emplace_back(name, power); });
}

/// Sets dT/dt and dV/dt (either may be null) before the first solve call.
template <class Handle>
int set_energy_rates(Handle* handle, EaPowerFn kinetic_rate, EaPotentialRateFn potential_rate) {
  if (refuse_unless_lagrange(handle, "set_energy_rates")) return EA_AUDIT_INVALID_ARGUMENT;
  return set_functions(handle, "set_energy_rates", [&](Handle& h) {
    h.kinetic_rate = kinetic_rate;
    h.potential_rate = potential_rate;
  });
}

/// Sets the sum of the ranks' shares (DropInEnergies::sum_shares) before the first solve call.
template <class Handle>
int set_share_sum(Handle* handle, EaShareSumFn sum, void* context) {
  return set_functions(handle, "set_share_sum", [&](Handle& h) {
    h.share_sum = sum;
    h.share_context = context;
  });
}

/// One audited solve call, `solve(audit)`, after which the energies are fixed; `failure` is the
/// solver's code for a step that could not be audited.
template <class Handle, class Solve>
int audited_solve(Handle* handle, int failure, Solve&& solve) {
  return guarded(handle, failure, [&](auto& audit) {
    handle->called = true;
    return solve(audit);
  });
}

template <class Handle>
int named_power_count(const Handle* handle) {
  return handle != nullptr ? static_cast<int>(handle->named_powers.size()) : 0;
}

template <class Handle>
int named_work(const Handle* handle, int k, double* work) {
  if (handle == nullptr || !handle->audit || work == nullptr || k < 0) return EA_AUDIT_INVALID_ARGUMENT;
  const std::vector<double> works = handle->audit->named_works();
  if (static_cast<std::size_t>(k) >= works.size()) return EA_AUDIT_INVALID_ARGUMENT;
  *work = works[static_cast<std::size_t>(k)];
  return EA_AUDIT_SUCCESS;
}

template <class Handle>
double relative_drift(const Handle* handle) {
  return handle != nullptr && handle->audit ? handle->audit->relative_drift() : std::nan("");
}

template <class Handle>
const char* verdict(const Handle* handle) {
  return handle != nullptr && handle->audit ? handle->audit->verdict() : "error";
}

template <class Handle>
int passed(const Handle* handle) {
  return handle != nullptr && handle->audit && handle->audit->passed();
}

template <class Handle>
long audited_steps(const Handle* handle) {
  return handle != nullptr && handle->audit ? handle->audit->audited_steps() : 0;
}

template <class Handle>
long first_step_above_threshold(const Handle* handle) {
  return handle != nullptr && handle->audit ? handle->audit->first_step_above_threshold() : -1;
}

template <class Handle>
double time_first_above_threshold(const Handle* handle) {
  return handle != nullptr && handle->audit ? handle->audit->time_first_above_threshold() : std::nan("");
}

template <class Handle>
int last_energies(const Handle* handle, EaAuditEnergies* energies) {
  if (handle == nullptr || !handle->audit || energies == nullptr) return EA_AUDIT_INVALID_ARGUMENT;
  const DropInStep last = handle->audit->last_step();
  *energies = {last.t, last.kinetic, last.potential, last.jacobi, last.energy_flow, last.control};
  return EA_AUDIT_SUCCESS;
}

template <class Handle>
const char* diagnosis(Handle* handle) {
  if (handle == nullptr || !handle->audit) return "";
  try {
    handle->diagnosis = handle->audit->diagnosis();
  } catch (...) {
    handle->diagnosis.clear();
  }
  return handle->diagnosis.c_str();
}

template <class Handle>
const char* last_error(const Handle* handle) {
  return handle != nullptr ? handle->last_error.c_str() : "the audit's handle is NULL";
}

template <class Handle>
void print_summary(const Handle* handle, FILE* out) {
  if (out == nullptr) return;
  if (handle == nullptr || !handle->audit) {
    std::fprintf(out, "energy audit: not set up: %s\n", last_error(handle));
    return;
  }
  try {
    handle->audit->print_summary(out);
  } catch (...) {  // nothing escapes into C
  }
}

}  // namespace energy_audit::sun::detail
