// The files the command line writes (OutputFile and the checks made before a run), the bounded
// series behind --plot-c (DriftEnvelope), and the plots drawn by gnuplot without a shell.
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <energy_audit/error.hpp>

#include <energy_audit/studies/drift_envelope.hpp>
#include "output_file.hpp"
#include "plots.hpp"
#include "usage_error.hpp"

namespace fs = std::filesystem;
using energy_audit::Error;
using namespace energy_audit::cli;
using energy_audit::studies::DriftEnvelope;

namespace {

const fs::path& scratch_root() {
  static const fs::path root = fs::temp_directory_path() / ("energy_audit_output_test_" + std::to_string(::getpid()));
  return root;
}

/// A new, empty directory for one test.
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = scratch_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct RemoveScratch {
  ~RemoveScratch() {
    std::error_code ignored;
    fs::remove_all(scratch_root(), ignored);
  }
};
BOOST_TEST_GLOBAL_FIXTURE(RemoveScratch);

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

mode_t mode_of(const fs::path& path) {
  struct stat status {};
  ::stat(path.c_str(), &status);
  return status.st_mode & 07777;
}

/// Runs `body` in a child process (to drop privileges or mount a file system there) and returns
/// what it returned, or the exception it threw. No Boost.Test assertion may run in the child.
std::string in_child(const std::function<std::string()>& body) {
  int ends[2];
  BOOST_TEST_REQUIRE(::pipe(ends) == 0);
  const pid_t pid = ::fork();
  BOOST_TEST_REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(ends[0]);
    std::string result;
    try {
      result = body();
    } catch (const std::exception& e) {
      result = std::string("exception: ") + e.what();
    }
    const char* data = result.data();
    std::size_t left = result.size();
    while (left > 0) {
      const ssize_t written = ::write(ends[1], data, left);
      if (written <= 0) break;
      data += written;
      left -= static_cast<std::size_t>(written);
    }
    ::_exit(0);
  }
  ::close(ends[1]);
  std::string result;
  char chunk[4096];
  for (ssize_t got; (got = ::read(ends[0], chunk, sizeof chunk)) > 0;) result.append(chunk, static_cast<std::size_t>(got));
  ::close(ends[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  BOOST_TEST(WIFEXITED(status));
  return result;
}

/// In a child: gives up root for nobody (65534), so permissions apply; not needed otherwise.
bool drop_root() { return ::geteuid() != 0 || (::setgid(65534) == 0 && ::setuid(65534) == 0); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// OutputFile

BOOST_AUTO_TEST_CASE(commit_makes_exactly_the_target_with_the_content) {
  const fs::path dir = fresh_dir("commit");
  const fs::path target = dir / "out.csv";
  const std::string big(200 * 1024, 'x');  // more than the buffer: written around it
  const mode_t old_mask = ::umask(027);
  {
    OutputFile file(target.string());
    file.write("head\n");
    file.write(big);
    file.write("tail\n");
    BOOST_TEST(!fs::exists(target));
    const auto during = entries(dir);
    BOOST_TEST_REQUIRE(during.size() == 1u);
    BOOST_TEST(during.begin()->rfind(".out.csv.", 0) == 0u, *during.begin());
    file.commit();
    BOOST_TEST(file.target() == target.string());
    BOOST_TEST(message_of([&] { file.write("more"); }).find("closed") != std::string::npos);
  }
  ::umask(old_mask);
  BOOST_TEST(entries(dir) == std::set<std::string>{"out.csv"});
  BOOST_TEST(read_file(target) == "head\n" + big + "tail\n");
  BOOST_TEST(mode_of(target) == 0640u);  // 0666 & ~027, not mkstemp's 0600
}

BOOST_AUTO_TEST_CASE(uncommitted_output_leaves_no_file_and_no_temporary) {
  const fs::path dir = fresh_dir("uncommitted");
  { OutputFile file((dir / "a.png").string()); }
  {
    OutputFile file((dir / "b.png").string());
    file.write(std::string(100 * 1024, 'b'));
    (void)file.descriptor();
  }
  BOOST_TEST(message_of([&] {
               OutputFile file((dir / "c.png").string());
               file.write("partial");
               throw std::runtime_error("a run failed");
             }) == "a run failed");
  BOOST_TEST(entries(dir).empty());
}

BOOST_AUTO_TEST_CASE(existing_target_is_untouched_until_commit_and_keeps_its_mode) {
  const fs::path dir = fresh_dir("existing");
  const fs::path target = dir / "table.csv";
  write_file(target, "old\n");
  fs::permissions(target, static_cast<fs::perms>(0604));
  {
    OutputFile file(target.string());
    file.write("new\n");
    (void)file.descriptor();  // flushed into the temporary, not into the target
    BOOST_TEST(read_file(target) == "old\n");
  }
  BOOST_TEST(read_file(target) == "old\n");  // dropped: still the old file
  OutputFile file(target.string());
  file.write("new\n");
  file.commit();
  BOOST_TEST(read_file(target) == "new\n");
  BOOST_TEST(mode_of(target) == 0604u);
  BOOST_TEST(entries(dir) == std::set<std::string>{"table.csv"});
}

BOOST_AUTO_TEST_CASE(moving_hands_over_the_temporary) {
  const fs::path dir = fresh_dir("move");
  OutputFile first((dir / "one").string());
  first.write("1");
  OutputFile second = std::move(first);
  OutputFile third((dir / "three").string());
  third = std::move(second);  // drops "three"'s temporary, takes "one"'s
  BOOST_TEST(entries(dir).size() == 1u);
  third.commit();
  BOOST_TEST(entries(dir) == std::set<std::string>{"one"});
  BOOST_TEST(read_file(dir / "one") == "1");
}

BOOST_AUTO_TEST_CASE(symbolic_link_target_replaces_the_file_it_names) {
  const fs::path dir = fresh_dir("link");
  write_file(dir / "real.png", "old");
  fs::create_symlink("real.png", dir / "latest.png");
  OutputFile file((dir / "latest.png").string());
  file.write("new");
  file.commit();
  BOOST_TEST(fs::is_symlink(dir / "latest.png"));
  BOOST_TEST(read_file(dir / "real.png") == "new");
  BOOST_TEST(entries(dir) == (std::set<std::string>{"latest.png", "real.png"}));
}

BOOST_AUTO_TEST_CASE(devices_are_written_in_place_never_replaced) {
  // Root could rename over /dev/null itself if this code failed: as root the test uses its own
  // copies of /dev/null and /dev/full (mknod); as anyone else the real ones, which it cannot
  // replace.
  const fs::path dir = fresh_dir("devices");
  fs::path null = "/dev/null", full = "/dev/full";
  if (::geteuid() == 0) {
    null = dir / "null";
    full = dir / "full";
    BOOST_TEST_REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0, std::strerror(errno));
    BOOST_TEST_REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, ::makedev(1, 7)) == 0, std::strerror(errno));
  }
  {
    OutputFile file(null.string());
    file.write("discarded");
    file.commit();
  }
  BOOST_TEST(fs::is_character_file(null));
  // /dev/full fails every write with ENOSPC: the error names the file and the reason.
  OutputFile file(full.string());
  file.write("lost");
  const std::string message = message_of([&] { file.commit(); });
  BOOST_TEST(message == "cannot write '" + full.string() + "': " + std::strerror(ENOSPC));
  BOOST_TEST(fs::is_character_file(full));
}

