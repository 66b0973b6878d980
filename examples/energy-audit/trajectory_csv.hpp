#pragma once
/// \file
/// Samples (t, q, v, a) of a trajectory computed elsewhere, read from a CSV file for
/// `energy-audit audit-trajectory`: a header that names `t,Q1..Qn,Q1_dot..Qn_dot,Q1_ddot..Qn_ddot`
/// with the model's coordinate names, in any order among other columns (a history written by
/// `run --csv` in Lagrange's form has them all), then one row per sample, times increasing, with
/// finite numbers in those columns.

#include <string>
#include <vector>

#include <energy_audit/trajectory_audit.hpp>

namespace energy_audit::cli {

/// The header the model's samples need.
std::vector<std::string> trajectory_columns(const std::vector<std::string>& coordinate_names);

/// Reads the samples from the file at `path`, or from standard input for "-"; throws UsageError
/// naming the file ("standard input" for "-"), the line and what is wrong with it, or the reason
/// the system gives when the file cannot be read ("No such file or directory").
TrajectorySamples read_trajectory_csv(const std::string& path, const std::vector<std::string>& coordinate_names);

}  // namespace energy_audit::cli
