// energy-audit reproduce: the papers' tables and claims beside the computation.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"
#include "crane_samples.hpp"

namespace fs = std::filesystem;

namespace {

/// δ_C of seed 002's crane integrated here by the paper's schemes over t = 0...5 s, from the
/// crane's energies as docs/models.md states them (T, V, Ż = k ẋ1²), written apart from the
/// library's: Euler–Cromer (v from the old state, Z with the old velocity, q with the new
/// velocity) or Heun's RK2 on y = [q, v, Z].
double crane_delta_c(bool euler_cromer, double h) {
  constexpr double m1 = 10, m2 = 1, l = 1, g = 9.81, k = 50, s = 3000;
  using State = std::array<double, 5>;  // x1, phi, x1_dot, phi_dot, Z
  const auto derivative = [&](const State& y) {
    const std::array<double, 2> a = crane_accelerations(0, {y[0], y[1]}, {y[2], y[3]});
    return State{y[2], y[3], a[0], a[1], k * y[2] * y[2]};
  };
  double largest_change = 0, scale = 0, c0 = 0;
  const auto observe = [&](const State& y, bool first) {
    const double T = 0.5 * (m1 + m2) * y[2] * y[2] + 0.5 * m2 * l * std::sin(y[1]) * y[2] * y[3] +
                     m2 * l * l / 6 * y[3] * y[3];
    const double V = 0.5 * s * y[0] * y[0] + 0.5 * m2 * g * l * std::sin(y[1]);
    const double C = T + V + y[4];
    if (first) c0 = C;
    largest_change = std::max(largest_change, std::abs(C - c0));
    scale = std::max({scale, std::abs(T + V), std::abs(T), std::abs(V)});
  };
  State y{0.5, -std::acos(-1.0) / 6, 0, 0, 0};
  observe(y, true);
  const long steps = std::lround(5 / h);
  for (long i = 0; i < steps; ++i) {
    const State f = derivative(y);
    if (euler_cromer) {
      y[2] += h * f[2];
      y[3] += h * f[3];
      y[4] += h * f[4];
      y[0] += h * y[2];
      y[1] += h * y[3];
    } else {
      State stage;
      for (std::size_t j = 0; j < y.size(); ++j) stage[j] = y[j] + h * f[j];
      const State f2 = derivative(stage);
      for (std::size_t j = 0; j < y.size(); ++j) y[j] += h / 2 * (f[j] + f2[j]);
    }
    observe(y, false);
  }
  return largest_change / scale;
}

}  // namespace

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
}