// A pipe reached through /dev/fd/N or /proc/self/fd/N (a link to "pipe:[...]", no path) is written
// in place; a descriptor that is closed or read-only is refused with the reason.
BOOST_AUTO_TEST_CASE(descriptors_and_pipes_are_written_in_place) {
  int ends[2];
  BOOST_TEST_REQUIRE(::pipe(ends) == 0);
  for (const std::string& name : {"/dev/fd/" + std::to_string(ends[1]), "/proc/self/fd/" + std::to_string(ends[1])}) {
    BOOST_CHECK_NO_THROW(check_output_path("--csv", name));
    OutputFile file(name);
    file.write(name + "\n");
    file.commit();
  }
  ::close(ends[1]);
  std::string received(256, '\0');
  received.resize(static_cast<std::size_t>(std::max<ssize_t>(0, ::read(ends[0], received.data(), received.size()))));
  BOOST_TEST(received == "/dev/fd/" + std::to_string(ends[1]) + "\n/proc/self/fd/" + std::to_string(ends[1]) + "\n");
  const std::string read_end = "/dev/fd/" + std::to_string(ends[0]);
  BOOST_TEST(message_of([&] { check_output_path("--csv", read_end); }) ==
             "--csv: cannot write '" + read_end + "': " + std::strerror(EBADF));
  ::close(ends[0]);
  BOOST_TEST(message_of([&] { check_output_path("--csv", read_end); }) ==
             "--csv: cannot write '" + read_end + "': " + std::strerror(EBADF));
  using Outputs = std::vector<std::pair<std::string, std::string>>;
  BOOST_TEST(message_of([] { check_distinct_outputs(Outputs{{"--csv", "-"}, {"--json", "/dev/stdout"}}); }) ==
             "--csv and --json both write to standard output");
}

