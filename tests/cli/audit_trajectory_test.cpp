// energy-audit audit-trajectory: the audit of samples computed elsewhere, or of a run's history,
// and unreadable samples refused with the reason.
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "crane_samples.hpp"

namespace fs = std::filesystem;
using boost::test_tools::tolerance;

BOOST_AUTO_TEST_SUITE(audit_trajectory)

BOOST_AUTO_TEST_CASE(a_trajectory_computed_elsewhere_is_audited_from_its_samples) {
  const fs::path right = scratch_dir() / "crane_samples.csv", wrong = scratch_dir() / "crane_wrong_samples.csv",
                 json = scratch_dir() / "trajectory.json";
  std::ofstream(right) << crane_samples_csv(CraneEquations::Correct);
  std::ofstream(wrong) << crane_samples_csv(CraneEquations::OneSignFlipped);
  const Result passed = energy_audit("audit-trajectory crane " + right.string() + " --json " + json.string());
  BOOST_TEST(passed.status == 0, passed.err);
  BOOST_TEST(passed.out.find("501 samples") != std::string::npos, passed.out);
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  BOOST_TEST(record["verdict"] == "pass");
  BOOST_TEST(record["delta_C"].get<double>() < 1e-5);  // the Hermite quadrature's error at h = 0.01
  const Result failed = energy_audit("audit-trajectory crane " + wrong.string() + " --fail-on-verdict");
  BOOST_TEST(failed.status == 3, failed.out);
  BOOST_TEST(failed.out.find("verdict: fail") != std::string::npos, failed.out);

  const fs::path bad = scratch_dir() / "bad_samples.csv";
  std::ofstream(bad) << "t,x1,phi,x1_dot,phi_dot,x1_ddot,phi_ddot\n0,1,2,3,4,5,6\n0.1,1,2,3,x,5,6\n";
  expect_usage_error("audit-trajectory crane " + bad.string(), "line 3: phi_dot = 'x'");
  std::ofstream(bad) << "t,q\n0,1\n";
  expect_usage_error("audit-trajectory crane " + bad.string(), "header");
  expect_usage_error("audit-trajectory crane-dae " + right.string(), "multipliers");
  expect_usage_error("audit-trajectory crane " + (scratch_dir() / "none.csv").string(), "cannot read");
}

// A run's history is a trajectory audit-trajectory takes: the CSV has the model's accelerations
// at each row's state, and its last row is the end of the run whatever --every thins.
BOOST_AUTO_TEST_CASE(a_runs_history_is_audited_by_audit_trajectory) {
  const fs::path dir = fresh_dir("round-trip");
  const Process run = run_cli({"run", "crane", "--every", "7", "--csv", "run.csv"}, dir);
  BOOST_TEST_REQUIRE(run.status == 0, run.err);
  const auto rows = lines_of(read_file(dir / "run.csv"));
  BOOST_TEST_REQUIRE(rows.size() == 1u + 715u + 1u);  // the header, steps 0, 7, ..., 4998, and t = 5
  BOOST_TEST(rows.back().rfind("5,", 0) == 0u, rows.back());
  for (const std::string& row : {rows[1], rows[400], rows.back()}) {
    std::vector<double> x;
    std::istringstream fields(row);
    for (std::string field; std::getline(fields, field, ',');) x.push_back(std::stod(field));
    const std::array<double, 2> a = crane_accelerations(x[0], {x[1], x[2]}, {x[3], x[4]});
    BOOST_TEST(x[5] == a[0], tolerance(1e-15));
    BOOST_TEST(x[6] == a[1], tolerance(1e-15));
  }
  const Process audited = run_cli({"audit-trajectory", "crane", "run.csv", "--json", "audit.json"}, dir);
  BOOST_TEST(audited.status == 0, audited.err);
  BOOST_TEST(audited.out.find("716 samples over [0, 5]") != std::string::npos, audited.out);
  BOOST_TEST(nlohmann::json::parse(read_file(dir / "audit.json"))["verdict"] == "pass");

  // crane-wrong's run, audited with the crane's energies, fails.
  BOOST_TEST_REQUIRE(run_cli({"run", "crane-wrong", "--every", "10", "--csv", "wrong.csv"}, dir).status == 0);
  const Process wrong = run_cli({"audit-trajectory", "crane", "wrong.csv"}, dir);
  BOOST_TEST(wrong.status == 0, wrong.err);
  BOOST_TEST(wrong.out.find("verdict: fail") != std::string::npos, wrong.out);
}

// "-" reads the samples from standard input, as Unix tools take it: the same audit as from the
// file, and the messages name "standard input".
BOOST_AUTO_TEST_CASE(a_dash_reads_the_samples_from_standard_input) {
  const fs::path samples = scratch_dir() / "stdin_samples.csv", bad = scratch_dir() / "stdin_bad.csv";
  std::ofstream(samples) << crane_samples_csv(CraneEquations::Correct);
  const Result from_file = energy_audit("audit-trajectory crane " + samples.string());
  const Result from_stdin = energy_audit("audit-trajectory crane - < " + samples.string());
  BOOST_TEST_REQUIRE(from_stdin.status == 0, from_stdin.err);
  BOOST_TEST(from_stdin.out.find("501 samples") != std::string::npos, from_stdin.out);
  BOOST_TEST(from_stdin.out == from_file.out);
  std::ofstream(bad) << "t,x1,phi,x1_dot,phi_dot,x1_ddot,phi_ddot\n0,1,2,3,4,5,6\n0.1,1,2,3,x,5,6\n";
  expect_usage_error("audit-trajectory crane - < " + bad.string(), "FILE: standard input, line 3: phi_dot = 'x'");
}

// What the system says when the samples cannot be read.
BOOST_AUTO_TEST_CASE(unreadable_samples_are_refused_with_the_reason) {
  expect_usage_error("audit-trajectory crane " + scratch_dir().string(), "Is a directory");
  expect_usage_error("audit-trajectory crane " + (scratch_dir() / "no-such.csv").string(), "No such file or directory");
  const fs::path header_only = scratch_dir() / "no-ddot.csv";
  std::ofstream(header_only) << "t,x1,phi,x1_dot,phi_dot\n0,1,2,3,4\n";
  expect_usage_error("audit-trajectory crane " + header_only.string(), "has no column x1_ddot");
}

BOOST_AUTO_TEST_SUITE_END()
