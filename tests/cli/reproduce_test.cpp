// energy-audit reproduce: the papers' tables and claims beside the computation.
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(reproduce)

// reproduce seed000: every run of the paper's table beside its value, as a table, CSV and JSON;
// the wrong twins fail where the models pass; an unknown paper is a usage error.
BOOST_AUTO_TEST_CASE(reproduce_seed000_sets_our_delta_c_beside_the_papers) {
  const fs::path csv = scratch_dir() / "seed000.csv", json = scratch_dir() / "seed000.json";
  const Result r = energy_audit("reproduce seed000 --csv " + csv.string() + " --json " + json.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.out.find("container-circle-wrong") != std::string::npos, r.out);
  const auto table = nlohmann::json::parse(read_file(json));
  BOOST_TEST(table["paper"] == "seed000");
  const auto& runs = table["runs"];
  BOOST_TEST_REQUIRE(runs.size() == 10u);
  BOOST_TEST(lines_of(read_file(csv)).size() == 11u);
  for (const auto& run : runs) {
    const std::string model = run["model"];
    const bool wrong = model.find("wrong") != std::string::npos;
    BOOST_TEST(run["verdict"] == (wrong ? "fail" : "pass"), model);
    BOOST_TEST((run["delta_C"].get<double>() > 1e-3) == wrong, model);
    // The crane's three values of Fig. 4 belong to no stated step: not attributed.
    BOOST_TEST(run["paper_value"].is_null() == (model == "crane3d"), model);
  }
  BOOST_TEST(runs[0]["model"] == "mechanism");
  BOOST_TEST(runs[0]["paper_value"].get<double>() == 1.1e-4);
  expect_usage_error("reproduce seed999", "seed999");
  expect_usage_error("reproduce seed000 --plots " + (scratch_dir() / "no-such-dir").string(), "--plots");
}

BOOST_AUTO_TEST_CASE(reproduce_seed001_sets_the_papers_claims_beside_the_computation) {
  const fs::path json = scratch_dir() / "seed001.json";
  const Result r = energy_audit("reproduce seed001 --json " + json.string());
  BOOST_TEST(r.status == 0, r.err);
  const nlohmann::json checks = nlohmann::json::parse(read_file(json));
  BOOST_TEST(checks.size() == 13u);
  for (const auto& check : checks) {
    const std::string claim = check["claim"];
    BOOST_TEST_CONTEXT(claim) {
      BOOST_TEST(check["command"].get<std::string>().rfind("energy-audit ", 0) == 0u);
      // Linear theory puts k = -400 at tau = 0.002 well inside Euler's interval -1000 < k < 0
      // (tau k = -0.8): the paper's Euler claims are not what the computation shows.
      const bool euler_claim = claim.find("with Euler") != std::string::npos || claim.find("-359.6") != std::string::npos;
      BOOST_TEST(check["agrees"].get<bool>() == !euler_claim);
    }
  }
  expect_usage_error("reproduce seed001 --plots " + scratch_dir().string(), "--plots");
  expect_usage_error("reproduce seed002", "seed002");
}

BOOST_AUTO_TEST_SUITE_END()