BOOST_AUTO_TEST_CASE(missing_directory_directory_target_and_empty_name_are_refused_with_the_reason) {
  const fs::path dir = fresh_dir("refused");
  write_file(dir / "file", "");
  struct Case {
    std::string path;
    std::string reason;
  };
  for (const Case& c : {Case{(dir / "missing" / "p.png").string(), std::strerror(ENOENT)},
                        Case{dir.string(), std::strerror(EISDIR)},
                        Case{(dir / "file" / "p.png").string(), std::strerror(ENOTDIR)}}) {
    const std::string usage = message_of([&] { check_output_path("--plot", c.path); });
    BOOST_TEST(usage == "--plot: cannot write '" + c.path + "': " + c.reason);
    BOOST_TEST(message_of([&] { OutputFile file(c.path); }) == "cannot write '" + c.path + "': " + c.reason);
  }
  BOOST_CHECK_THROW(check_output_path("--csv", ""), UsageError);
  BOOST_TEST(message_of([] { check_output_path("--csv", ""); }) == "--csv: empty file name");
  BOOST_CHECK_THROW(check_output_path("--plot", (dir / "missing" / "p.png").string()), UsageError);
  BOOST_CHECK_NO_THROW(check_output_path("--plot", (dir / "new.png").string()));
  BOOST_CHECK_NO_THROW(check_output_path("--plot", (dir / "file").string()));
  BOOST_TEST(entries(dir) == std::set<std::string>{"file"});  // the checks created nothing
  // A name with a line break is named on one line.
  const std::string odd = (dir / "missing" / "a\nb").string();
  BOOST_TEST(!contains(message_of([&] { check_output_path("--plot", odd); }), "\n"));
}

BOOST_AUTO_TEST_CASE(unwritable_directory_and_read_only_files_are_refused_with_the_reason) {
  const fs::path dir = fresh_dir("unwritable");
  const fs::path closed = dir / "closed";
  fs::create_directory(closed);
  fs::permissions(closed, static_cast<fs::perms>(0555));
  const fs::path open = dir / "open";  // writable by anyone; holds a file only root may write
  fs::create_directory(open);
  fs::permissions(open, static_cast<fs::perms>(0777));
  write_file(open / "read-only.png", "old");
  fs::permissions(open / "read-only.png", static_cast<fs::perms>(0444));
  // Like /tmp: a file there is its owner's to replace. The file is root's, so the case needs
  // the child to have been root.
  const bool as_root = ::geteuid() == 0;
  const fs::path sticky = dir / "sticky";
  fs::create_directory(sticky);
  fs::permissions(sticky, static_cast<fs::perms>(01777));
  write_file(sticky / "someone-else.png", "old");
  fs::permissions(sticky / "someone-else.png", static_cast<fs::perms>(0666));
  if (as_root) BOOST_TEST_MESSAGE("running as root: the checks run in a child as nobody");

  struct Case {
    fs::path path;
    std::string reason;
  };
  std::vector<Case> cases{{closed / "p.png", std::strerror(EACCES)}, {open / "read-only.png", std::strerror(EACCES)}};
  if (as_root) cases.push_back({sticky / "someone-else.png", std::strerror(EPERM)});
  const std::string result = in_child([&] {
    if (!drop_root()) return std::string("skip: cannot become nobody: ") + std::strerror(errno);
    std::string out;
    for (const Case& c : cases) {
      out += message_of([&] { check_output_path("--plot", c.path.string()); }) + "\n";
      out += message_of([&] { OutputFile file(c.path.string()); }) + "\n";
    }
    return out;
  });
  if (result.rfind("skip", 0) == 0) {
    BOOST_TEST_MESSAGE(result);
    return;
  }
  std::string expected;
  for (const Case& c : cases) {
    expected += "--plot: cannot write '" + c.path.string() + "': " + c.reason + "\n";
    expected += "cannot write '" + c.path.string() + "': " + c.reason + "\n";
  }
  BOOST_TEST(result == expected);
  BOOST_TEST(entries(closed).empty());
  BOOST_TEST(read_file(open / "read-only.png") == "old");
  BOOST_TEST(entries(open) == std::set<std::string>{"read-only.png"});
  BOOST_TEST(entries(sticky) == std::set<std::string>{"someone-else.png"});
}

