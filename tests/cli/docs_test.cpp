// The numbers the docs show as a command's output: each line quoted from a command's output in
// docs/ is a line that command prints, so that no number in the docs is stale or made up.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

namespace {

/// The repository's docs/ (this file is tests/cli/docs_test.cpp).
fs::path docs_dir() { return fs::path(__FILE__).parent_path().parent_path().parent_path() / "docs"; }

std::string trimmed(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t") + 1 - first);
}

/// A doc's lines that start (after their indentation) with `start`, trimmed.
std::vector<std::string> doc_lines_starting(const std::string& doc, const std::string& start) {
  std::vector<std::string> found;
  for (const std::string& line : lines_of(read_file(docs_dir() / doc))) {
    if (trimmed(line).rfind(start, 0) == 0) found.push_back(trimmed(line));
  }
  return found;
}

/// The lines of a doc's section "## NAME" (up to the next "## ") that start with `start`, trimmed.
std::vector<std::string> section_lines_starting(const std::string& doc, const std::string& section,
                                                const std::string& start) {
  std::vector<std::string> found;
  bool inside = false;
  for (const std::string& line : lines_of(read_file(docs_dir() / doc))) {
    if (line.rfind("## ", 0) == 0) inside = line == "## " + section;
    if (inside && trimmed(line).rfind(start, 0) == 0) found.push_back(trimmed(line));
  }
  return found;
}

bool prints_line(const std::string& output, const std::string& line) {
  const std::vector<std::string> lines = lines_of(output);
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return trimmed(l) == line; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(docs)

// docs/command-line.md, "The work ledger": the ledger's lines of `energy-audit run crane-wrong`.
BOOST_AUTO_TEST_CASE(the_work_ledgers_lines_are_those_run_crane_wrong_prints) {
  const Result run = energy_audit("run crane-wrong");
  BOOST_TEST_REQUIRE(run.status == 0, run.err);
  for (const char* start : {"work       W_damper = ", "residual   C - C0 = "}) {
    const std::vector<std::string> shown = doc_lines_starting("command-line.md", start);
    BOOST_TEST_REQUIRE(shown.size() == 1u, start);
    BOOST_TEST(prints_line(run.out, shown[0]), shown[0] << "\nis not a line of `run crane-wrong`:\n" << run.out);
  }
}

// docs/command-line.md, "diagnose": every line it shows of a diagnosis (the lines from
// `diagnosis` to `what to do`) is a line one of the three diagnoses it names prints.
BOOST_AUTO_TEST_CASE(the_diagnoses_shown_are_those_the_commands_print) {
  std::string printed;
  for (const char* command : {"diagnose crane --step 0.02 --threads 2", "diagnose crane-wrong --threads 2",
                              "diagnose crane --step 2.5e-4 --levels 9 --threads 2"}) {
    const Result r = energy_audit(command);
    BOOST_TEST_REQUIRE(r.status == 0, command << ": " << r.err);
    printed += r.out;
  }
  std::size_t checked = 0;
  for (const char* start : {"diagnosis  ", "equations  the model", "equation of x1", "equation of phi", "drift      ",
                            "ledger     ", "what to do "}) {
    for (const std::string& shown : section_lines_starting("command-line.md", "diagnose", start)) {
      BOOST_TEST(prints_line(printed, shown), shown << "\nis printed by none of the diagnoses:\n" << printed);
      ++checked;
    }
  }
  BOOST_TEST(checked >= 9u);
}

// docs/command-line.md, "reproduce seed002": the table's rows are those the command prints.
BOOST_AUTO_TEST_CASE(the_seed002_table_shown_is_the_one_reproduce_prints) {
  const Result r = energy_audit("reproduce seed002");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  std::size_t checked = 0;
  for (const char* start : {"euler-cromer  0.", "rk2           0.", "rk4           0."}) {
    for (const std::string& shown : section_lines_starting("command-line.md", "reproduce seed002", start)) {
      BOOST_TEST(prints_line(r.out, shown), shown << "\nis not a line of `reproduce seed002`:\n" << r.out);
      ++checked;
    }
  }
  BOOST_TEST(checked == 5u);
}

// docs/command-line.md, "Methods": every method `energy-audit list` offers is described there, by
// its name as the registry spells it.
BOOST_AUTO_TEST_CASE(the_methods_section_names_every_method_list_offers) {
  const Result list = energy_audit("list");
  BOOST_TEST_REQUIRE(list.status == 0, list.err);
  const std::string doc = read_file(docs_dir() / "command-line.md");
  const std::string methods_section = doc.substr(doc.find("### Methods"));
  bool in_methods = false;
  std::size_t named = 0;
  for (const std::string& line : lines_of(list.out)) {
    if (line.rfind("Methods", 0) == 0) in_methods = true;
    if (!in_methods || line.rfind("  ", 0) != 0) continue;
    const std::string name = trimmed(line).substr(0, trimmed(line).find(' '));
    BOOST_TEST(methods_section.find("`" + name + "`") != std::string::npos, name);
    ++named;
  }
  BOOST_TEST(named >= 7u);  // the fixed-step methods at least
}

BOOST_AUTO_TEST_SUITE_END()
