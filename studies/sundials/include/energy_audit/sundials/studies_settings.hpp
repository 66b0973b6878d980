#pragma once
/// \file
/// The studies' adaptive settings (energy_audit/studies/adaptive_settings.hpp) as the SUNDIALS
/// adapters' options: what the families of EnergyAudit::studies_sundials hand their solver.

#include <utility>

#include <energy_audit/sundials/cvodes_options.hpp>
#include <energy_audit/sundials/idas_options.hpp>

#include <energy_audit/studies/adaptive_settings.hpp>

namespace energy_audit::sun {

inline ZMode z_mode_of(studies::ZMode mode) {
  return mode == studies::ZMode::Quadrature ? ZMode::Quadrature : ZMode::State;
}

inline NonlinearIteration iteration_of(studies::NonlinearIteration iteration) {
  return iteration == studies::NonlinearIteration::FixedPoint ? NonlinearIteration::FixedPoint
                                                              : NonlinearIteration::Newton;
}

namespace detail {

/// The step control every SUNDIALS integrator takes alike (tolerances, step bounds), copied into
/// its `options`.
template <class Options>
Options with_step_control(const studies::AdaptiveSettings& settings, Options options) {
  options.rtol = settings.rtol;
  options.atol = settings.atol;
  options.max_steps = settings.max_steps;
  options.initial_step = settings.initial_step;
  options.max_step = settings.max_step;
  return options;
}

/// The step control and where Ż is carried, for the integrators with quadratures (CVODES, IDAS).
template <class Options>
Options with_tolerances(const studies::AdaptiveSettings& settings, Options options) {
  options = with_step_control(settings, std::move(options));
  options.z_mode = z_mode_of(settings.z_mode);
  options.quadrature_error_control = settings.quadrature_error_control;
  return options;
}

}  // namespace detail

/// CVODES' options for a run of `method` with the studies' `settings`.
inline CvodesOptions cvodes_options(const studies::AdaptiveSettings& settings, Multistep method) {
  CvodesOptions options = detail::with_tolerances(settings, CvodesOptions{});
  options.method = method;
  options.iteration = iteration_of(settings.iteration);
  return options;
}

/// IDAS' options with the studies' `settings` (the residual form and Baumgarte's factors are the
/// caller's).
inline IdasOptions idas_options(const studies::AdaptiveSettings& settings) {
  return detail::with_tolerances(settings, IdasOptions{});
}

}  // namespace energy_audit::sun
