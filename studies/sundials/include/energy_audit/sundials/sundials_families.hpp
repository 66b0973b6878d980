#pragma once
/// \file
/// The SUNDIALS method families of this build: CVODES, IDAS, and ARKODE where the SUNDIALS found
/// has it (a program that links EnergyAudit::arkode defines ENERGY_AUDIT_WITH_ARKODE), otherwise
/// ARKODE's absence, which says why its methods are not offered.

#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/sundials/cvodes_methods.hpp>
#include <energy_audit/sundials/idas_methods.hpp>
#ifdef ENERGY_AUDIT_WITH_ARKODE
#include <energy_audit/sundials/arkode_methods.hpp>
#else
#include <energy_audit/sundials/arkode_absent.hpp>
#endif

namespace energy_audit::sun {

#ifdef ENERGY_AUDIT_WITH_ARKODE
using ArkodeFamily = ArkodeMethods;
#else
using ArkodeFamily = ArkodeAbsent;
#endif

/// The studies' method families `Before` (the fixed-step family, for one), then SUNDIALS'.
template <studies::MethodFamily... Before>
using WithSundialsFamilies = studies::MethodFamilies<Before..., CvodesMethods, IdasMethods, ArkodeFamily>;

}  // namespace energy_audit::sun
