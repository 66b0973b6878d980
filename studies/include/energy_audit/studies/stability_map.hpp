#pragma once
/// \file
/// The stability map of a kinematic model (`energy-audit stability`): the verdict of every run
/// over a grid of gains k, for each method, step τ and named start, beside what linear theory
/// and the numerical boundaries say (docs/models.md, the ellipse). The runs are independent and go
/// to a pool of threads or across MPI ranks (run_pool.hpp); every result lands at its own index, so
/// the map equals a serial one.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <energy_audit/stop_request.hpp>

#include <energy_audit/studies/kinematic_run.hpp>
#include <energy_audit/studies/run_pool.hpp>

namespace energy_audit::studies {

struct StabilityMapSettings {
  std::vector<Method> methods;  ///< fixed-step methods with a stability polynomial
  std::vector<double> steps;    ///< τ
  std::vector<double> gains;    ///< k
  ModelSetup setup;             ///< --set and --init besides k and the starts
  std::optional<double> t_end;
  int multiplier_points = 4096;
  bool boundaries = true;  ///< search the operational boundaries and rho(k) = 1
  const StopRequest* stop = nullptr;
};

/// One run of the map.
struct MapPoint {
  std::string method;
  double tau = 0;
  std::string start;
  double k = 0;
  double f_max = 0, f_final = 0;
  double rho = 0;
  std::string verdict;
};

/// A boundary of the operationally stable k (|f_n| ≤ 1 for every n): the last stable and the
/// first unstable k of the bracketing search, and the passing scan points beyond it (> 0: the
/// stable set is not an interval). Absent when the first scan point fails or none fails.
struct OperationalBoundary {
  double last_stable = 0, first_unstable = 0;
  int passing_beyond = 0;
};

struct StartBoundaries {
  std::string start;
  std::optional<OperationalBoundary> lower, upper;
};

/// What linear theory and the searches say for one method and step.
struct MethodStepSummary {
  std::string method;
  double tau = 0;
  LinearInterval linear;
  std::optional<double> rho_one_lower, rho_one_upper;  ///< rho(k) = 1 by bisection
  std::vector<StartBoundaries> starts;
};

struct StabilityMap {
  std::vector<MapPoint> points;  ///< method, τ, k, start in that order of nesting
  std::vector<MethodStepSummary> summaries;
  Workers workers;  ///< what ran it
  bool interrupted = false;
};

/// Runs the map and, with settings.boundaries, the searches; throws SettingsError for a method
/// that is not an explicit Runge–Kutta method of the list.
StabilityMap compute_stability_map(const KinematicEntry& model, const StabilityMapSettings& settings,
                                   const RunPool& pool);

}  // namespace energy_audit::studies
