// energy-audit stability: the stability map of a kinematic model, on threads as serially, and its
// boundaries.
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;
using boost::test_tools::tolerance;

BOOST_AUTO_TEST_SUITE(stability)

BOOST_AUTO_TEST_CASE(a_stability_map_on_threads_equals_the_serial_one) {
  const fs::path serial = scratch_dir() / "map1.csv", threaded = scratch_dir() / "map2.csv",
                 json = scratch_dir() / "map.json";
  const std::string map = "stability ellipse --methods euler,rk4 --steps 0.01,0.005 --k -320:4:3 --t-end 5 ";
  const Result one = energy_audit(map + "--no-boundaries --threads 1 --csv " + serial.string());
  const Result three = energy_audit(map + "--threads 3 --csv " + threaded.string() + " --json " + json.string());
  BOOST_TEST(one.status == 0, one.err);
  BOOST_TEST(three.status == 0, three.err);
  const std::string rows = read_file(serial);
  BOOST_TEST(line_count(rows) == 1u + 2 * 2 * 81 * 2);  // header, methods x steps x gains x starts
  BOOST_TEST(rows == read_file(threaded));  // run by run, verdict by verdict
  BOOST_TEST(three.out.find("on 3 threads") != std::string::npos, three.out);
  // Linear theory: Euler keeps errors for -2/tau < k; at tau = 0.01, -200 < k.
  BOOST_TEST(three.out.find("euler, tau = 0.01: linear interval -200 < k") != std::string::npos, three.out);
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  for (const auto& summary : record["summaries"]) {
    // rho(k) = 1 sits at the linear limit z*/tau to within 1 % (the rotation shifts it a little).
    BOOST_TEST(summary["rho_one_lower"].get<double>() == summary["linear_lower"].get<double>(), tolerance(0.01));
  }
  for (const auto& point : record["points"]) {
    if (point["method"] == "euler" && point["tau"] == 0.01 && point["k"].get<double>() < -210) {
      BOOST_TEST(point["verdict"] == "unstable");
    }
  }
  expect_usage_error("stability crane", "crane");
  expect_usage_error("stability ellipse --k 1:2", "--k");
  expect_usage_error("stability ellipse --k 3:1:1", "--k");
  expect_usage_error("stability ellipse --k 0:0:1", "--k");
  expect_usage_error("stability ellipse --set k=1", "--k");
  expect_usage_error("stability ellipse --methods verlet", "verlet");
  expect_usage_error("stability ellipse --threads 0", "--threads");
}

// Without the boundary searches the summary says they were not searched, not "at none and none".
BOOST_AUTO_TEST_CASE(a_map_without_boundaries_says_they_were_not_searched) {
  const Result r = energy_audit("stability ellipse --methods euler --steps 0.01 --k -300:100:0 --t-end 1 --no-boundaries");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.out.find("none") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("euler, tau = 0.01: linear interval -200 < k < ") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("rho(k) = 1 and the boundaries not searched (--no-boundaries)") != std::string::npos, r.out);
}

// The boundaries of a stability map are printed with the digits that tell them apart.
BOOST_AUTO_TEST_CASE(stability_boundaries_are_printed_apart) {
  const Result r = energy_audit("stability ellipse --methods euler --steps 0.002 --k -1002:0.5:-999");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const std::string marker = "lower ";
  const std::size_t at = r.out.find(marker);
  BOOST_TEST_REQUIRE(at != std::string::npos, r.out);
  const std::string boundary = r.out.substr(at + marker.size(), r.out.find(',', at) - at - marker.size());
  const std::size_t bar = boundary.find(" | ");
  BOOST_TEST_REQUIRE(bar != std::string::npos, boundary);
  const std::string last_stable = boundary.substr(0, bar), first_unstable = boundary.substr(bar + 3);
  BOOST_TEST(last_stable != first_unstable, r.out);
  BOOST_TEST(std::stod(last_stable) > std::stod(first_unstable));  // the lower boundary: stable above
  BOOST_TEST(std::stod(last_stable) == -1000.55, tolerance(1e-5));
}

BOOST_AUTO_TEST_SUITE_END()
