// energy-audit sweep: the runs of a parameter sweep, on threads as serially, and its usage errors.
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(sweep)

BOOST_AUTO_TEST_CASE(a_sweep_on_threads_equals_the_serial_one) {
  const fs::path serial = scratch_dir() / "sweep1.csv", threaded = scratch_dir() / "sweep3.csv",
                 json = scratch_dir() / "sweep.json";
  const std::string sweep = "sweep crane --set m1=8,10 --init phi=-0.5,-0.3,-0.1 --methods rk4,rkg,cvode-bdf "
                            "--steps 1e-3,4e-3 --rtols 1e-6,1e-8 ";
  const Result one = energy_audit(sweep + "--threads 1 --csv " + serial.string());
  const Result three = energy_audit(sweep + "--threads 3 --csv " + threaded.string() + " --json " + json.string());
  BOOST_TEST(one.status == 0, one.err);
  BOOST_TEST(three.status == 0, three.err);
  BOOST_TEST(three.out.find("36 runs on 3 threads") != std::string::npos, three.out);
  // Run by run, the same numbers (the wall times are not in the CSV).
  const std::string rows = read_file(serial);
  BOOST_TEST(line_count(rows) == 37u);
  BOOST_TEST(rows == read_file(threaded));
  BOOST_TEST(rows.rfind("m1,phi,method,step,rtol,delta_C,verdict,steps,rhs_evals\n", 0) == 0u, rows);
  // Each run equals the same run made alone.
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  const auto& first = record["runs"][0];
  BOOST_TEST(first["values"]["m1"] == 8.0);
  const fs::path alone = scratch_dir() / "alone.json";
  BOOST_TEST(energy_audit("run crane --set m1=8 --init phi=-0.5 --method rk4 --step 1e-3 --json " + alone.string()).status == 0);
  BOOST_TEST(first["delta_C"].get<double>() == nlohmann::json::parse(read_file(alone))["delta_C"].get<double>());

  expect_usage_error("sweep crane --set m1=8,x", "m1=8,x");
  expect_usage_error("sweep crane --set mass=1,2", "mass");
  expect_usage_error("sweep crane --methods rk4 --rtols 1e-6", "--rtols");
  expect_usage_error("sweep ellipse", "stability");
  expect_usage_error("sweep crane --threads 0", "--threads");
}

BOOST_AUTO_TEST_SUITE_END()
