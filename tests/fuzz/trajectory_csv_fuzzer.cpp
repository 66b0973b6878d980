// libFuzzer target: the trajectory CSV reader of `energy-audit audit-trajectory`
// (examples/energy-audit/trajectory_csv.cpp) on arbitrary file contents, for the crane's
// coordinates x1 and phi. Every input is either refused with a UsageError or gives samples that
// keep the reader's promises: at least 2, one column per row, every number finite, t increasing.
// Anything else (another exception, a sanitizer report, a hang) is a finding.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "trajectory_csv.hpp"
#include "usage_error.hpp"

namespace {

std::string samples_path;

void remove_samples_file() { std::remove(samples_path.c_str()); }

void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "trajectory_csv_fuzzer: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* directory = std::getenv("TMPDIR");
  std::string name = std::string(directory != nullptr ? directory : "/tmp") + "/trajectory_csv_fuzzer.XXXXXX";
  const int fd = mkstemp(name.data());
  require(fd >= 0, "cannot create a temporary file");
  close(fd);
  samples_path = name;
  std::atexit(remove_samples_file);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(samples_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    require(static_cast<bool>(out), "cannot write the temporary file");
  }
  const std::vector<std::string> names{"x1", "phi"};
  energy_audit::TrajectorySamples samples;
  try {
    samples = energy_audit::cli::read_trajectory_csv(samples_path, names);
  } catch (const energy_audit::cli::UsageError&) {
    return 0;
  }
  const auto count = samples.t.size();
  require(count >= 2, "fewer than 2 samples accepted");
  require(samples.q.rows() == 2 && samples.v.rows() == 2 && samples.a.rows() == 2,
          "wrong number of coordinates");
  require(samples.q.cols() == count && samples.v.cols() == count && samples.a.cols() == count,
          "columns do not match the times");
  require(samples.t.allFinite() && samples.q.allFinite() && samples.v.allFinite() && samples.a.allFinite(),
          "a non-finite number accepted");
  for (Eigen::Index i = 1; i < count; ++i)
    require(samples.t[i] > samples.t[i - 1], "times that do not increase");
  return 0;
}
