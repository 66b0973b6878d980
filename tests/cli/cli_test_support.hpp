#pragma once
// Running energy-audit as a user does, for the tests of its commands: through the shell with its
// output captured (energy_audit), or as a program of its own in a directory of its own (run_cli,
// start_cli), and what the tests read back (lines, usage errors, a directory's entries).

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "shell_command.hpp"

inline Result energy_audit(const std::string& arguments) {
  return run_shell_command(std::string(ENERGY_AUDIT_CLI) + " " + arguments);
}

inline std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A usage error: exit 2, one line on stderr that names the offending argument.
inline void expect_usage_error(const std::string& arguments, const std::string& named) {
  const Result r = energy_audit(arguments);
  BOOST_TEST(r.status == 2, arguments);
  BOOST_TEST(line_count(r.err) == 1u, arguments << " -> " << r.err);
  BOOST_TEST(r.err.find(named) != std::string::npos, arguments << " -> " << r.err);
}

struct Process {
  int status = -1;         ///< the exit status, or 128 + the signal that ended it
  std::string out, err;
};

/// Starts energy-audit with `arguments` as its argv (no shell) in directory `cwd`, its output
/// in files there; returns its pid. A non-empty `launcher` (a program and its arguments) is
/// started instead, with energy-audit and `arguments` appended to it.
inline pid_t start_cli(const std::vector<std::string>& arguments, const std::filesystem::path& cwd,
                const std::vector<std::string>& launcher = {}) {
  const std::filesystem::path out = scratch_dir() / "spawn-stdout.txt", err = scratch_dir() / "spawn-stderr.txt";
  std::vector<std::string> argv_storage = launcher;
  argv_storage.push_back(ENERGY_AUDIT_CLI);
  argv_storage.insert(argv_storage.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0 || ::chdir(cwd.c_str()) != 0) _exit(126);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

inline Process finish_cli(pid_t pid) {
  int raw = 0;
  BOOST_TEST_REQUIRE(::waitpid(pid, &raw, 0) == pid);
  Process p;
  p.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  p.out = read_file(scratch_dir() / "spawn-stdout.txt");
  p.err = read_file(scratch_dir() / "spawn-stderr.txt");
  return p;
}

inline Process run_cli(const std::vector<std::string>& arguments, const std::filesystem::path& cwd) {
  return finish_cli(start_cli(arguments, cwd));
}

/// A new empty directory for one test.
inline std::filesystem::path fresh_dir(const std::string& name) {
  const std::filesystem::path dir = scratch_dir() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::vector<std::string> entries_of(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Waits until a file whose name starts with `prefix` in `dir` holds at least `bytes`.
inline bool wait_for_file(const std::filesystem::path& dir, const std::string& prefix, std::uintmax_t bytes) {
  for (int attempt = 0; attempt < 3000; ++attempt) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      std::error_code error;
      if (entry.path().filename().string().rfind(prefix, 0) == 0 && std::filesystem::file_size(entry.path(), error) >= bytes) {
        return true;
      }
    }
    ::usleep(10000);
  }
  return false;
}
