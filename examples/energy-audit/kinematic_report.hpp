#pragma once
/// \file
/// What the command line prints and writes for a kinematic model's run: the summary, the
/// history CSV (t, the coordinates, |f| per step) and the JSON record.

#include <ostream>

#include "kinematic_models.hpp"
#include "output_file.hpp"

namespace energy_audit::cli {

void print_kinematic_summary(std::ostream& out, const KinematicOutcome& run);
/// The header and every kept row (KinematicSettings::keep_history).
void write_kinematic_csv(OutputFile& file, const KinematicOutcome& run);
void write_kinematic_json(OutputFile& file, const KinematicOutcome& run);

}  // namespace energy_audit::cli
