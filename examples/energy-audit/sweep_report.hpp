#pragma once
/// \file
/// `energy-audit sweep`'s report of a sweep (sweep.hpp): the table on standard output, the CSV
/// and the JSON record.

#include <ostream>
#include <string>


#include <energy_audit/studies/sweep.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

void print_sweep(std::ostream& out, const std::string& model, const SweepResult& sweep);
void write_sweep_csv(OutputFile& file, const SweepResult& sweep);
void write_sweep_json(OutputFile& file, const std::string& model, const SweepResult& sweep);

}  // namespace energy_audit::cli
