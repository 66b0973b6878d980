#pragma once
// Running energy-audit as a user does, for the command-line tests: a shell command's exit status
// and what it printed, and a scratch directory of the test process for the files it writes.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>

struct Result {
  int status;
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A directory of this test process, made on first use.
inline std::filesystem::path scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d =
        std::filesystem::temp_directory_path() / ("energy_audit_cli_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

/// Runs `command_line` in the shell, its standard output and error into scratch files.
inline Result run_shell_command(const std::string& command_line) {
  const std::filesystem::path out = scratch_dir() / "stdout.txt", err = scratch_dir() / "stderr.txt";
  const std::string command = command_line + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  BOOST_REQUIRE(WIFEXITED(raw));
  return {WEXITSTATUS(raw), read_file(out), read_file(err)};
}
