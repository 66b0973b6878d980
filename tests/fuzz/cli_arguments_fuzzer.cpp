// libFuzzer target: the command line's argument parsers (examples/energy-audit/cli_options.cpp)
// as CLI11 applies them: each line of the input is one argument to a CLI::App with the options
// of energy-audit's kinds (--set and --init NAME=VALUE, sweep's NAME=V1,V2,..., positive and
// finite numbers, counts, --k FIRST:STEP:LAST). An input is either refused (CLI::ParseError,
// UsageError) or gives values that keep the validators' promises: what a validator accepted
// converts, every number is finite and within its bounds, a name is not empty, a range has at
// most a million and one gains. Anything else (another exception, a sanitizer report, a hang) is
// a finding.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "usage_error.hpp"

namespace cli = energy_audit::cli;

namespace {

void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "cli_arguments_fuzzer: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // argv: the program's name, then one argument per line.
  std::vector<std::string> arguments{"energy-audit"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      arguments.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  if (!current.empty()) arguments.push_back(current);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());

  CLI::App app;
  std::vector<cli::Assignment> sets;
  std::vector<cli::AssignmentList> lists;
  double step = 1, t_end = 1, offset = 0;
  std::size_t every = 1;
  long max_steps = 1;
  std::string gains;
  app.add_option("--set", sets)->check(cli::assignment())->take_all();
  app.add_option("--values", lists)->check(cli::assignment_list())->take_all();
  app.add_option("--step", step)->check(cli::positive_number());
  app.add_option("--t-end", t_end)->check(cli::non_negative_number());
  app.add_option("--offset", offset)->check(cli::finite_number());
  app.add_option("--every", every)->check(cli::positive_count(std::numeric_limits<std::size_t>::max()));
  app.add_option("--max-steps", max_steps)->check(cli::positive_count(std::numeric_limits<long>::max()));
  app.add_option("--k", gains);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ConversionError& e) {
    std::fprintf(stderr, "cli_arguments_fuzzer: validated, then not converted: %s\n", e.what());
    std::abort();
  } catch (const CLI::ParseError&) {
    return 0;
  }
  for (const cli::Assignment& a : sets)
    require(!a.name.empty() && std::isfinite(a.value), "--set: a bad NAME=VALUE");
  for (const cli::AssignmentList& list : lists) {
    require(!list.name.empty() && !list.values.empty(), "--values: a name or the values missing");
    for (const double value : list.values) require(std::isfinite(value), "--values: a value not finite");
  }
  require(std::isfinite(step) && step > 0, "--step not > 0");
  require(std::isfinite(t_end) && t_end >= 0, "--t-end not >= 0");
  require(std::isfinite(offset), "--offset not finite");
  require(every >= 1 && max_steps >= 1, "a count below 1");
  if (app.count("--k") > 0) {
    cli::GainRange range;
    try {
      range = cli::parse_gain_range(gains);
    } catch (const cli::UsageError&) {
      return 0;
    }
    require(std::isfinite(range.first) && std::isfinite(range.last) && range.step > 0 &&
                range.last >= range.first,
            "--k: a bad range accepted");
    const std::vector<double> values = range.values();
    require(!values.empty() && values.size() <= 1'000'001, "--k: the number of gains");
    require(values.front() == range.first, "--k: the first gain");
    // The last gain may pass LAST by the 1e-9 STEP of the count and the rounding of FIRST + i STEP.
    const double beyond = 1e-9 * range.step + 1e-12 * (std::abs(range.first) + std::abs(range.last));
    for (const double k : values)
      require(std::isfinite(k) && k <= range.last + beyond, "--k: a gain beyond LAST");
  }
  return 0;
}