BOOST_AUTO_TEST_CASE(full_disk_is_an_error_and_leaves_the_old_file) {
  // A 64 KiB tmpfs mounted in a private mount namespace of a child process: nothing outside
  // the child sees it. Without the privileges for that, the case is skipped.
  const fs::path dir = fresh_dir("full");
  const std::string result = in_child([&] {
    if (::unshare(CLONE_NEWNS) != 0) return std::string("skip: unshare: ") + std::strerror(errno);
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      return std::string("skip: private mounts: ") + std::strerror(errno);
    }
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k") != 0) {
      return std::string("skip: mount tmpfs: ") + std::strerror(errno);
    }
    write_file(dir / "history.csv", "old");
    const std::string error = message_of([&] {
      OutputFile file((dir / "history.csv").string());
      for (int i = 0; i < 64; ++i) file.write(std::string(16 * 1024, 'x'));
      file.commit();
    });
    std::string listing;
    for (const std::string& name : entries(dir)) listing += name + ";";
    return error + "\n" + listing + "\n" + read_file(dir / "history.csv");
  });
  if (result.rfind("skip", 0) == 0) {
    BOOST_TEST_MESSAGE("full disk not simulated: " + result);
    return;
  }
  const std::string expected_error =
      "cannot write '" + (dir / "history.csv").string() + "': " + std::strerror(ENOSPC);
  BOOST_TEST(result == expected_error + "\nhistory.csv;\nold");
}

BOOST_AUTO_TEST_CASE(two_outputs_naming_one_file_are_a_usage_error) {
  const fs::path dir = fresh_dir("distinct");
  const std::string a = (dir / "a.png").string();
  using Outputs = std::vector<std::pair<std::string, std::string>>;
  BOOST_CHECK_NO_THROW(check_distinct_outputs(Outputs{{"--plot", a}, {"--plot-c", (dir / "b.png").string()}, {"--csv", ""}, {"--json", ""}}));
  const std::string message =
      message_of([&] { check_distinct_outputs(Outputs{{"--csv", ""}, {"--plot", a}, {"--plot-c", (dir / "x" / ".." / "a.png").string()}}); });
  BOOST_TEST(contains(message, "--plot and --plot-c name the same file"), message);
  BOOST_CHECK_THROW(check_distinct_outputs(Outputs{{"--plot", a}, {"--plot-c", (dir / "." / "a.png").string()}}), UsageError);
  // Relative and absolute names of one file.
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  BOOST_CHECK_THROW(check_distinct_outputs(Outputs{{"--plot", a}, {"--plot-c", "a.png"}}), UsageError);
  fs::current_path(previous);
  // A hard link and a symbolic link to an existing file.
  write_file(dir / "a.png", "");
  fs::create_hard_link(dir / "a.png", dir / "hard.png");
  fs::create_symlink(dir / "a.png", dir / "soft.png");
  BOOST_CHECK_THROW(check_distinct_outputs(Outputs{{"--plot", a}, {"--plot-c", (dir / "hard.png").string()}}), UsageError);
  BOOST_CHECK_THROW(check_distinct_outputs(Outputs{{"--plot", a}, {"--plot-c", (dir / "soft.png").string()}}), UsageError);
  // Devices are written in place, one output after the other.
  BOOST_CHECK_NO_THROW(check_distinct_outputs(Outputs{{"--csv", "/dev/null"}, {"--json", "/dev/null"}}));
}

// ---------------------------------------------------------------------------------------------
// DriftEnvelope

BOOST_AUTO_TEST_CASE(envelope_keeps_a_one_sample_spike_and_dip_within_two_points_per_bucket) {
  constexpr std::size_t samples = 1'000'000;
  constexpr std::size_t spike = 123'457, dip = 876'543;
  const double t_end = 5.0;
  auto t_of = [&](std::size_t i) { return t_end * static_cast<double>(i) / static_cast<double>(samples - 1); };
  auto value_of = [&](std::size_t i) {
    if (i == spike) return 1e-2;
    if (i == dip) return 1e-15;
    return 1e-9 * (1.0 + 0.5 * std::sin(static_cast<double>(i) * 1e-3));
  };
  DriftEnvelope in_order(0.0, t_end);
  for (std::size_t i = 0; i < samples; ++i) in_order.add(t_of(i), value_of(i));
  const auto points = in_order.points();
  BOOST_TEST(points.size() <= 2000u);
  BOOST_TEST(points.size() > 1000u);
  BOOST_TEST((std::find(points.begin(), points.end(), std::pair{t_of(spike), 1e-2}) != points.end()));
  BOOST_TEST((std::find(points.begin(), points.end(), std::pair{t_of(dip), 1e-15}) != points.end()));
  BOOST_TEST(std::is_sorted(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; }));

  // The same samples in any order give the same envelope.
  std::vector<std::size_t> order(samples);
  for (std::size_t i = 0; i < samples; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  DriftEnvelope shuffled(0.0, t_end);
  for (std::size_t i : order) shuffled.add(t_of(i), value_of(i));
  BOOST_TEST((shuffled.points() == points));
}

