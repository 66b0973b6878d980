#pragma once
/// \file
/// EnergyAudit core: models, the energy audit and the fixed-step module, in one include.

#include "energy_audit/any_system.hpp"
#include "energy_audit/audit.hpp"
#include "energy_audit/derived_accelerations.hpp"
#include "energy_audit/energy_flow.hpp"
#include "energy_audit/energy_sample.hpp"
#include "energy_audit/energy_terms.hpp"
#include "energy_audit/error.hpp"
#include "energy_audit/history.hpp"
#include "energy_audit/integrate_const.hpp"
#include "energy_audit/lagrange_model.hpp"
#include "energy_audit/lagrange_system.hpp"
#include "energy_audit/model_description.hpp"
#include "energy_audit/steppers/butcher_tableau.hpp"
#include "energy_audit/steppers/euler_cromer.hpp"
#include "energy_audit/steppers/explicit_runge_kutta.hpp"
#include "energy_audit/steppers/fixed_step_method.hpp"
#include "energy_audit/types.hpp"
