// The files every command writes: names reach no shell, a usage error leaves every file as it
// was, "-" and the devices are the streams, two outputs naming one file are refused.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(output_files)

// File names go to no shell and into no gnuplot command: each of these names gets exactly its
// own file, and the commands they hold never run.
BOOST_AUTO_TEST_CASE(file_names_are_never_run_as_commands) {
  const fs::path dir = fresh_dir("names");
  const std::vector<std::string> names{"`touch INJECTED1`.png", "$(touch INJECTED2).png",
                                       "it's \"quoted\"; touch INJECTED3 .png", "new\nline `touch INJECTED4`.png"};
  std::vector<std::string> expected;
  for (const std::string& name : names) {
    const Process p = run_cli({"compare", "crane", "--methods", "rk4", "--steps", "1e-2", "--plot", name}, dir);
    BOOST_TEST(p.status == 0, name << ": " << p.err);
    expected.push_back(name);
  }
  const Process c = run_cli({"compare", "crane", "--methods", "rk4,rk2", "--steps", "1e-2", "--plot-c",
                             "c $(touch INJECTED5).png", "--csv", "t`touch INJECTED6`.csv"}, dir);
  BOOST_TEST(c.status == 0, c.err);
  const Process r = run_cli({"run", "crane", "--csv", "h;touch INJECTED7.csv", "--json", "'$(touch INJECTED8)'.json"}, dir);
  BOOST_TEST(r.status == 0, r.err);
  for (const char* name : {"c $(touch INJECTED5).png", "t`touch INJECTED6`.csv", "h;touch INJECTED7.csv",
                           "'$(touch INJECTED8)'.json"}) {
    expected.push_back(name);
  }
  std::sort(expected.begin(), expected.end());
  BOOST_TEST(entries_of(dir) == expected, boost::test_tools::per_element());
  for (const std::string& name : names) {
    const std::string png = read_file(dir / name);
    BOOST_TEST(png.substr(0, 8) == "\x89PNG\r\n\x1a\n", name);
  }
  for (const fs::path& place : {fs::current_path(), scratch_dir()}) {
    for (const auto& entry : fs::directory_iterator(place)) {
      BOOST_TEST(entry.path().filename().string().find("INJECTED") == std::string::npos, entry.path());
    }
  }
}

// A usage error, a mistyped option included, creates no file and leaves every file as it was, in
// every command.
BOOST_AUTO_TEST_CASE(a_usage_error_leaves_every_file_as_it_was) {
  const fs::path dir = fresh_dir("usage");
  fs::create_directory(dir / "plots");
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"run", "crane", "--step", "0", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"run", "crane", "--json", "o.json", "--step", "0"},
        std::vector<std::string>{"run", "crane", "--t-end", "-1", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"run", "crane", "--rtol", "1e-6", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"run", "crane", "--csv", "o.csv", "--json", "o.json", "--stepp", "1e-3"},
        std::vector<std::string>{"run", "ellipse", "--set", "m=1", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"compare", "crane", "--steps", "9", "--csv", "o.csv", "--plot", "o.json"},
        std::vector<std::string>{"sweep", "crane", "--steps", "9", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"advise", "crane", "--target", "-1", "--json", "o.json"},
        std::vector<std::string>{"stability", "ellipse", "--k", "1:0:2", "--csv", "o.csv", "--json", "o.json"},
        std::vector<std::string>{"audit-trajectory", "crane", "no-such.csv", "--json", "o.json"},
        std::vector<std::string>{"reproduce", "seed001", "--plots", "plots", "--csv", "o.csv", "--json", "o.json"}}) {
    std::ofstream(dir / "o.csv") << "stale\n";
    std::ofstream(dir / "o.json") << "{\"verdict\": \"pass\"}\n";
    const Process p = run_cli(arguments, dir);
    BOOST_TEST(p.status == 2, p.err);
    BOOST_TEST(line_count(p.err) == 1u, p.err);
    BOOST_TEST((entries_of(dir) == std::vector<std::string>{"o.csv", "o.json", "plots"}),
               arguments[2] << " " << arguments[3]);
    BOOST_TEST(read_file(dir / "o.csv") == "stale\n");
    BOOST_TEST(read_file(dir / "o.json") == "{\"verdict\": \"pass\"}\n");
  }
}