BOOST_AUTO_TEST_CASE(envelope_skips_what_a_log_plot_cannot_show_and_keeps_time_order) {
  DriftEnvelope envelope(1.0, 2.0, 4);
  envelope.add(1.9, 3e-8);
  envelope.add(1.1, 2e-8);
  envelope.add(1.15, 5e-8);
  envelope.add(1.12, 4e-8);  // neither the minimum nor the maximum of its bucket
  for (double skipped : {0.0, -1e-3, std::nan(""), HUGE_VAL}) envelope.add(1.5, skipped);
  envelope.add(std::nan(""), 1.0);
  envelope.add(2.0 + 1e-12, 7e-8);  // round-off past t_end: the last bucket
  using Points = std::vector<std::pair<double, double>>;
  BOOST_TEST((envelope.points() == Points{{1.1, 2e-8}, {1.15, 5e-8}, {1.9, 3e-8}, {2.0 + 1e-12, 7e-8}}));
  BOOST_CHECK_THROW(DriftEnvelope(1.0, 1.0), energy_audit::InvalidArgument);
  BOOST_CHECK_THROW(DriftEnvelope(0.0, INFINITY), energy_audit::InvalidArgument);
  BOOST_CHECK_THROW(DriftEnvelope(0.0, 1.0, 0), energy_audit::InvalidArgument);
}

// ---------------------------------------------------------------------------------------------
// Plots

namespace {

boost::test_tools::assertion_result gnuplot_installed(boost::unit_test::test_unit_id) {
  try {
    require_gnuplot("--plot");
    return true;
  } catch (const Error& e) {
    boost::test_tools::assertion_result skipped(false);
    skipped.message() << "skipped: " << e.what();
    return skipped;
  }
}

/// Sets PATH for one scope.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& path) : previous_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", path.c_str(), 1);
  }
  ~ScopedPath() { ::setenv("PATH", previous_.c_str(), 1); }
  ScopedPath(const ScopedPath&) = delete;
  ScopedPath& operator=(const ScopedPath&) = delete;

 private:
  std::string previous_;
};

/// A directory holding an executable `gnuplot` with the given shell script body.
fs::path fake_gnuplot(const std::string& name, const std::string& body) {
  const fs::path dir = fresh_dir(name);
  write_file(dir / "gnuplot", "#!/bin/sh\n" + body);
  fs::permissions(dir / "gnuplot", static_cast<fs::perms>(0755));
  return dir;
}

// Every way a shell or gnuplot could run a command from a name, each creating a marker file.
const std::string payload = "`touch MARKER_BQ` $(touch MARKER_DS) 'single' \"double\"; touch MARKER_SC\n"
                            "system('touch MARKER_NL') x";

std::vector<DriftCurve> drift_curves(std::size_t methods, std::size_t runs_per_method, std::size_t points) {
  std::vector<DriftCurve> curves;
  for (std::size_t m = 0; m < methods; ++m) {
    const std::string method = m == 0 ? "rk4'; system('touch MARKER_SQ'); '" + payload : "method" + std::to_string(m);
    for (std::size_t r = 0; r < runs_per_method; ++r) {
      DriftCurve curve{method, "h=" + std::to_string(r) + " " + payload, {}};
      for (std::size_t i = 0; i < points; ++i) {
        const double t = 5.0 * static_cast<double>(i) / static_cast<double>(points);
        curve.points.emplace_back(t, std::pow(10.0, -12.0 + static_cast<double>(m + r)) * (1 + t));
      }
      curves.push_back(std::move(curve));
    }
  }
  curves.push_back({"method1", "h=nothing", {{0.0, 0.0}, {1.0, 0.0}}});  // no value > 0
  return curves;
}

std::vector<WorkPrecisionPoint> work_precision_points() {
  std::vector<WorkPrecisionPoint> points;
  for (const std::string& method : std::vector<std::string>{"euler", "rk4", "rk4'; system('touch MARKER_SQ'); '" + payload}) {
    for (int k = 0; k < 4; ++k) points.push_back({method, 1e3 * std::pow(10.0, k), 1e-2 * std::pow(1e-2, k)});
  }
  points.push_back({"rkg", 1e4, 0.0});  // cannot be shown on a log scale: left out
  return points;
}

bool is_png(const fs::path& path) {
  const std::string bytes = read_file(path);
  return bytes.size() > 1000 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

std::vector<std::string> markers_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const std::string& name : entries(dir)) {
    if (name.rfind("MARKER", 0) == 0) found.push_back(name);  // the PNGs' names hold "MARKER" further in
  }
  return found;
}

}  // namespace

BOOST_AUTO_TEST_CASE(require_gnuplot_looks_on_path) {
  const fs::path fake = fake_gnuplot("require", "exit 0\n");
  {
    const ScopedPath path("/nonexistent");
    const std::string message = message_of([] { require_gnuplot("--plot-c"); });
    BOOST_TEST(message == "gnuplot not found: install the Debian package gnuplot-nox to draw --plot-c");
  }
  const ScopedPath path("/nonexistent:" + fake.string());
  BOOST_CHECK_NO_THROW(require_gnuplot("--plot"));
}

