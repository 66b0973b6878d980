#pragma once
/// \file
/// `energy-audit reproduce seed001`: each claim of seed 001 about its ellipse example beside what
/// the computation here shows, with the command that shows it. The project reports what it
/// computes, whether or not the paper agrees.

#include <string>
#include <vector>

#include <energy_audit/stop_request.hpp>
#include <energy_audit/studies/run_pool.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

using namespace energy_audit::studies;

struct ClaimCheck {
  std::string claim;     ///< what the paper says
  std::string computed;  ///< what the runs here show
  bool agrees = false;
  std::string command;  ///< the command line that shows it
};

/// Runs the checks (the boundary search on `pool`); stops early when `stop` is requested.
std::vector<ClaimCheck> check_seed001_claims(const RunPool& pool, const StopRequest* stop);
void print_claim_checks(std::ostream& out, const std::vector<ClaimCheck>& checks);
void write_claim_checks_csv(OutputFile& file, const std::vector<ClaimCheck>& checks);
void write_claim_checks_json(OutputFile& file, const std::vector<ClaimCheck>& checks);

}  // namespace energy_audit::cli