// "-" is standard output, which then carries the file alone: the summary goes to standard error.
// /dev/stdout and /dev/stderr are written in place, into a file or a pipe; no file named "-" is
// made. Two outputs on one stream are a usage error.
BOOST_AUTO_TEST_CASE(dash_is_standard_output_and_devices_are_written_in_place) {
  const fs::path dir = fresh_dir("streams");
  const Process json = run_cli({"run", "crane", "--json", "-"}, dir);
  BOOST_TEST_REQUIRE(json.status == 0, json.err);
  BOOST_TEST(nlohmann::json::parse(json.out)["verdict"] == "pass");  // the JSON and nothing else
  BOOST_TEST(json.err.find("verdict    pass") != std::string::npos, json.err);

  const Process csv = run_cli({"run", "crane", "--every", "1000", "--csv", "-"}, dir);
  BOOST_TEST_REQUIRE(csv.status == 0, csv.err);
  const auto rows = lines_of(csv.out);
  BOOST_TEST_REQUIRE(rows.size() == 7u);  // the header and t = 0, 1, ..., 5
  BOOST_TEST(rows[0].rfind("t,x1,phi,", 0) == 0u, rows[0]);
  BOOST_TEST(rows[6].rfind("5,", 0) == 0u, rows[6]);

  const Process devices =
      run_cli({"run", "crane", "--every", "1000", "--json", "/dev/stdout", "--csv", "/dev/stderr"}, dir);
  BOOST_TEST_REQUIRE(devices.status == 0, devices.err);
  BOOST_TEST(nlohmann::json::parse(devices.out)["verdict"] == "pass");
  BOOST_TEST(devices.err.find("t,x1,phi,x1_dot,phi_dot") != std::string::npos, devices.err);
  BOOST_TEST(devices.err.find("verdict    pass") != std::string::npos, devices.err);
  BOOST_TEST(entries_of(dir).empty());

  // Into a pipe: /dev/stdout leads to a pipe, which has no name to follow.
  const Result piped =
      run_shell_command(std::string("{ ") + ENERGY_AUDIT_CLI + " run crane --json /dev/stdout | cat; }");
  BOOST_TEST(piped.err.find("verdict    pass") != std::string::npos, piped.err);
  BOOST_TEST(nlohmann::json::parse(piped.out)["verdict"] == "pass");

  expect_usage_error("run crane --csv - --json -", "standard output");
  expect_usage_error("run crane --csv - --json /dev/stdout", "standard output");
  expect_usage_error("run crane --csv /dev/stderr --json /dev/stderr", "standard error");
}

BOOST_AUTO_TEST_CASE(outputs_naming_one_file_and_unwritable_names_are_usage_errors_with_the_reason) {
  const fs::path dir = fresh_dir("same");
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"run", "crane", "--csv", "x", "--json", "x"},
        std::vector<std::string>{"run", "crane", "--csv", "x", "--json", "./x"},
        std::vector<std::string>{"compare", "crane", "--csv", "p.png", "--plot", "p.png"}}) {
    const Process p = run_cli(arguments, dir);
    BOOST_TEST(p.status == 2, p.err);
    BOOST_TEST(line_count(p.err) == 1u, p.err);
    BOOST_TEST(p.err.find("--json") + p.err.find("--plot") != 2 * std::string::npos, p.err);
  }
  BOOST_TEST(entries_of(dir).empty());
  const Process missing = run_cli({"run", "crane", "--csv", "no-such-dir/x.csv"}, dir);
  BOOST_TEST(missing.status == 2);
  BOOST_TEST(missing.err.find("No such file or directory") != std::string::npos, missing.err);
  fs::create_directory(dir / "a-directory");
  const Process directory = run_cli({"run", "crane", "--json", "a-directory"}, dir);
  BOOST_TEST(directory.status == 2);
  BOOST_TEST(directory.err.find("Is a directory") != std::string::npos, directory.err);
  const Process empty = run_cli({"run", "crane", "--json", ""}, dir);
  BOOST_TEST(empty.status == 2);
  BOOST_TEST(empty.err.find("--json") != std::string::npos, empty.err);
}

// /proc and /sys hold the kernel's interfaces, where no file can be created (creating one in /proc
// fails with "No such file or directory"): a usage error that says so, before any run.
BOOST_AUTO_TEST_CASE(an_output_on_the_kernels_file_systems_is_a_usage_error_naming_it) {
  for (const char* path : {"/proc/version", "/proc/new.csv"}) {
    const Result r = energy_audit(std::string("run crane --csv ") + path);
    BOOST_TEST(r.status == 2, path << ": " << r.err);
    BOOST_TEST(line_count(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find(std::string("--csv: cannot write '") + path + "'") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("No such file or directory") == std::string::npos, r.err);
    // Root may write /proc/version's permissions allow: the file system is the reason then.
    const bool told = r.err.find("'/proc' is on the kernel's proc file system") != std::string::npos ||
                      (::geteuid() != 0 && r.err.find("Permission denied") != std::string::npos);
    BOOST_TEST(told, r.err);
    BOOST_TEST(r.out.empty(), r.out);  // no run was made
  }
}

// A figure is drawn in the format its name's extension names, in any case; an extension that
// names no format drawn is a usage error before any run.
BOOST_AUTO_TEST_CASE(a_figure_is_drawn_in_the_format_its_extension_names) {
  const fs::path dir = fresh_dir("formats");
  const Process compare = run_cli({"compare", "crane", "--methods", "rk4", "--steps", "1e-2,5e-3", "--plot", "wp.svg",
                                   "--plot-c", "drift.PDF"}, dir);
  BOOST_TEST_REQUIRE(compare.status == 0, compare.err);
  const std::string svg = read_file(dir / "wp.svg");
  BOOST_TEST(svg.find("<svg") != std::string::npos, svg.substr(0, 200));
  BOOST_TEST(svg.find("PNG") == std::string::npos);
  BOOST_TEST(read_file(dir / "drift.PDF").substr(0, 5) == "%PDF-");
  const Process run = run_cli({"run", "crane", "--plot", "run.svg"}, dir);
  BOOST_TEST_REQUIRE(run.status == 0, run.err);
  BOOST_TEST(read_file(dir / "run.svg").find("<svg") != std::string::npos);
  for (const char* name : {"run.jpg", "run.svg.txt", "run.eps"}) {
    const Process refused = run_cli({"run", "crane", "--plot", name}, dir);
    BOOST_TEST(refused.status == 2, name << ": " << refused.err);
    BOOST_TEST(line_count(refused.err) == 1u, refused.err);
    BOOST_TEST(refused.err.find(std::string("--plot: cannot draw '") + name + "': name the figure .png, .svg or .pdf") !=
                   std::string::npos,
               refused.err);
  }
  BOOST_TEST((entries_of(dir) == std::vector<std::string>{"drift.PDF", "run.svg", "wp.svg"}));
}

namespace {

/// Sets PATH for the scope, restoring it after.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& path) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", path.c_str(), 1);
  }
  ~ScopedPath() { ::setenv("PATH", old_.c_str(), 1); }
  ScopedPath(const ScopedPath&) = delete;
  ScopedPath& operator=(const ScopedPath&) = delete;

 private:
  std::string old_;
};