BOOST_AUTO_TEST_CASE(plots_are_pngs_whatever_the_names, *boost::unit_test::precondition(gnuplot_installed)) {
  const fs::path dir = fresh_dir("names");
  const std::string name = "plot " + payload + ".png";
  const std::string name_c = "drift " + payload + ".png";
  {
    OutputFile png((dir / name).string());
    plot_work_precision(png, "crane " + payload, work_precision_points(), 1e-3);
    png.commit();
  }
  {
    // 8 methods, 26 runs with 2000 points each: a script far larger than a pipe holds.
    std::vector<DriftCurve> curves = drift_curves(8, 3, 2000);
    curves.resize(curves.size() - 1);
    curves.push_back({"rkg", "rtol=1e-06", {{0.5, 1e-9}, {4.5, 2e-9}}});
    curves.push_back(drift_curves(1, 0, 0).back());
    BOOST_TEST(curves.size() == 26u);
    OutputFile png((dir / name_c).string());
    plot_control_drift(png, "crane " + payload, curves);
    png.commit();
  }
  BOOST_TEST(entries(dir) == (std::set<std::string>{name, name_c}));
  BOOST_TEST(is_png(dir / name));
  BOOST_TEST(is_png(dir / name_c));
  BOOST_TEST(markers_in(dir).empty());
  BOOST_TEST(markers_in(fs::current_path()).empty());
}

BOOST_AUTO_TEST_CASE(plots_work_with_standard_descriptors_closed, *boost::unit_test::precondition(gnuplot_installed)) {
  // With 0 and 1 closed, the image file and a pipe take those numbers: each must still reach
  // the right one of gnuplot's standard descriptors.
  const fs::path dir = fresh_dir("closed-stdio");
  const std::string result = in_child([&] {
    ::close(STDIN_FILENO);
    ::close(STDOUT_FILENO);
    OutputFile png((dir / "p.png").string());
    if (png.descriptor() != STDIN_FILENO) return std::string("the image did not get descriptor 0");
    plot_work_precision(png, "crane", work_precision_points(), 1e-3);
    png.commit();
    return std::string("drawn");
  });
  BOOST_TEST(result == "drawn");
  BOOST_TEST(is_png(dir / "p.png"));
}

BOOST_AUTO_TEST_CASE(failing_gnuplot_reports_its_message_and_leaves_no_file) {
  const fs::path dir = fresh_dir("failing");
  // SIGPIPE at its default: a write into a gnuplot that has exited would kill this process.
  struct sigaction original {}, at_default {};
  at_default.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &at_default, &original);
  struct Case {
    std::string fake;
    std::string expected;
  };
  for (const Case& c : {
           // gnuplot echoes the command and a caret before its message.
           Case{"cat >/dev/null\necho '         plot $m0' >&2\necho '                ^' >&2\n"
                "echo '\"-\" line 12: warning: something' >&2\necho 'line 0: bad thing' >&2\nexit 1\n",
                "line 0: bad thing"},
           // Exits before reading its script, larger than a pipe holds: EPIPE, not SIGPIPE.
           Case{"echo 'line 0: gave up early' >&2\nexit 1\n", "line 0: gave up early"},
           Case{"cat >/dev/null\nexit 3\n", "exit status 3"},
           Case{"cat >/dev/null\nexit 0\n", "it wrote no image"},
       }) {
    const ScopedPath path(fake_gnuplot("fake", c.fake).string() + ":/usr/bin:/bin");
    const std::string png = (dir / "p.png").string();
    const std::string expected = "gnuplot failed to draw '" + png + "': " + c.expected;
    BOOST_TEST(message_of([&] {
                 OutputFile file(png);
                 plot_control_drift(file, "crane", drift_curves(2, 2, 2000));
                 file.commit();
               }) == expected);
    BOOST_TEST(message_of([&] {
                 OutputFile file(png);
                 plot_work_precision(file, "crane", work_precision_points(), 1e-3);
                 file.commit();
               }) == expected);
    BOOST_TEST(entries(dir).empty());
  }
  struct sigaction after {};
  ::sigaction(SIGPIPE, &original, &after);
  BOOST_TEST((after.sa_handler == SIG_DFL));  // restored after each plot

  const ScopedPath path("/nonexistent");
  OutputFile file((dir / "p.png").string());
  const std::string message = message_of([&] { plot_work_precision(file, "crane", work_precision_points(), 1e-3); });
  BOOST_TEST(contains(message, "gnuplot not found"), message);
}

