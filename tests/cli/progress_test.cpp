// The progress line of the studies (sweep, compare, stability, advise) on standard error: shown
// on a terminal or when asked, never on standard output.
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(progress)

namespace {

/// What each line of a progress display on stderr says in the end: its text after its last
/// carriage return, without the spaces that blanked a longer text.
std::vector<std::string> final_texts(const std::string& err) {
  std::vector<std::string> texts;
  for (std::string line : lines_of(err)) {
    line = line.substr(line.rfind('\r') + 1);  // all of it when there is none
    line.erase(line.find_last_not_of(' ') + 1);
    texts.push_back(line);
  }
  return texts;
}

/// The final text that starts with `prefix`; empty when none does.
std::string final_text(const std::string& err, const std::string& prefix) {
  for (const std::string& text : final_texts(err)) {
    if (text.rfind(prefix, 0) == 0) return text;
  }
  return {};
}

std::string without_wall_times(const std::string& sweep_table) {
  return std::regex_replace(sweep_table, std::regex("[0-9.e+-]+ s\n"), "s\n");
}

}  // namespace

BOOST_AUTO_TEST_CASE(studies_count_their_runs_on_stderr_when_asked_and_leave_stdout_as_it_is) {
  // The tests' stderr is a file, not a terminal: no progress line unless --progress asks for it.
  const std::string sweep = "sweep crane --set m1=8,10 --methods rk4,cvode-bdf --steps 1e-2,5e-3 --rtols 1e-6 --threads 2";
  const Result plain = energy_audit(sweep);
  const Result shown = energy_audit(sweep + " --progress");
  BOOST_TEST_REQUIRE(plain.status == 0, plain.err);
  BOOST_TEST_REQUIRE(shown.status == 0, shown.err);
  BOOST_TEST(plain.err.empty(), plain.err);
  BOOST_TEST(plain.out.find("sweep of crane: 6 runs on 2 threads") != std::string::npos, plain.out);
  BOOST_TEST(without_wall_times(shown.out) == without_wall_times(plain.out));
  BOOST_TEST(shown.err.find('\r') != std::string::npos, shown.err);  // rewritten in place
  BOOST_TEST(shown.err.back() == '\n', shown.err);                   // and ended
  BOOST_TEST(final_text(shown.err, "sweep of crane: ").rfind("sweep of crane: 6/6 runs, ", 0) == 0u, shown.err);

  const std::string compare = "compare crane --methods rk4,cvode-bdf --steps 1e-2,5e-3 --rtols 1e-6";
  BOOST_TEST(energy_audit(compare).err.empty());
  const Result compared = energy_audit(compare + " --progress");
  BOOST_TEST_REQUIRE(compared.status == 0, compared.err);
  BOOST_TEST(final_text(compared.err, "compare crane: ").rfind("compare crane: 3/3 runs, ", 0) == 0u, compared.err);

  // The map's count is that of the header: runs, each gain for each start, not the gains.
  const std::string map = "stability ellipse --methods euler,rk4 --steps 0.01 --k -320:4:3 --t-end 5 --threads 2";
  const Result mapped_plain = energy_audit(map);
  const Result mapped = energy_audit(map + " --progress");
  BOOST_TEST_REQUIRE(mapped_plain.status == 0, mapped_plain.err);
  BOOST_TEST_REQUIRE(mapped.status == 0, mapped.err);
  const std::string header = "energy-audit: 324 runs of the map on 2 threads, then the boundary searches";
  BOOST_TEST(mapped_plain.err == header + "\n");  // not a terminal: the header alone
  BOOST_TEST(final_texts(mapped.err).front() == header, mapped.err);
  BOOST_TEST(final_text(mapped.err, "stability ellipse, map: ").rfind("stability ellipse, map: 324/324 runs, ", 0) == 0u,
             mapped.err);
  BOOST_TEST(!final_text(mapped.err, "stability ellipse, boundary searches: ").empty(), mapped.err);
  BOOST_TEST(mapped.out == mapped_plain.out);
  BOOST_TEST(energy_audit(map + " --no-boundaries --quiet").err.empty());

  // advise: the probes of each method, as many as its JSON lists.
  const fs::path json = scratch_dir() / "advice_progress.json";
  const std::string advise = "advise crane --target 1e-6 --methods rk4,cvode-bdf --json " + json.string();
  BOOST_TEST(energy_audit(advise).err.empty());
  const Result advised = energy_audit(advise + " --progress");
  BOOST_TEST_REQUIRE(advised.status == 0, advised.err);
  const nlohmann::json advice = nlohmann::json::parse(read_file(json));
  const std::size_t rk4 = advice["methods"][0]["probes"].size(), bdf = advice["methods"][1]["probes"].size();
  const std::string expected = "advise crane: 2/2 methods done, " + std::to_string(rk4 + bdf) + " probes (rk4 " +
                               std::to_string(rk4) + ", cvode-bdf " + std::to_string(bdf) + "), ";
  BOOST_TEST(final_text(advised.err, "advise crane: ").rfind(expected, 0) == 0u, advised.err << "\nexpected: " << expected);

  expect_usage_error(sweep + " --quiet --progress", "--quiet");
}

// On a terminal (a pseudo-terminal of util-linux's script, where there is one) the line is shown
// by default and --quiet removes it.
BOOST_AUTO_TEST_CASE(on_a_terminal_the_progress_line_is_shown_unless_quiet) {
  if (std::system("script -qec true /dev/null >/dev/null 2>&1") != 0) {
    BOOST_TEST_MESSAGE("no script(1) with a pseudo-terminal here: skipped");
    return;
  }
  const std::string sweep = std::string(ENERGY_AUDIT_CLI) + " sweep crane --set m1=8,10 --methods rk4 --steps 1e-2";
  const Result tty = run_shell_command("script -qec '" + sweep + "' /dev/null");
  const Result quiet = run_shell_command("script -qec '" + sweep + " --quiet' /dev/null");
  BOOST_TEST_REQUIRE(tty.status == 0, tty.out);
  BOOST_TEST_REQUIRE(quiet.status == 0, quiet.out);
  BOOST_TEST(tty.out.find("sweep of crane: 2/2 runs, ") != std::string::npos, tty.out);
  BOOST_TEST(quiet.out.find("2/2 runs") == std::string::npos, quiet.out);
  BOOST_TEST(quiet.out.find("sweep of crane: 2 runs on") != std::string::npos, quiet.out);
  // The map counts what its header announces: 162 gains and steps, each from both starts.
  const Result map = run_shell_command("script -qec '" + std::string(ENERGY_AUDIT_CLI) +
                                       " stability ellipse --methods euler,rk4 --steps 0.01 --k -320:4:3 --t-end 5"
                                       " --no-boundaries' /dev/null");
  BOOST_TEST_REQUIRE(map.status == 0, map.out);
  BOOST_TEST(map.out.find("energy-audit: 324 runs of the map") != std::string::npos, map.out);
  BOOST_TEST(map.out.find("stability ellipse, map: 324/324 runs, ") != std::string::npos, map.out);
}

BOOST_AUTO_TEST_SUITE_END()
