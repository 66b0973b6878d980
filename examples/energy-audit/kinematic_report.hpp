#pragma once
/// \file
/// What the command line prints and writes for a kinematic model's run: the summary, the
/// history CSV (t, the coordinates, |f| per step) and the JSON record.

#include <ostream>
#include <string>

#include "example_models.hpp"
#include "output_file.hpp"

namespace energy_audit::cli {

void print_kinematic_summary(std::ostream& out, const KinematicOutcome& run);
/// How a run that did not finish stopped, for the message on standard error: "diverged: |f|
/// beyond 1e100 or not finite in the step after t = 0.12", "interrupted at t = 3", "error: ...;
/// stopped at t = 1.5"; empty when it finished.
std::string stop_description(const KinematicOutcome& run);
/// The header and every kept row (KinematicSettings::keep_history).
void write_kinematic_csv(OutputFile& file, const KinematicOutcome& run);
void write_kinematic_json(OutputFile& file, const KinematicOutcome& run);

}  // namespace energy_audit::cli