// The stability map's gains run from -1500 to 3: its lower boundaries lie near -1000, its upper
// ones within 0.5 of 0. On the drawn k axis (the script gnuplot gets) the upper ones must take a
// visible part of the width, not a pixel at its right end.
BOOST_AUTO_TEST_CASE(the_stability_plot_shows_the_upper_boundary) {
  const fs::path fake = fake_gnuplot("capture", "cat > \"$(dirname \"$0\")/script.gp\"\nprintf image\n");
  const ScopedPath path(fake.string() + ":/usr/bin:/bin");
  StabilityPanel panel{"euler", {}, {{-1000.0, 0.002}}, {{-0.018, 0.002}}};
  for (int i = 0; i <= 3006; ++i) {
    const double k = -1500 + 0.5 * i;
    panel.points.push_back({k, 0.002, "on_constraint", k < -1000 || k >= 0 ? "unstable" : "stable"});
  }
  const fs::path dir = fresh_dir("stability-plot");
  OutputFile png((dir / "map.png").string());
  plot_verdict_map(png, "stability of ellipse", {panel});
  png.commit();
  const std::string script = read_file(fake / "script.gp");

  const auto range_at = script.find("set xrange [");
  BOOST_TEST_REQUIRE(range_at != std::string::npos, script.substr(0, 2000));
  std::istringstream range(script.substr(range_at + 12));
  double x_min = 0, x_max = 0;
  char colon = 0;
  range >> x_min >> colon >> x_max;
  BOOST_TEST_REQUIRE(x_max > x_min);
  // The x values of the data block drawn with `title`.
  const auto drawn_x = [&](const std::string& title) {
    const std::size_t title_at = script.find(" title '" + title + "'");
    BOOST_TEST_REQUIRE(title_at != std::string::npos, title);
    const std::size_t name_at = script.rfind('$', title_at);
    const std::string name = script.substr(name_at, script.find(' ', name_at) - name_at);
    std::istringstream block(script.substr(script.find(name + " << EOD\n") + name.size() + 8));
    std::vector<double> xs;
    for (std::string line; std::getline(block, line) && line != "EOD";) xs.push_back(std::stod(line));
    return xs;
  };
  const std::vector<double> stable = drawn_x("stable"), upper_limit = drawn_x("linear limit -d/tau");
  const double width = x_max - x_min;
  // From the last stable gain (-0.5) to the end of the axis (3), and from the upper linear limit
  // (-0.018) to it: on a linear axis 0.23 % and 0.2 % of the width.
  BOOST_TEST((x_max - *std::max_element(stable.begin(), stable.end())) / width > 0.05);
  BOOST_TEST_REQUIRE(upper_limit.size() == 1u);
  BOOST_TEST((x_max - upper_limit[0]) / width > 0.05);
  BOOST_TEST(script.find("'-1000' ") != std::string::npos);  // the k axis is labelled in k
}

