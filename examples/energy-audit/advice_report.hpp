#pragma once
/// \file
/// `energy-audit advise`'s report of the advice (step_advisor.hpp): the table on standard output
/// and the JSON record.

#include <ostream>
#include <string>


#include <energy_audit/studies/step_advisor.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

void print_advice(std::ostream& out, const std::string& model, const AdviceSettings& settings, const Advice& advice);
void write_advice_json(OutputFile& file, const std::string& model, const AdviceSettings& settings, const Advice& advice);

}  // namespace energy_audit::cli
