// The command line's argument parsers (examples/energy-audit/cli_options.hpp) as CLI11 applies
// them, on the inputs tests/fuzz/cli_arguments_fuzzer found: what a validator accepts is what the
// option gets, or the argument is refused with a message naming it.
#include "cli_options.hpp"

#include <CLI/CLI.hpp>
#include <boost/test/unit_test.hpp>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace cli = energy_audit::cli;

namespace {

/// Parses `arguments` (after the program's name) with the options of energy-audit's kinds.
struct Parsed {
  std::vector<cli::Assignment> sets;
  std::vector<cli::AssignmentList> lists;
  std::size_t every = 1;
  long max_steps = 1;

  explicit Parsed(std::vector<std::string> arguments) {
    CLI::App app;
    app.add_option("--set", sets)->check(cli::assignment())->take_all();
    app.add_option("--values", lists)->check(cli::assignment_list())->take_all();
    app.add_option("--every", every)->check(cli::positive_count(std::numeric_limits<std::size_t>::max()));
    app.add_option("--max-steps", max_steps)->check(cli::positive_count(std::numeric_limits<long>::max()));
    arguments.insert(arguments.begin(), "energy-audit");
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    app.parse(static_cast<int>(argv.size()), argv.data());
  }
};

}  // namespace

// CLI11 reads a count with a leading 0 as octal ("010" as 8, "0737095516709" not at all), where
// the validator read it as decimal: such a count is refused.
BOOST_AUTO_TEST_CASE(a_count_with_a_leading_zero_is_refused) {
  BOOST_CHECK_THROW(Parsed({"--every", "010"}), CLI::ValidationError);
  BOOST_CHECK_THROW(Parsed({"--max-steps", "0737095516709"}), CLI::ValidationError);
  try {
    Parsed({"--every", "010"});
  } catch (const CLI::ValidationError& e) {
    BOOST_TEST(std::string(e.what()).find("'010' is not a positive integer without leading zeros") !=
                   std::string::npos,
               e.what());
  }
  BOOST_TEST(Parsed({"--every", "10"}).every == 10u);
  BOOST_TEST(Parsed({"--max-steps", "737095516709"}).max_steps == 737095516709L);
}

// The validator takes the whole text as NAME=VALUE; the conversion stopped at the first blank
// and failed ("Could not convert"). The name keeps its blanks, for the model to refuse by name.
BOOST_AUTO_TEST_CASE(a_name_with_blanks_converts_as_it_was_validated) {
  const Parsed set({"--set", "e1\3373\r=3", "--set", "m1=8"});
  BOOST_TEST_REQUIRE(set.sets.size() == 2u);
  BOOST_TEST(set.sets[0].name == "e1\3373\r");
  BOOST_TEST(set.sets[0].value == 3.0);
  BOOST_TEST(set.sets[1].name == "m1");
  const Parsed list({"--values", " m1=8,10"});
  BOOST_TEST_REQUIRE(list.lists.size() == 1u);
  BOOST_TEST(list.lists[0].name == " m1");
  BOOST_TEST(list.lists[0].values == (std::vector<double>{8.0, 10.0}), boost::test_tools::per_element());
}