namespace {

/// The script a plot hands gnuplot, captured by a stand-in.
std::string captured_script(const std::function<void(OutputFile&)>& plot) {
  const fs::path fake = fake_gnuplot("capture-script", "cat > \"$(dirname \"$0\")/script.gp\"\nprintf image\n");
  const ScopedPath path(fake.string() + ":/usr/bin:/bin");
  const fs::path dir = fresh_dir("captured");
  OutputFile png((dir / "p.png").string());
  plot(png);
  return read_file(fake / "script.gp");
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

/// The upper end of the script's `set yrange [low:high]`.
double yrange_top(const std::string& script) {
  const std::size_t at = script.find("set yrange [");
  BOOST_TEST_REQUIRE(at != std::string::npos, script.substr(0, 1000));
  const std::size_t colon = script.find(':', at);
  return std::stod(script.substr(colon + 1, script.find(']', colon) - colon - 1));
}

}  // namespace

// Every figure keeps its key inside its frame (no margin beside it), and its marks' names in the
// key, once each, where labels beside every marked point would overprint one another.
BOOST_AUTO_TEST_CASE(keys_sit_inside_the_frames_and_marks_are_named_once) {
  // Three runs of one method, each marked where its drift first exceeds the threshold and where
  // it grows fastest: one key entry per kind of mark, no text at the points.
  std::vector<DriftCurve> curves;
  for (int r = 0; r < 3; ++r) {
    DriftCurve curve{"rk4", "h=" + std::to_string(r), {}};
    for (int i = 0; i <= 100; ++i) curve.points.emplace_back(0.05 * i, 1e-6 * (r + 1) * (1 + i));
    curve.marks = {{1.0, "first above threshold"}, {2.0, "fastest growth"}};
    curve.summary = "delta_C 1e-2, fail";
    curves.push_back(curve);
  }
  const std::string drift = captured_script([&](OutputFile& png) { plot_control_drift(png, "crane, rk4", curves); });
  BOOST_TEST(occurrences(drift, "title 'first above threshold'") == 1u, drift.substr(drift.find("set multiplot")));
  BOOST_TEST(occurrences(drift, "title 'fastest growth'") == 1u);
  BOOST_TEST(occurrences(drift, "with labels") == 0u);
  BOOST_TEST(occurrences(drift, "title 'h=0: delta_C 1e-2, fail'") == 1u);

  // A run's marks at near times: vertical lines named in the key with their times, no labels.
  const TimeSeriesPanel panel{"C(t) - C(t0)", "[J]", {{"C - C0", {{0.0, 0.0}, {1.0, 0.5}}}},
                              {{0.033, "first above threshold"}, {0.083, "fastest growth"}}};
  const std::string series = captured_script([&](OutputFile& png) { plot_time_series(png, "crane-wrong", {panel}); });
  BOOST_TEST(occurrences(series, "set label") == 0u, series);
  BOOST_TEST(occurrences(series, "title 'first above threshold, t = 0.033 s'") == 1u, series);
  BOOST_TEST(occurrences(series, "title 'fastest growth, t = 0.083 s'") == 1u, series);

  // The threshold at a whole decade, above every point: the frame's top lies above it.
  const std::vector<WorkPrecisionPoint> points{{"rk4", 1e3, 1e-5, "pass"}, {"rk4", 1e4, 1e-9, "pass"}};
  const std::string work = captured_script([&](OutputFile& png) { plot_work_precision(png, "crane", points, 1e-3); });
  BOOST_TEST(yrange_top(work) > 2e-3, work);
  BOOST_TEST(occurrences(work, "title 'rk4: pass 2'") == 1u, work);

  StabilityPanel map{"euler", {{-1.0, 0.01, "a", "stable"}, {1.0, 0.01, "a", "unstable"}}, {}, {}};
  const std::string stability = captured_script([&](OutputFile& png) { plot_verdict_map(png, "ellipse", {map}); });
  for (const std::string& script : {drift, series, work, stability}) {
    BOOST_TEST(occurrences(script, "set key inside") == 1u, script.substr(0, 400));
    // No key placed outside the frame, on any line that sets the key.
    std::istringstream lines(script);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("set key", 0) != 0) continue;
      BOOST_TEST(occurrences(line, "outside") + occurrences(line, "below") == 0u, line);
    }
  }
}

// The terminal is the one of the format the name's extension names (figure_format), and an
// extension that names none is a usage error.
BOOST_AUTO_TEST_CASE(the_extension_names_the_figures_format) {
  BOOST_TEST((format_of_name("a.png") == FigureFormat::Png));
  BOOST_TEST((format_of_name("dir.svg/a.SVG") == FigureFormat::Svg));
  BOOST_TEST((format_of_name("a.Pdf") == FigureFormat::Pdf));
  BOOST_TEST((format_of_name("-") == FigureFormat::Png));
  BOOST_TEST((format_of_name("plot") == FigureFormat::Png));
  BOOST_TEST((format_of_name("dir.svg/plot") == FigureFormat::Png));
  BOOST_TEST(!format_of_name("a.jpg").has_value());
  BOOST_TEST(message_of([] { figure_format("--plot", "a.jpg"); }) ==
             "--plot: cannot draw 'a.jpg': name the figure .png, .svg or .pdf (the format it is drawn in)");
  const std::vector<WorkPrecisionPoint> points{{"rk4", 1e3, 1e-5, "pass"}};
  const fs::path fake = fake_gnuplot("capture-terminal", "cat > \"$(dirname \"$0\")/script.gp\"\nprintf image\n");
  const ScopedPath path(fake.string() + ":/usr/bin:/bin");
  const fs::path dir = fresh_dir("terminals");
  for (const auto& [name, terminal] : {std::pair{"w.svg", "set terminal svg "}, std::pair{"w.pdf", "set terminal pdfcairo "},
                                       std::pair{"w.png", "set terminal pngcairo "}}) {
    OutputFile file((dir / name).string());
    plot_work_precision(file, "crane", points, 1e-3);
    BOOST_TEST(read_file(fake / "script.gp").rfind(terminal, 0) == 0u, name);
  }
}

BOOST_AUTO_TEST_CASE(nothing_to_draw_is_an_error) {
  const fs::path dir = fresh_dir("nothing");
  OutputFile file((dir / "p.png").string());
  BOOST_CHECK_THROW(plot_work_precision(file, "crane", {{"rk4", 100, 0.0}}, 1e-3), Error);
  BOOST_CHECK_THROW(plot_control_drift(file, "crane", {{"rk4", "h=0.01", {{0.0, 0.0}}}}), Error);
}