// reproduce seed002: seed 002's crane with Euler-Cromer and RK2 at the paper's h = 0.001 (and at
// h/2, and an rk4 reference), the work and data of each, δ_C against a computation of its own
// here, the claims, and figures 2-5.
BOOST_AUTO_TEST_CASE(reproduce_seed002_runs_the_papers_two_methods_and_checks_its_claims) {
  const fs::path csv = scratch_dir() / "seed002.csv", json = scratch_dir() / "seed002.json",
                 figures = scratch_dir() / "seed002-figures";
  fs::create_directories(figures);
  const Result r = energy_audit("reproduce seed002 --csv " + csv.string() + " --json " + json.string() + " --plots " +
                                figures.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const auto document = nlohmann::json::parse(read_file(json));
  BOOST_TEST(document["paper"] == "seed002");
  BOOST_TEST(document["threshold"].get<double>() == 1e-3);
  const auto& runs = document["runs"];
  BOOST_TEST_REQUIRE(runs.size() == 5u);
  BOOST_TEST(lines_of(read_file(csv)).size() == 6u);
  const auto run = [&](const std::string& method, double step) {
    for (const auto& row : runs) {
      if (row["method"] == method && row["step"].get<double>() == step) return row;
    }
    BOOST_FAIL("no run of " + method);
    return nlohmann::json();
  };
  const auto ec = run("euler-cromer", 1e-3), rk2 = run("rk2", 1e-3);
  const auto ec_half = run("euler-cromer", 5e-4), rk2_half = run("rk2", 5e-4), reference = run("rk4", 1e-4);

  // 5 s / h steps; one evaluation of the accelerations per step for Euler-Cromer, two for Heun,
  // four for rk4; the paper's eqs. 21-22 write 6 values per step against 12.
  for (const auto& [row, steps, stages] : {std::tuple{ec, 5000, 1}, std::tuple{rk2, 5000, 2}, std::tuple{ec_half, 10000, 1},
                                           std::tuple{rk2_half, 10000, 2}, std::tuple{reference, 50000, 4}}) {
    BOOST_TEST(row["steps"].get<int>() == steps, row["method"]);
    BOOST_TEST(row["rhs_evaluations"].get<int>() == steps * stages, row["method"]);
    BOOST_TEST(row["verdict"] != "diverged", row["method"]);
  }
  BOOST_TEST(ec["values_per_step"].get<int>() == 6);
  BOOST_TEST(rk2["values_per_step"].get<int>() == 12);
  BOOST_TEST(rk2["stored_values"].get<int>() == 60000);
  BOOST_TEST(reference["reference"].get<bool>());

  // δ_C as the schemes give it when integrated here, to the rounding of 5000 steps.
  for (const auto& [row, euler_cromer, h] : {std::tuple{ec, true, 1e-3}, std::tuple{rk2, false, 1e-3},
                                             std::tuple{ec_half, true, 5e-4}, std::tuple{rk2_half, false, 5e-4}}) {
    const double expected = crane_delta_c(euler_cromer, h);
    BOOST_TEST(std::abs(row["delta_C"].get<double>() - expected) <= 1e-6 * expected, row["method"] << " h " << h);
  }
  // Halving h divides the distance from the reference trajectory by 2^order: Euler-Cromer is of
  // order 1, Heun of order 2. Euler-Cromer's δ_C falls at its order; Heun's at order 3, as an
  // order-2 method's energy error on an oscillation does (|R(i w h)|^2 = 1 + (w h)^4 / 4 per step).
  const auto order = [](const nlohmann::json& coarse, const nlohmann::json& fine, const char* what) {
    return std::log2(coarse[what].get<double>() / fine[what].get<double>());
  };
  BOOST_TEST(std::abs(order(ec, ec_half, "max_error_x1") - 1) < 0.15);
  BOOST_TEST(std::abs(order(ec, ec_half, "max_error_phi") - 1) < 0.15);
  BOOST_TEST(std::abs(order(rk2, rk2_half, "max_error_x1") - 2) < 0.15);
  BOOST_TEST(std::abs(order(rk2, rk2_half, "max_error_phi") - 2) < 0.15);
  BOOST_TEST(std::abs(order(ec, ec_half, "delta_C") - 1) < 0.15);
  BOOST_TEST(std::abs(order(rk2, rk2_half, "delta_C") - 3) < 0.25);
  // The verdicts are seed 000's threshold applied to δ_C.
  for (const auto& row : runs) {
    BOOST_TEST((row["verdict"] == "pass") == (row["delta_C"].get<double>() <= 1e-3), row["method"]);
  }

  // The claims: the runs finish (stable); accuracy by seed 000's threshold; no count of the
  // runs or of the paper's scheme gives 70 % (1 against 2 evaluations per step is 50 %).
  const auto& claims = document["claims"];
  BOOST_TEST_REQUIRE(claims.size() == 5u);
  BOOST_TEST(claims[0]["agrees"].get<bool>());
  BOOST_TEST(claims[1]["agrees"].get<bool>() == (ec["delta_C"].get<double>() <= 1e-3));
  BOOST_TEST(claims[2]["claim"].get<std::string>().find("70 %") != std::string::npos);
  BOOST_TEST(!claims[2]["agrees"].get<bool>());
  BOOST_TEST(claims[2]["computed"].get<std::string>().find("5000 against 10000 (1 against 2 per step): 50 % less") !=
             std::string::npos, claims[2]["computed"]);
  for (const auto& claim : claims) {
    BOOST_TEST(r.out.find(claim["claim"].get<std::string>()) != std::string::npos, claim["claim"]);
    BOOST_TEST(claim["command"].get<std::string>().rfind("energy-audit ", 0) == 0u);
  }
  BOOST_TEST(r.out.find("computed: ") != std::string::npos);

  // Figures 2-5 as PNG images.
  for (int figure = 2; figure <= 5; ++figure) {
    const fs::path png = figures / ("fig" + std::to_string(figure) + ".png");
    BOOST_TEST_REQUIRE(fs::exists(png), png);
    BOOST_TEST(read_file(png).rfind("\x89PNG", 0) == 0u, png);
  }
}

BOOST_AUTO_TEST_SUITE_END()