/// Whether `dir` holds a hidden temporary of an output (".NAME.XXXXXX").
bool has_temporary(const fs::path& dir) {
  const std::vector<std::string> names = entries_of(dir);
  return std::any_of(names.begin(), names.end(), [](const std::string& name) { return name.rfind('.', 0) == 0; });
}

}  // namespace

// A signal that lands while the outputs are being created finds the interruption handlers
// installed: here the run blocks opening a FIFO (--json) that no one reads, with --csv's
// temporary made; SIGINT ends it with 130 and no file of it is left.
BOOST_AUTO_TEST_CASE(a_signal_while_the_outputs_are_created_leaves_no_temporary) {
  const fs::path dir = fresh_dir("signal-while-opening");
  BOOST_TEST_REQUIRE(::mkfifo((dir / "fifo.json").c_str(), 0600) == 0);
  const pid_t pid = start_cli({"run", "crane", "--csv", "h.csv", "--json", "fifo.json"}, dir);
  BOOST_TEST_REQUIRE(wait_for_file(dir, ".h.csv.", 0));
  ::usleep(300000);  // into the open() of the FIFO, which waits for a reader
  ::kill(pid, SIGINT);
  const Process p = finish_cli(pid);
  BOOST_TEST(p.status == 130, p.err);
  BOOST_TEST(entries_of(dir) == std::vector<std::string>{"fifo.json"}, boost::test_tools::per_element());
}

// A second signal ends the program at once, and removes the temporaries of the files being
// written first: here while gnuplot (a stand-in that does not finish) draws --plot, with --csv's
// history written to its temporary.
BOOST_AUTO_TEST_CASE(a_second_signal_ends_the_program_and_leaves_no_temporary) {
  const fs::path dir = fresh_dir("second-signal");
  const fs::path bin = fresh_dir("second-signal-gnuplot");
  {
    std::ofstream gnuplot(bin / "gnuplot");
    gnuplot << "#!/bin/sh\ncat >/dev/null\ntouch \"$(dirname \"$0\")/drawing\"\nexec sleep 5\n";
  }
  fs::permissions(bin / "gnuplot", static_cast<fs::perms>(0755));
  pid_t pid = -1;
  {
    const ScopedPath path(bin.string() + ":/usr/bin:/bin");
    pid = start_cli({"run", "crane", "--csv", "h.csv", "--plot", "p.png"}, dir);
  }
  BOOST_TEST_REQUIRE(wait_for_file(bin, "drawing", 0));
  BOOST_TEST(has_temporary(dir));  // the run's two temporaries, until the signals
  ::kill(pid, SIGINT);  // requests the stop: the run is over, the drawing goes on
  ::usleep(200000);
  ::kill(pid, SIGINT);  // ends it
  const Process p = finish_cli(pid);
  BOOST_TEST(p.status == 130, p.err);
  BOOST_TEST(entries_of(dir).empty(), entries_of(dir).size() << " files left");
}

// reproduce --plots takes a directory that exists: one that does not is a usage error naming it,
// before any run.
BOOST_AUTO_TEST_CASE(reproduce_plots_into_a_missing_directory_is_a_usage_error_before_any_run) {
  const fs::path dir = fresh_dir("reproduce-plots");
  const Process p = run_cli({"reproduce", "seed000", "--plots", "figures", "--csv", "t.csv"}, dir);
  BOOST_TEST(p.status == 2, p.err);
  BOOST_TEST(line_count(p.err) == 1u, p.err);
  BOOST_TEST(p.err.find("--plots") != std::string::npos, p.err);
  BOOST_TEST(p.err.find("'figures'") != std::string::npos, p.err);
  BOOST_TEST(p.out.empty(), p.out);  // no run was made
  BOOST_TEST(entries_of(dir).empty());
}

BOOST_AUTO_TEST_SUITE_END()
