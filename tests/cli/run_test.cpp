// energy-audit run: one model, one method, its verdict, exit status, JSON record and history,
// in every form, on every kind of model, interrupted, diverging or failing.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;
using boost::test_tools::tolerance;

BOOST_AUTO_TEST_SUITE(run)

// The equation check reports the residual of Lagrange's equations at the hand-derived
// accelerations beside δ_C: round-off for crane, a wrong sign's share for crane-wrong.
BOOST_AUTO_TEST_CASE(the_equation_check_is_reported_and_judged) {
  const fs::path right = scratch_dir() / "eq-right.json", wrong = scratch_dir() / "eq-wrong.json",
                 every = scratch_dir() / "eq-every.json", off = scratch_dir() / "eq-off.json";
  const Result r = energy_audit("run crane --json " + right.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  BOOST_TEST(r.out.find("equations  relative residual") != std::string::npos, r.out);
  const auto j = nlohmann::json::parse(read_file(right));
  BOOST_TEST(j["equation_check"]["relative_residual"].get<double>() < 1e-14);
  BOOST_TEST(j["equation_check"]["checked_steps"].get<int>() == 2 + 4999 / 100);  // t0, the first step, every 100th
  BOOST_TEST(j["equation_check"]["threshold"].get<double>() == 1e-8);
  BOOST_TEST(j["verdict"] == "pass");
  BOOST_TEST_REQUIRE(energy_audit("run crane-wrong --json " + wrong.string()).status == 0);
  const auto w = nlohmann::json::parse(read_file(wrong));
  BOOST_TEST(w["equation_check"]["relative_residual"].get<double>() > 1e-3);
  BOOST_TEST(w["verdict"] == "fail");
  BOOST_TEST_REQUIRE(energy_audit("run crane --equation-check-every 1 --json " + every.string()).status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(every))["equation_check"]["checked_steps"].get<int>() == 5001);
  BOOST_TEST_REQUIRE(energy_audit("run crane --no-equation-check --json " + off.string()).status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(off))["equation_check"].is_null());
  const fs::path derived = scratch_dir() / "eq-derived.json";  // derived accelerations: nothing to check
  BOOST_TEST_REQUIRE(energy_audit("run crane-derived --json " + derived.string()).status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(derived))["equation_check"].is_null());
}

namespace {
/// The cells of one CSV line.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells(1);
  for (const char c : line) {
    if (c == ',') cells.emplace_back();
    else cells.back() += c;
  }
  return cells;
}

/// From a history CSV, by the definitions of docs/mathematics.md: the first t at which
/// |C − C0| > threshold × (sup max(|E|, |T|, |V|) up to t), and the end of the step over which
/// |C − C0| rose fastest per unit time.
std::pair<double, double> drift_onset_of(const std::string& csv, double threshold) {
  const std::vector<std::string> lines = lines_of(csv);
  const std::vector<std::string> header = cells_of(lines.at(0));
  const auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::ranges::find(header, name) - header.begin());
  };
  const std::size_t t_col = column("t"), T_col = column("T"), V_col = column("V"), E_col = column("E"), C_col = column("C");
  double C0 = 0, scale = 0, first_above = std::nan(""), fastest_at = std::nan(""), fastest = 0, previous_drift = 0,
         previous_t = 0;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (lines[k].empty()) continue;
    const std::vector<std::string> row = cells_of(lines[k]);
    const double t = std::stod(row.at(t_col)), C = std::stod(row.at(C_col));
    if (k == 1) C0 = C;
    scale = std::max({scale, std::abs(std::stod(row.at(T_col))), std::abs(std::stod(row.at(V_col))),
                      std::abs(std::stod(row.at(E_col)))});
    const double drift = std::abs(C - C0);
    if (std::isnan(first_above) && drift > threshold * scale) first_above = t;
    if (k > 1 && (drift - previous_drift) / (t - previous_t) > fastest) {
      fastest = (drift - previous_drift) / (t - previous_t);
      fastest_at = t;
    }
    previous_drift = drift;
    previous_t = t;
  }
  return {first_above, fastest_at};
}
}  // namespace

// A failing run says when the drift appeared, by the history's own C, and which coordinate's
// equation is wrong: crane-wrong's flipped sign sits in ẍ1 (docs/models.md), mechanism-wrong's in
// γ̈, whose ẍ follows from ṗ_x = 0 and so satisfies the equation of x.
BOOST_AUTO_TEST_CASE(a_failing_run_names_when_and_which_equation) {
  const fs::path json = scratch_dir() / "onset.json", csv = scratch_dir() / "onset.csv";
  const Result r = energy_audit("run crane-wrong --json " + json.string() + " --csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(read_file(json));
  const auto [first_above, fastest_at] = drift_onset_of(read_file(csv), j["threshold"].get<double>());
  BOOST_TEST_REQUIRE(!std::isnan(first_above));
  BOOST_TEST(j["dC_first_above_threshold"].get<double>() == first_above);
  BOOST_TEST(j["dC_fastest_growth_at"].get<double>() == fastest_at);
  BOOST_TEST(r.out.find("|C - C0| first above the threshold at t = ") != std::string::npos, r.out);

  const auto& equations = j["equation_check"]["coordinates"];
  BOOST_TEST(equations["x1"]["relative_residual"].get<double>() == j["equation_check"]["relative_residual"].get<double>());
  BOOST_TEST(equations["phi"]["relative_residual"].get<double>() <
             equations["x1"]["relative_residual"].get<double>() / 22);  // M_21 / M_11 ≤ (m2 l / 2) / (m1 + m2)
  BOOST_TEST(equations["x1"]["first_above_threshold"].get<double>() > 0.0);  // the flipped term is 0 at rest
  // The summary lists the equations above the threshold, the largest first.
  const std::size_t x1 = r.out.find("           equation of x1: relative residual "),
                    phi = r.out.find("           equation of phi: relative residual ");
  BOOST_TEST(x1 != std::string::npos, r.out);
  BOOST_TEST((phi == std::string::npos || x1 < phi), r.out);

  const fs::path mechanism = scratch_dir() / "mechanism-wrong.json";
  const Result m = energy_audit("run mechanism-wrong --t-end 2 --json " + mechanism.string());
  BOOST_TEST_REQUIRE(m.status == 0);
  const auto mj = nlohmann::json::parse(read_file(mechanism));
  BOOST_TEST(m.out.find("equation of gamma: relative residual ") != std::string::npos, m.out);
  BOOST_TEST(m.out.find("equation of x:") == std::string::npos, m.out);
  BOOST_TEST(mj["equation_check"]["coordinates"]["x"]["first_above_threshold"].is_null());
  BOOST_TEST(mj["equation_check"]["coordinates"]["gamma"]["relative_residual"].get<double>() ==
             mj["equation_check"]["relative_residual"].get<double>());

  // A passing run's summary has neither line.
  const Result right = energy_audit("run crane");
  BOOST_TEST(right.out.find("first above") == std::string::npos, right.out);
  BOOST_TEST(right.out.find("equation of") == std::string::npos, right.out);
}

// The work ledger: crane names its damper, whose work is −Z; crane-damper-missing, whose f leaves
// the damper out, fails, and its residual work C − C0 is explained by no named force.
BOOST_AUTO_TEST_CASE(the_work_ledger_is_reported_for_models_that_name_their_forces) {
  const fs::path crane = scratch_dir() / "ledger-crane.json", missing = scratch_dir() / "ledger-missing.json";
  const Result r = energy_audit("run crane --json " + crane.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  BOOST_TEST(r.out.find("work       W_damper = -") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("residual   C - C0") == std::string::npos, r.out);  // the balance holds
  const auto j = nlohmann::json::parse(read_file(crane));
  const double W = j["work_ledger"]["forces"]["damper"].get<double>(), Z = j["final"]["Z"].get<double>();
  BOOST_TEST(std::abs(W + Z) <= 1e-5 * Z);
  BOOST_TEST(j["work_ledger"]["suspect"].is_null());

  const Result m = energy_audit("run crane-damper-missing --json " + missing.string());
  BOOST_TEST_REQUIRE(m.status == 0);
  BOOST_TEST(m.out.find("verdict    fail") != std::string::npos, m.out);
  BOOST_TEST(m.out.find("work       W_") == std::string::npos, m.out);  // it names no force
  BOOST_TEST(m.out.find("residual   C - C0 = -") != std::string::npos, m.out);
  BOOST_TEST(m.out.find("not explained by any named force") != std::string::npos, m.out);
  const auto k = nlohmann::json::parse(read_file(missing));
  BOOST_TEST(k["work_ledger"]["forces"].empty());
  BOOST_TEST(k["work_ledger"]["residual_work"].get<double>() < -1.0);

  // Every form keeps the ledger, with the velocities of its own state: Hamilton's from the
  // momenta, the multiplier form's crane-dae (whose scleronomic constraints do no work) as crane.
  for (const std::string run : {"crane --form hamilton", "crane-dae --form multipliers", "crane-dae --form maggi"}) {
    const fs::path form = scratch_dir() / "ledger-form.json";
    BOOST_TEST_REQUIRE(energy_audit("run " + run + " --json " + form.string()).status == 0, run);
    const auto f = nlohmann::json::parse(read_file(form));
    const double W_form = f["work_ledger"]["forces"]["damper"].get<double>(), Z_form = f["final"]["Z"].get<double>();
    BOOST_TEST(std::abs(W_form + Z_form) <= 1e-5 * Z_form, run);
    BOOST_TEST(std::abs(W_form - W) <= 1e-4 * Z, run);  // the same trolley, the same damper
  }

  const fs::path plain = scratch_dir() / "ledger-none.json";  // no named forces: no key
  BOOST_TEST_REQUIRE(energy_audit("run mechanism --t-end 0.5 --json " + plain.string()).status == 0);
  BOOST_TEST(!nlohmann::json::parse(read_file(plain)).contains("work_ledger"));
}

namespace {
/// The columns of a history CSV by name, each as the numbers of its rows.
std::map<std::string, std::vector<double>> columns_of(const std::string& csv) {
  const std::vector<std::string> lines = lines_of(csv);
  const std::vector<std::string> header = cells_of(lines.at(0));
  std::map<std::string, std::vector<double>> columns;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (lines[k].empty()) continue;
    const std::vector<std::string> row = cells_of(lines[k]);
    for (std::size_t c = 0; c < header.size(); ++c) columns[header[c]].push_back(std::stod(row.at(c)));
  }
  return columns;
}

double max_abs(const std::vector<double>& values) {
  double m = 0;
  for (const double v : values) m = std::max(m, std::abs(v));
  return m;
}
}  // namespace

// Asked for, the history shows each coordinate's equation residual (eq_NAME) and the work ledger
// (P_NAME, W_NAME, dC_dt) row by row, checked against the run's own record and the damper's power
// −k ẋ1² computed here from the history's velocities.
BOOST_AUTO_TEST_CASE(the_history_shows_each_equation_and_the_ledger_when_asked) {
  const fs::path csv = scratch_dir() / "diagnosis.csv", json = scratch_dir() / "diagnosis.json";
  // sup over states of |(M a − r)_i| / scale ≥ sup |(M a − r)_i| / sup scale, the check's number.
  BOOST_TEST_REQUIRE(energy_audit("run crane-wrong --equation-check-every 1 --equation-columns --csv " + csv.string() +
                                  " --json " + json.string()).status == 0);
  auto c = columns_of(read_file(csv));
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(lines_of(read_file(csv))[0].ends_with(",C,eq_x1,eq_phi"));
  BOOST_TEST(max_abs(c["eq_x1"]) >= j["equation_check"]["coordinates"]["x1"]["relative_residual"].get<double>());
  BOOST_TEST(max_abs(c["eq_x1"]) > 1e-3);
  BOOST_TEST(max_abs(c["eq_phi"]) < max_abs(c["eq_x1"]) / 22);  // M_21 / M_11, as in the summary
  BOOST_TEST(c["eq_x1"].front() < 1e-15);  // at rest the flipped term vanishes: round-off
  BOOST_TEST_REQUIRE(energy_audit("run crane --equation-columns --csv " + csv.string()).status == 0);
  c = columns_of(read_file(csv));
  BOOST_TEST(std::max(max_abs(c["eq_x1"]), max_abs(c["eq_phi"])) < 1e-13);  // right equations: round-off
  BOOST_TEST_REQUIRE(energy_audit("run mechanism-wrong --t-end 2 --equation-columns --csv " + csv.string()).status == 0);
  c = columns_of(read_file(csv));
  BOOST_TEST(max_abs(c["eq_gamma"]) > 1e-3);
  BOOST_TEST(max_abs(c["eq_x"]) < 1e-12);

  // The ledger of crane: P_damper = −k ẋ1², its work −Z at the end, the residual power at round-off.
  BOOST_TEST_REQUIRE(energy_audit("run crane --ledger-columns --csv " + csv.string() + " --json " + json.string()).status == 0);
  c = columns_of(read_file(csv));
  const auto r = nlohmann::json::parse(read_file(json));
  BOOST_TEST(lines_of(read_file(csv))[0].ends_with(",C,P_damper,W_damper,dC_dt"));
  const double k = 50.0;  // docs/models.md, crane
  for (std::size_t i = 0; i < c["t"].size(); i += 97) {
    BOOST_TEST(c["P_damper"][i] == -k * c["x1_dot"][i] * c["x1_dot"][i], tolerance(1e-12));
  }
  const double Z = r["final"]["Z"].get<double>();
  BOOST_TEST(c["W_damper"].back() == r["work_ledger"]["forces"]["damper"].get<double>(), tolerance(1e-12));
  BOOST_TEST(std::abs(c["W_damper"].back() + Z) <= 1e-5 * Z);
  BOOST_TEST(std::isnan(c["dC_dt"].front()));
  c["dC_dt"].erase(c["dC_dt"].begin());
  BOOST_TEST(max_abs(c["dC_dt"]) < 1e-6 * max_abs(c["P_damper"]));
  // Thinned by --every, the work is the trapezoid rule over the rows written.
  BOOST_TEST_REQUIRE(energy_audit("run crane --ledger-columns --every 10 --csv " + csv.string()).status == 0);
  BOOST_TEST(std::abs(columns_of(read_file(csv))["W_damper"].back() + Z) <= 1e-3 * Z);

  // crane-damper-missing names no force: its residual power is the left-out damper's, −k ẋ1²
  // (the difference quotient between rows against the mean of the two rows' values).
  BOOST_TEST_REQUIRE(energy_audit("run crane-damper-missing --ledger-columns --csv " + csv.string()).status == 0);
  BOOST_TEST(lines_of(read_file(csv))[0].ends_with(",C,dC_dt"));
  c = columns_of(read_file(csv));
  double largest_difference = 0, largest_power = 0;
  for (std::size_t i = 1; i < c["t"].size(); ++i) {
    const double damper = -k * 0.5 * (c["x1_dot"][i - 1] * c["x1_dot"][i - 1] + c["x1_dot"][i] * c["x1_dot"][i]);
    largest_difference = std::max(largest_difference, std::abs(c["dC_dt"][i] - damper));
    largest_power = std::max(largest_power, std::abs(damper));
  }
  BOOST_TEST(largest_difference < 1e-3 * largest_power);

  const std::string file = " --csv " + csv.string();
  expect_usage_error("run crane --equation-columns", "--equation-columns");  // no --csv
  expect_usage_error("run crane --ledger-columns", "--ledger-columns");
  expect_usage_error("run crane --no-audit --ledger-columns", "--ledger-columns");
  expect_usage_error("run crane-derived --equation-columns" + file, "--equation-columns");
  expect_usage_error("run crane --form hamilton --equation-columns" + file, "--equation-columns");
  expect_usage_error("run mechanism --ledger-columns" + file, "--ledger-columns");
}

// run --plot draws C − C0 with when it failed and, for a model that names its forces, the ledger.
BOOST_AUTO_TEST_CASE(a_run_is_plotted) {
  for (const std::string model : {"crane-wrong", "crane-damper-missing", "crane3d --t-end 0.5"}) {
    const fs::path png = scratch_dir() / "run.png";
    fs::remove(png);
    BOOST_TEST_REQUIRE(energy_audit("run " + model + " --plot " + png.string()).status == 0, model);
    const std::string bytes = read_file(png);
    BOOST_TEST(bytes.size() > 1000u, model);
    BOOST_TEST(bytes.substr(1, 3) == "PNG", model);
  }
  expect_usage_error("run crane --no-audit --plot " + (scratch_dir() / "x.png").string(), "--plot");
  expect_usage_error("run crane --every 10", "--every");  // neither --csv nor --plot
}

// Each model runs in the forms it admits; a form or a method that does not fit is a usage error
// naming both; the files name momenta p_NAME and Maggi's independent velocities u_NAME.
BOOST_AUTO_TEST_CASE(models_run_in_every_form_they_admit) {
  const Result list = energy_audit("list");
  BOOST_TEST(list.out.find("forms: lagrange (own), hamilton (derived)") != std::string::npos, list.out);
  BOOST_TEST(list.out.find("forms: multipliers (derived), maggi (derived)") != std::string::npos, list.out);
  const fs::path hamilton_csv = scratch_dir() / "hamilton.csv", hamilton_json = scratch_dir() / "hamilton.json",
                 maggi_csv = scratch_dir() / "maggi.csv", maggi_json = scratch_dir() / "maggi.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane --form hamilton --csv " + hamilton_csv.string() + " --json " +
                                  hamilton_json.string()).status == 0);
  BOOST_TEST(lines_of(read_file(hamilton_csv))[0] == "t,x1,phi,p_x1,p_phi,T,T2,T1,T0,V,E,H,Z,C");
  const auto h = nlohmann::json::parse(read_file(hamilton_json));
  BOOST_TEST(h["form"] == "hamilton");
  BOOST_TEST(h["verdict"] == "pass");
  BOOST_TEST(h["final"].contains("p"));
  BOOST_TEST(h["equation_check"].is_null());  // Hamilton's equations come from T, V and f
  BOOST_TEST_REQUIRE(energy_audit("run crane-dae --form maggi --csv " + maggi_csv.string() + " --json " +
                                  maggi_json.string()).status == 0);
  BOOST_TEST(lines_of(read_file(maggi_csv))[0] ==
             "t,x1,x2,y2,phi,u_x1,u_phi,T,T2,T1,T0,V,E,H,Z,C,F_Ax,F_Ay,Phi_norm,psi_norm");
  const auto m = nlohmann::json::parse(read_file(maggi_json));
  BOOST_TEST(m["independent"][1] == "phi");
  BOOST_TEST(m["final"]["u"].contains("x1"));
  BOOST_TEST(m["max_constraint_drift"]["velocity"].get<double>() < 1e-12);
  for (const char* method : {"euler", "euler-cromer", "rk2", "rk3", "rk4", "rkg", "verlet", "cvode-bdf", "cvode-adams"}) {
    BOOST_TEST(energy_audit(std::string("run crane --form hamilton --t-end 0.5 --method ") + method).status == 0, method);
    BOOST_TEST(energy_audit(std::string("run crane-dae --form maggi --t-end 0.5 --method ") + method).status == 0,
               method);
  }
  BOOST_TEST(energy_audit("run crane-dae --form maggi --t-end 0.5 --method idas").status == 0);
  expect_usage_error("run crane --form maggi", "crane");
  expect_usage_error("run crane-dae --form hamilton", "hamilton");
  expect_usage_error("run crane --form hamilton --method idas", "idas");
  expect_usage_error("run crane-dae --form maggi --independent x1", "--independent");
  expect_usage_error("run crane-dae --form maggi --independent x1,theta", "theta");
  expect_usage_error("run crane-dae --form maggi --stabilize baumgarte", "--stabilize");
  expect_usage_error("run crane-dae --independent x1,phi", "--independent");
  expect_usage_error("run crane --form hamilton --no-equation-check", "--no-equation-check");
}

// The constraint drift is judged with δ_C: a wildly inconsistent start keeps C exact but fails.
BOOST_AUTO_TEST_CASE(constraint_drift_above_its_threshold_fails_the_verdict) {
  const fs::path json = scratch_dir() / "drift.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane-dae --init phi=1e300 --json " + json.string()).status == 0);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["delta_C"].get<double>() < 1e-3);
  BOOST_TEST(j["max_constraint_drift"]["position"].get<double>() > 1.0);
  BOOST_TEST(j["drift_threshold"].get<double>() == 1e-3);
  BOOST_TEST(j["verdict"] == "fail");
  const fs::path loose = scratch_dir() / "loose.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane-dae --init phi=1e300 --drift-threshold 1e4 --json " + loose.string())
                         .status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(loose))["verdict"] == "pass");
}

// crane3d, the rheonomic truck crane, and its wrong twin at Gill's method and h = 0.04: the twin
// fails δ_C and the equation check where the crane passes; --init moves the start and V's zero
// level with it; the drop case runs in Hamilton's form; the divergence bound stops a run.
BOOST_AUTO_TEST_CASE(crane3d_and_its_wrong_twin) {
  const fs::path right = scratch_dir() / "crane3d.json", wrong = scratch_dir() / "crane3d-wrong.json",
                 moved = scratch_dir() / "crane3d-moved.json", hamilton = scratch_dir() / "crane3d-hamilton.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane3d --method rkg --step 0.04 --json " + right.string()).status == 0);
  const auto r = nlohmann::json::parse(read_file(right));
  BOOST_TEST(r["verdict"] == "pass");
  BOOST_TEST(r["steps"].get<int>() == 500);
  BOOST_TEST(r["delta_C"].get<double>() < 1e-6);
  BOOST_TEST(r["params"]["kv"].get<double>() == 4e6);
  BOOST_TEST(r["equation_check"].is_null());  // derived accelerations: nothing to check
  BOOST_TEST_REQUIRE(energy_audit("run crane3d-wrong --method rkg --step 0.04 --json " + wrong.string()).status == 0);
  const auto w = nlohmann::json::parse(read_file(wrong));
  BOOST_TEST(w["verdict"] == "fail");
  BOOST_TEST(w["delta_C"].get<double>() > 1e-3);
  BOOST_TEST(w["equation_check"]["relative_residual"].get<double>() > 1e-8);
  BOOST_TEST(w["C0"].get<double>() == r["C0"].get<double>());  // the twins start identical
  // V = 0 at the start whatever it is, and T0 does not depend on z: C0 stays, the motion changes.
  // (A 1 cm push sets the stiff pads ringing: rkg needs h = 0.01 there, as for the drop.)
  BOOST_TEST_REQUIRE(energy_audit("run crane3d --method rkg --step 0.01 --t-end 2 --init dz=0.01 --json " + moved.string())
                         .status == 0);
  const auto m = nlohmann::json::parse(read_file(moved));
  BOOST_TEST(m["C0"].get<double>() == r["C0"].get<double>(), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(m["verdict"] == "pass");
  BOOST_TEST_REQUIRE(energy_audit("run crane3d-drop --form hamilton --method rk4 --step 0.01 --t-end 2 --json " +
                                  hamilton.string()).status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(hamilton))["verdict"] == "pass");
  const Result diverged = energy_audit("run crane3d-drop --method rkg --step 0.04 --set kv=4e10");
  BOOST_TEST(diverged.status == 1);
  BOOST_TEST(diverged.err.find("diverged at t = ") != std::string::npos, diverged.err);
}

BOOST_AUTO_TEST_CASE(run_writes_the_json_record_and_the_history) {
  const fs::path json = scratch_dir() / "crane.json", csv = scratch_dir() / "crane.csv";
  const Result r = energy_audit("run crane --json " + json.string() + " --csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  for (const char* field : {"model", "method", "step", "steps", "rhs evals", "delta_C", "verdict", "wall time"}) {
    BOOST_TEST(r.out.find(field) != std::string::npos, field);
  }

  const auto j = nlohmann::json::parse(read_file(json));
  for (const char* key : {"model", "method", "step", "t0", "t_end", "steps", "rhs_evals", "delta_C", "threshold",
                          "verdict", "C0", "max_abs_dC", "energy_scale", "wall_seconds", "params", "final"}) {
    BOOST_TEST(j.contains(key), key);
  }
  BOOST_TEST(j["model"] == "crane");
  BOOST_TEST(j["method"] == "rk4");  // defaults: rk4, h = 1e-3, the model's interval [0, 5]
  BOOST_TEST(j["step"].get<double>() == 1e-3);
  BOOST_TEST(j["t_end"].get<double>() == 5.0);
  BOOST_TEST(j["steps"].get<int>() == 5000);
  BOOST_TEST(j["rhs_evals"].get<int>() == 20000);
  BOOST_TEST(j["threshold"].get<double>() == 1e-3);
  BOOST_TEST(j["verdict"] == "pass");
  BOOST_TEST(j["delta_C"].get<double>() ==
                 j["max_abs_dC"].get<double>() / j["energy_scale"].get<double>(),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(j["params"]["s"].get<double>() == 3000.0);
  BOOST_TEST(j["params"]["m1"].get<double>() == 10.0);
  const auto& final_state = j["final"];
  BOOST_TEST(final_state["t"].get<double>() == 5.0);
  for (const char* key : {"T", "V", "E", "H", "Z", "C"}) BOOST_TEST(final_state.contains(key), key);
  BOOST_TEST(final_state["q"].contains("x1"));
  BOOST_TEST(final_state["q"].contains("phi"));
  BOOST_TEST(final_state["v"].contains("phi"));
  // Initial state of the spec: x1 = 0.5, phi = -pi/6 at rest, so C0 = V0 = s/2 x1^2 + m2 g l/2 sin(phi).
  BOOST_TEST(j["C0"].get<double>() == 0.5 * 3000 * 0.25 + 9.81 * 0.5 * std::sin(-M_PI / 6),
             boost::test_tools::tolerance(1e-12));
  // The damper has taken energy: Z > 0, E fell.
  BOOST_TEST(final_state["Z"].get<double>() > 0.0);

  const auto rows = lines_of(read_file(csv));
  BOOST_TEST_REQUIRE(rows.size() == 5002u);  // header + t0 + 5000 steps
  BOOST_TEST(rows[0] == "t,x1,phi,x1_dot,phi_dot,x1_ddot,phi_ddot,T,T2,T1,T0,V,E,H,Z,C");
  BOOST_TEST(rows[1].substr(0, 6) == "0,0.5,");
}

// A model's extra outputs (mechanism: the conserved momentum p_x, 0 at the rest start) are the
// CSV's last columns, the JSON's final.extra with their largest change over the run, and a line
// of the summary; in Hamilton's form, where p_x is also the state's momentum column, the extra
// column is extra_p_x. A model without extra outputs has none of these.
BOOST_AUTO_TEST_CASE(extra_outputs_are_written_beside_the_history) {
  const fs::path json = scratch_dir() / "mechanism.json", csv = scratch_dir() / "mechanism.csv";
  const Result r = energy_audit("run mechanism --json " + json.string() + " --csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  BOOST_TEST(r.out.find("extra      p_x = ") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("max |p_x - p_x(t0)| = ") != std::string::npos, r.out);

  const auto rows = lines_of(read_file(csv));
  BOOST_TEST_REQUIRE(rows.size() == 10002u);  // header + t0 + 10000 steps over [0, 10]
  BOOST_TEST(rows[0] == "t,x,gamma,x_dot,gamma_dot,x_ddot,gamma_ddot,T,T2,T1,T0,V,E,H,Z,C,p_x");
  const auto last_number = [](const std::string& row) { return std::stod(row.substr(row.rfind(',') + 1)); };
  BOOST_TEST(last_number(rows[1]) == 0.0);  // p_x(0) = 0 at rest, β(0) = 0
  double max_p_x = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) max_p_x = std::max(max_p_x, std::abs(last_number(rows[i])));
  BOOST_TEST(max_p_x > 0.0);    // rk4's truncation error in Lagrange's form ...
  BOOST_TEST(max_p_x < 1e-5);   // ... against the drive's momentum ME beta_dot ~ 31 kg m/s

  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "pass");
  BOOST_TEST(j["params"]["J2"].get<double>() == 2.5);
  BOOST_TEST(j["t_end"].get<double>() == 10.0);
  BOOST_TEST_REQUIRE(j["final"].contains("extra"));
  BOOST_TEST(j["final"]["extra"]["p_x"].get<double>() == last_number(rows.back()));  // the last row's state
  BOOST_TEST(j["extra_max_abs_change"]["p_x"].get<double>() == max_p_x);             // every step is a row here
  // The rest start: C0 = −I0 beta_dot(0)^2 / 2 − m3 g l with I0 = m2 e^2 + J2 + m3 h^2.
  BOOST_TEST(j["C0"].get<double>() == -0.5 * (2.5 * 0.25 + 2.5 + 2.5 * 4) * 25 - 2.5 * 9.81 * 0.1, tolerance(1e-14));

  const fs::path hamilton_json = scratch_dir() / "mechanism-h.json", hamilton_csv = scratch_dir() / "mechanism-h.csv";
  BOOST_TEST_REQUIRE(energy_audit("run mechanism --form hamilton --every 100 --json " + hamilton_json.string() +
                                  " --csv " + hamilton_csv.string()).status == 0);
  const auto hamilton_rows = lines_of(read_file(hamilton_csv));
  BOOST_TEST(hamilton_rows[0] == "t,x,gamma,p_x,p_gamma,T,T2,T1,T0,V,E,H,Z,C,extra_p_x");
  BOOST_TEST(hamilton_rows.size() == 102u);
  const auto h = nlohmann::json::parse(read_file(hamilton_json));
  // p_x is a state entry with rate 0 there: v from p gives it back to round-off at every step.
  BOOST_TEST(std::abs(h["final"]["extra"]["p_x"].get<double>()) < 1e-13);
  BOOST_TEST(h["extra_max_abs_change"]["p_x"].get<double>() < 1e-13);

  const fs::path unaudited = scratch_dir() / "mechanism-unaudited.json", crane = scratch_dir() / "crane-extra.json";
  BOOST_TEST_REQUIRE(energy_audit("run mechanism --no-audit --json " + unaudited.string()).status == 0);
  BOOST_TEST(nlohmann::json::parse(read_file(unaudited))["extra_max_abs_change"].is_null());
  BOOST_TEST_REQUIRE(energy_audit("run crane --json " + crane.string()).status == 0);
  const auto c = nlohmann::json::parse(read_file(crane));
  BOOST_TEST(!c.contains("extra_max_abs_change"));
  BOOST_TEST(!c["final"].contains("extra"));
}

// Seed 000's demonstration: a single sign error in the rheonomic mechanism's equations drifts C
// past the threshold and the equation check flags it, where the right equations pass.
BOOST_AUTO_TEST_CASE(mechanism_wrong_twins_fail_where_the_mechanism_passes) {
  for (const char* model : {"mechanism", "mechanism-wrong", "mechanism-wrong2"}) {
    const fs::path json = scratch_dir() / (std::string(model) + ".json");
    BOOST_TEST_REQUIRE(energy_audit(std::string("run ") + model + " --json " + json.string()).status == 0);
    const auto j = nlohmann::json::parse(read_file(json));
    const bool right = std::string(model) == "mechanism";
    BOOST_TEST(j["verdict"] == (right ? "pass" : "fail"), model);
    BOOST_TEST((j["delta_C"].get<double>() <= 1e-3) == right, model);
    const double residual = j["equation_check"]["relative_residual"].get<double>();
    BOOST_TEST((right ? residual < 1e-14 : residual > 1e-4), model << ": " << residual);
  }
  expect_usage_error("run mechanism --set l=0", "l = 0");
  expect_usage_error("run mechanism --init theta=1", "theta");
}

BOOST_AUTO_TEST_CASE(every_thins_the_history_but_not_delta_c) {
  const fs::path all = scratch_dir() / "all.json", thin_json = scratch_dir() / "thin.json",
                 thin_csv = scratch_dir() / "thin.csv";
  BOOST_TEST_REQUIRE(energy_audit("run crane --method rk2 --json " + all.string()).status == 0);
  BOOST_TEST_REQUIRE(energy_audit("run crane --method rk2 --every 10 --json " + thin_json.string() + " --csv " +
                                  thin_csv.string()).status == 0);
  BOOST_TEST(lines_of(read_file(thin_csv)).size() == 1u + 501u);
  const auto a = nlohmann::json::parse(read_file(all)), b = nlohmann::json::parse(read_file(thin_json));
  BOOST_TEST(a["delta_C"].get<double>() == b["delta_C"].get<double>());
}

BOOST_AUTO_TEST_CASE(set_init_and_t_end_reach_the_run) {
  const fs::path json = scratch_dir() / "set.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane --set k=0 --init x1=0.1 --t-end 1 --step 1e-2 --json " + json.string())
                         .status == 0);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["params"]["k"].get<double>() == 0.0);
  BOOST_TEST(j["steps"].get<int>() == 100);
  BOOST_TEST(j["final"]["t"].get<double>() == 1.0);
  BOOST_TEST(j["final"]["Z"].get<double>() == 0.0);  // no damper, no flow
  BOOST_TEST(j["C0"].get<double>() == 0.5 * 3000 * 0.01 + 9.81 * 0.5 * std::sin(-M_PI / 6),
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(failed_verdict_exits_three_only_when_asked) {
  BOOST_TEST(energy_audit("run crane-wrong").status == 0);
  const Result r = energy_audit("run crane-wrong --fail-on-verdict");
  BOOST_TEST(r.status == 3);
  BOOST_TEST(r.out.find("fail") != std::string::npos);
  BOOST_TEST(energy_audit("run crane --fail-on-verdict").status == 0);
}

BOOST_AUTO_TEST_CASE(diverging_run_exits_one_and_keeps_its_history) {
  const fs::path json = scratch_dir() / "diverged.json", csv = scratch_dir() / "diverged.csv";
  // A spring of 1e12 N/m makes explicit Euler at h = 1e-2 grow by ~3000 per step.
  const Result r = energy_audit("run crane --method euler --step 1e-2 --set s=1e12 --json " + json.string() +
                                " --csv " + csv.string());
  BOOST_TEST(r.status == 1);
  BOOST_TEST(line_count(r.err) == 1u, r.err);
  BOOST_TEST(r.err.find("diverged at t = ") != std::string::npos, r.err);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "diverged");
  const auto rows = lines_of(read_file(csv));
  BOOST_TEST_REQUIRE(rows.size() > 2u);  // header, t0 and at least one finite step
  BOOST_TEST(rows.size() - 2 == j["steps"].get<std::size_t>());  // header + t0 + each finite step
  BOOST_TEST(j["final"]["t"].get<double>() < 5.0);
}

// Explicit Euler grows the crane's undamped swing by sqrt(1 + (h w)^2) per step: at h = 0.5 the
// energies overflow while the state is still finite (~1e216). C left the finite range: diverged.
BOOST_AUTO_TEST_CASE(a_run_whose_energy_overflows_has_diverged) {
  const fs::path json = scratch_dir() / "overflow.json";
  const Result r = energy_audit("run crane --method euler --step 0.5 --json " + json.string());
  BOOST_TEST(r.status == 1, r.out);
  BOOST_TEST(r.err.find("diverged at t = ") != std::string::npos, r.err);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "diverged");
  BOOST_TEST(j["diverged_at"].get<double>() > 0.0);
  BOOST_TEST(j["diverged_at"].get<double>() <= 5.0);
}

// A blow-up is reported as one, not as the rank of a matrix filled with overflowed numbers.
BOOST_AUTO_TEST_CASE(a_blow_up_is_a_divergence_not_a_singular_matrix) {
  for (const std::string arguments : {"run crane-dae --stabilize baumgarte --baumgarte 1e6,1e6",
                                      "run ellipse --set k=1e300"}) {
    const Result r = energy_audit(arguments);
    BOOST_TEST(r.status == 1, arguments);
    BOOST_TEST(r.err.find("diverged") != std::string::npos, arguments << " -> " << r.err);
    BOOST_TEST(r.err.find("rank") == std::string::npos, arguments << " -> " << r.err);
    BOOST_TEST(r.err.find("singular") == std::string::npos, arguments << " -> " << r.err);
  }
}

// A run that an error ends reports what it computed: the steps and evaluations up to the error.
BOOST_AUTO_TEST_CASE(a_failed_run_counts_what_it_computed) {
  const fs::path json = scratch_dir() / "counted.json";
  // Maggi's dependent block turns singular at t = 1.2855 (container_test.cpp), in rk4's step 1286.
  Result r = energy_audit("run container-line --form maggi --set a=20 --json " + json.string());
  BOOST_TEST(r.status == 1, r.out);
  auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "error");
  BOOST_TEST(j["steps"].get<std::size_t>() == 1285u);
  BOOST_TEST(j["rhs_evals"].get<std::size_t>() >= 4 * 1285u);  // rk4: four per step
  BOOST_TEST(r.out.find("rhs evals  0\n") == std::string::npos, r.out);
  r = energy_audit("run container-line --form maggi --set a=20 --method cvode-bdf --json " + json.string());
  BOOST_TEST(r.status == 1, r.out);
  j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "error");
  BOOST_TEST(j["final"]["t"].get<double>() > 1.28);
  BOOST_TEST(j["steps"].get<std::size_t>() > 0u);
  BOOST_TEST_REQUIRE(j.contains("sundials"));
  BOOST_TEST(j["sundials"]["steps"] == j["steps"]);
  BOOST_TEST(j["sundials"]["rhs_evals"].get<long>() > 0);
}

BOOST_AUTO_TEST_CASE(no_audit_runs_without_z_and_writes_counts_but_no_history) {
  const fs::path json = scratch_dir() / "no-audit.json";
  const Result r = energy_audit("run crane --no-audit --json " + json.string());
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.out.find("unaudited") != std::string::npos);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["steps"].get<int>() == 5000);
  BOOST_TEST(j["rhs_evals"].get<int>() == 20000);
  BOOST_TEST(j["wall_seconds"].get<double>() > 0.0);
  BOOST_TEST(j["delta_C"].is_null());
  BOOST_TEST(j["verdict"].is_null());
  BOOST_TEST(j["audited"] == false);
  expect_usage_error("run crane --no-audit --csv x.csv", "--csv");
}

BOOST_AUTO_TEST_CASE(cvodes_runs_report_tolerances_and_sundials_counters) {
  const fs::path json = scratch_dir() / "cvode.json";
  const Result r = energy_audit("run crane --method cvode-adams --rtol 1e-9 --z-as quadrature --json " + json.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["method"] == "cvode-adams");
  BOOST_TEST(j["step"].is_null());
  BOOST_TEST(j["rtol"].get<double>() == 1e-9);
  BOOST_TEST(j["atol"].get<double>() == 1e-10);  // the default
  BOOST_TEST(j["z_as"] == "quadrature");
  BOOST_TEST(j["verdict"] == "pass");
  for (const char* key : {"steps", "rhs_evals", "rhs_evals_jacobian", "jac_evals", "nonlinear_iterations",
                          "error_test_fails", "quadrature_rhs_evals"}) {
    BOOST_TEST(j["sundials"].contains(key), key);
  }
  BOOST_TEST(j["sundials"]["steps"].get<int>() == j["steps"].get<int>());
  BOOST_TEST(j["sundials"]["steps"].get<int>() > 100);
  BOOST_TEST(j["final"]["t"].get<double>() == 5.0);
}

BOOST_AUTO_TEST_CASE(too_tight_max_steps_exits_one_naming_the_flag_and_keeps_history) {
  const fs::path json = scratch_dir() / "tight.json", csv = scratch_dir() / "tight.csv";
  const Result r = energy_audit("run crane --method cvode-bdf --max-steps 20 --json " + json.string() + " --csv " +
                                csv.string());
  BOOST_TEST(r.status == 1);
  BOOST_TEST(line_count(r.err) == 1u, r.err);
  BOOST_TEST(r.err.find("CV_TOO_MUCH_WORK") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("t = ") != std::string::npos, r.err);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["verdict"] == "error");
  BOOST_TEST(j["steps"].get<int>() == 20);
  BOOST_TEST(lines_of(read_file(csv)).size() == 1u + 21u);  // header, t0 and 20 steps
}

BOOST_AUTO_TEST_CASE(multiplier_model_reports_multipliers_and_constraint_drift) {
  const fs::path json = scratch_dir() / "dae.json", csv = scratch_dir() / "dae.csv";
  const Result r = energy_audit("run crane-dae --method idas --stabilize ggl --json " + json.string() + " --csv " +
                                csv.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.out.find("max |Phi|") != std::string::npos);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["stabilization"] == "ggl");
  BOOST_TEST(j["max_constraint_drift"]["position"].get<double>() < 1e-8);
  BOOST_TEST(j["max_constraint_drift"]["velocity"].get<double>() < 1e-6);
  BOOST_TEST(j["final"]["q"].contains("x2"));
  const auto rows = lines_of(read_file(csv));
  BOOST_TEST(rows[0] == "t,x1,x2,y2,phi,x1_dot,x2_dot,y2_dot,phi_dot,T,T2,T1,T0,V,E,H,Z,C,F_Ax,F_Ay,Phi_norm,psi_norm");

  const fs::path baumgarte = scratch_dir() / "baumgarte.json";
  BOOST_TEST_REQUIRE(energy_audit("run crane-dae --stabilize baumgarte --baumgarte 10,10 --json " + baumgarte.string())
                         .status == 0);
  const auto b = nlohmann::json::parse(read_file(baumgarte));
  BOOST_TEST(b["stabilization"] == "baumgarte");
  BOOST_TEST(b["baumgarte"]["alpha"].get<double>() == 10.0);
  BOOST_TEST(b["method"] == "rk4");
}

// SIGINT and SIGTERM stop at a step boundary: the history so far is written, the run says where
// it stopped, and the exit status is 128 + the signal. While the run goes, no earlier file
// stands under the requested names.
BOOST_AUTO_TEST_CASE(an_interrupted_run_writes_its_history_and_exits_with_the_signal) {
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const fs::path dir = fresh_dir("interrupt");
    std::ofstream(dir / "h.json") << "{\"verdict\": \"pass\"}\n";
    const pid_t pid = start_cli({"run", "crane", "--t-end", "2e4", "--csv", "h.csv", "--json", "h.json"}, dir);
    BOOST_TEST_REQUIRE(wait_for_file(dir, ".h.csv.", 1u << 20));  // streaming under its temporary name
    BOOST_TEST(!fs::exists(dir / "h.json"));  // the stale "pass" is gone
    BOOST_TEST(!fs::exists(dir / "h.csv"));
    ::kill(pid, signal_number);
    const Process p = finish_cli(pid);
    BOOST_TEST(p.status == 128 + signal_number, p.err);
    BOOST_TEST(line_count(p.err) == 1u, p.err);
    BOOST_TEST(p.err.find("interrupted at t = ") != std::string::npos, p.err);
    const auto j = nlohmann::json::parse(read_file(dir / "h.json"));
    BOOST_TEST(j["verdict"] == "interrupted");
    BOOST_TEST(j["end"] == "interrupted");
    const double t = j["t_reached"].get<double>();
    BOOST_TEST(t > 0.0);
    BOOST_TEST(t < 2e4);
    BOOST_TEST(j["final"]["t"].get<double>() == t);
    const auto rows = lines_of(read_file(dir / "h.csv"));
    BOOST_TEST_REQUIRE(rows.size() > 2u);
    BOOST_TEST(std::stod(rows.back().substr(0, rows.back().find(','))) == t);
    BOOST_TEST(rows.size() == 2u + j["steps"].get<std::size_t>());  // header, t0, every step
    BOOST_TEST((entries_of(dir) == std::vector<std::string>{"h.csv", "h.json"}));  // no temporary left
  }
  const fs::path dir = fresh_dir("interrupt-compare");
  const pid_t pid = start_cli({"compare", "crane", "--methods", "rk4,rk2", "--steps", "1e-4", "--t-end", "2000",
                               "--csv", "c.csv"}, dir);
  // The signal handlers are installed once the outputs are open under their temporary names, and
  // the first run starts then: wait for that file (a fixed wait alone is too short for a slow
  // start, under the sanitizers), then for the rk4 run to be under way.
  BOOST_TEST_REQUIRE(wait_for_file(dir, ".c.csv.", 0));
  ::usleep(300000);
  ::kill(pid, SIGTERM);
  const Process p = finish_cli(pid);
  BOOST_TEST(p.status == 143, p.err);
  const auto rows = lines_of(read_file(dir / "c.csv"));
  BOOST_TEST_REQUIRE(rows.size() == 2u);  // the header and the interrupted rk4 run; rk2 never started
  BOOST_TEST(rows[1].find(",interrupted,") != std::string::npos, rows[1]);
  BOOST_TEST(p.out.find("1 of 2 runs not started") != std::string::npos, p.out);
}

// The CSV streams to disk: a long run's memory does not grow with its rows (10^6 rows of 14
// doubles would be 112 MB in memory). The peak resident memory of the run and of one with 1 %
// of its rows are read by GNU time, whose own small process starts energy-audit: a child forked
// straight from this test would count this process's memory as its own (the kernel keeps the
// peak of the image a child had before it exec'd, and a sanitized test process is large).
BOOST_AUTO_TEST_CASE(a_long_history_streams_to_disk_in_bounded_memory) {
  const fs::path dir = fresh_dir("long");
  const auto peak_kib_of_run_to = [&](const std::string& t_end) {
    const Process p = finish_cli(start_cli({"run", "crane", "--t-end", t_end, "--csv", "long.csv"}, dir,
                                           {"/usr/bin/time", "-f", "%M", "-o", (dir / "peak.txt").string()}));
    BOOST_TEST_REQUIRE(p.status == 0, p.err);
    return std::stol(read_file(dir / "peak.txt"));
  };
  const long short_run_kib = peak_kib_of_run_to("10");
  const long long_run_kib = peak_kib_of_run_to("1000");
  BOOST_TEST(fs::file_size(dir / "long.csv") > 112'000'000u);
  BOOST_TEST(long_run_kib - short_run_kib < 5'000, long_run_kib << " KiB against " << short_run_kib << " KiB");
  fs::remove(dir / "long.csv");
}

// A rope that would go slack is reported with its time, in the summary and the JSON.
BOOST_AUTO_TEST_CASE(a_slack_rope_is_reported) {
  const fs::path json = scratch_dir() / "slack.json";
  const Result r = energy_audit("run container-line --method rk4 --step 0.005 --set a=20 --json " + json.string());
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("slack      lambda changes sign first at t = 2:") != std::string::npos, r.out);
  BOOST_TEST(nlohmann::json::parse(read_file(json))["multiplier_sign_changes"]["lambda"] == 2.0);
  const Result taut = energy_audit("run container-line --form maggi --method rkg --step 0.04");
  BOOST_TEST(taut.out.find("slack") == std::string::npos, taut.out);
  // A pin's forces change sign freely: not reported as slack.
  BOOST_TEST(energy_audit("run crane-dae").out.find("slack") == std::string::npos);
}

// --phase: the line's fixed-step sampling of its pieces; refused where it cannot act.
BOOST_AUTO_TEST_CASE(the_phase_of_the_line_is_chosen_and_reported) {
  const fs::path json = scratch_dir() / "phase.json";
  const Result r = energy_audit("run container-line --form maggi --method rk4 --step 0.04 --phase midpoint --json " +
                                json.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.out.find("phase      midpoint") != std::string::npos, r.out);
  const auto j = nlohmann::json::parse(read_file(json));
  BOOST_TEST(j["phase"] == "midpoint");
  BOOST_TEST(j["delta_C"].get<double>() < 1e-7);  // every step within one piece: rk4's own accuracy
  expect_usage_error("run crane --phase midpoint", "--phase");
  expect_usage_error("run container-line --phase midpoint --method cvode-bdf", "--phase");
  expect_usage_error("run container-line --phase left", "--phase");
}

BOOST_AUTO_TEST_CASE(a_kinematic_model_runs_and_is_judged_by_its_constraint_drift) {
  const fs::path json = scratch_dir() / "ellipse.json", csv = scratch_dir() / "ellipse.csv";
  const Result r = energy_audit("run ellipse --set k=-2 --method euler --step 0.002 --init x=1.05 --json " +
                                json.string() + " --csv " + csv.string());
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("transverse multiplier rho = 0.996") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("verdict: stable") != std::string::npos, r.out);
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  BOOST_TEST(record["verdict"] == "stable");
  BOOST_TEST(record["f_initial"].get<double>() == 0.5 * (9 * 1.05 * 1.05 - 9), tolerance(1e-15));
  // Euler removes the 5 % error down to the offset where the gain balances its error of the
  // rotation: 4.5 d / (1 - R - d), d = (3 tau)^2, R = 1 + tau k (the linear theory of
  // docs/models.md, the ellipse).
  const double d = 9 * 0.002 * 0.002, R = 1 - 2 * 0.002;
  BOOST_TEST(record["f_final"].get<double>() == 4.5 * d / (1 - R - d), tolerance(0.05));
  BOOST_TEST(record["steps"] == 10000);
  const std::vector<std::string> rows = lines_of(read_file(csv));
  BOOST_TEST(rows.front() == "t,x,y,f");
  BOOST_TEST(rows.size() == 10002u);  // header, t0 and every step

  const Result repelled = energy_audit("run ellipse --set k=2 --method rk4 --step 0.002");
  BOOST_TEST(repelled.status == 0);
  BOOST_TEST(repelled.out.find("verdict: unstable") != std::string::npos, repelled.out);
  const Result adaptive = energy_audit("run ellipse --set k=-5 --method cvode-bdf --rtol 1e-9");
  BOOST_TEST(adaptive.status == 0);
  BOOST_TEST(adaptive.out.find("verdict: stable") != std::string::npos, adaptive.out);
  const Result diverged = energy_audit("run ellipse --set k=1000 --method euler --step 0.01");
  BOOST_TEST(diverged.status == 1);
  BOOST_TEST(diverged.out.find("verdict: unstable") != std::string::npos, diverged.out);
  BOOST_TEST(diverged.err.find("diverged") != std::string::npos, diverged.err);

  expect_usage_error("run ellipse --method verlet", "verlet");
  expect_usage_error("run ellipse --method euler-cromer", "euler-cromer");
  expect_usage_error("run ellipse --method idas", "idas");
  expect_usage_error("run ellipse --threshold 1e-3", "--threshold");
  expect_usage_error("run ellipse --set m=1", "'m'");
  expect_usage_error("run ellipse --init z=1", "'z'");
  expect_usage_error("compare ellipse", "kinematic");
  expect_usage_error("run ellipse --method cvode-bdf --step 0.1", "--step");
}

#ifdef ENERGY_AUDIT_WITH_ARKODE
// arkode-erk and arkode-dirk: adaptive by default, at a fixed step with --step, the table
// chosen with --table and reported, the counters in the JSON.
BOOST_AUTO_TEST_CASE(the_arkode_methods_run_adaptive_and_at_a_fixed_step) {
  const fs::path adaptive = scratch_dir() / "erk-adaptive.json", fixed = scratch_dir() / "erk-fixed.json",
                 table = scratch_dir() / "erk-table.json", dirk = scratch_dir() / "dirk.json";
  const Result erk = energy_audit("run crane --method arkode-erk --rtol 1e-8 --json " + adaptive.string());
  BOOST_TEST_REQUIRE(erk.status == 0, erk.err);
  BOOST_TEST(erk.out.find("method     arkode-erk\n") != std::string::npos, erk.out);
  BOOST_TEST(erk.out.find("tolerances rtol 1e-08, atol 1e-10, Z as state\n") != std::string::npos, erk.out);
  const auto a = nlohmann::json::parse(read_file(adaptive));
  BOOST_TEST(a["verdict"] == "pass");
  BOOST_TEST(a["delta_C"].get<double>() < 1e-6);
  BOOST_TEST(a["step"].is_null());
  const std::string default_table = a["table"];
  BOOST_TEST(default_table.rfind("ARKODE_", 0) == 0u);
  BOOST_TEST(default_table.back() == '4');  // ERKStep's default of order 4
  BOOST_TEST(a["sundials"]["steps"].get<long>() == a["steps"].get<long>());
  BOOST_TEST(a["sundials"]["rhs_evals"].get<long>() > a["steps"].get<long>());

  const Result at_step = energy_audit("run crane --method arkode-erk --step 1e-3 --json " + fixed.string());
  BOOST_TEST_REQUIRE(at_step.status == 0, at_step.err);
  const auto f = nlohmann::json::parse(read_file(fixed));
  BOOST_TEST(f["step"].get<double>() == 1e-3);
  BOOST_TEST(f.count("rtol") == 0u);
  BOOST_TEST(f["steps"].get<long>() == 5000);  // [0, 5] at h = 1e-3: no step of round-off size at the end
  BOOST_TEST(f["verdict"] == "pass");
  BOOST_TEST(f["table"] == default_table);

  const Result bogacki = energy_audit("run crane --method arkode-erk --step 2e-3 --table ARKODE_BOGACKI_SHAMPINE_4_2_3 "
                                      "--json " + table.string());
  BOOST_TEST_REQUIRE(bogacki.status == 0, bogacki.err);
  BOOST_TEST(bogacki.out.find("table      ARKODE_BOGACKI_SHAMPINE_4_2_3\n") != std::string::npos, bogacki.out);
  const auto b = nlohmann::json::parse(read_file(table));
  BOOST_TEST(b["delta_C"].get<double>() > f["delta_C"].get<double>());  // order 3 at twice the step

  const Result implicit = energy_audit("run crane --method arkode-dirk --rtol 1e-7 --json " + dirk.string());
  BOOST_TEST_REQUIRE(implicit.status == 0, implicit.err);
  const auto d = nlohmann::json::parse(read_file(dirk));
  BOOST_TEST(d["verdict"] == "pass");
  // ARKStep's default of order 4 (ARKSTEP_DEFAULT_DIRK_4).
#ifdef ENERGY_AUDIT_SUNDIALS_BELOW_6_6
  BOOST_TEST(d["table"] == "ARKODE_SDIRK_5_3_4");
#else
  BOOST_TEST(d["table"] == "ARKODE_ESDIRK436L2SA_6_3_4");
#endif
  BOOST_TEST(d["sundials"]["nonlinear_iterations"].get<long>() >= d["steps"].get<long>());
}

// arkode-dirk takes ARKODE's diagonally implicit tables by name (no relaxation needed: SUNDIALS
// 6.4 too): adaptive with an embedded method, at a fixed step of the table's order.
BOOST_AUTO_TEST_CASE(arkode_dirk_takes_a_table_by_name) {
  const fs::path adaptive = scratch_dir() / "dirk-trbdf2.json",
                 fixed = scratch_dir() / "dirk-trbdf2-fixed.json";
  const Result trbdf2 =
      energy_audit("run crane --method arkode-dirk --table ARKODE_TRBDF2_3_3_2 --json " + adaptive.string());
  BOOST_TEST_REQUIRE(trbdf2.status == 0, trbdf2.err);
  BOOST_TEST(trbdf2.out.find("table      ARKODE_TRBDF2_3_3_2\n") != std::string::npos, trbdf2.out);
  const auto a = nlohmann::json::parse(read_file(adaptive));
  BOOST_TEST(a["table"] == "ARKODE_TRBDF2_3_3_2");
  BOOST_TEST(a["verdict"] == "pass");
  const Result at_step = energy_audit(
      "run crane --method arkode-dirk --table ARKODE_TRBDF2_3_3_2 --step 2e-3 --json " + fixed.string());
  BOOST_TEST_REQUIRE(at_step.status == 0, at_step.err);
  const auto f = nlohmann::json::parse(read_file(fixed));
  BOOST_TEST(f["steps"].get<long>() == 2500);
  BOOST_TEST(f["table"] == "ARKODE_TRBDF2_3_3_2");
  BOOST_TEST(f["verdict"] == "pass");
  // An explicit table is none of the DIRK's; the message names the DIRK's.
  expect_usage_error("run crane --method arkode-dirk --table ARKODE_DORMAND_PRINCE_7_4_5",
                     "unknown DIRK table");
  expect_usage_error("run crane --method arkode-dirk --table ARKODE_DORMAND_PRINCE_7_4_5",
                     "ARKODE_TRBDF2_3_3_2");
}

BOOST_AUTO_TEST_CASE(the_arkode_options_are_usage_errors_where_they_do_not_apply) {
  expect_usage_error("run crane --method arkode-erk --table ARKODE_NO_SUCH", "ARKODE_DORMAND_PRINCE_7_4_5");
  expect_usage_error("run crane --method arkode-erk --table ARKODE_NO_SUCH", "ARKODE_NO_SUCH");
  expect_usage_error("run crane --method rk4 --table ARKODE_DORMAND_PRINCE_7_4_5",
                     "--table: applies to arkode-erk, arkode-dirk");
  expect_usage_error("run crane --method arkode-erk --step 1e-3 --rtol 1e-6", "--rtol");
  expect_usage_error("run crane --method arkode-erk --z-as quadrature", "no quadratures");
  // Knoth-Wolke has no embedded method: adaptive steps are refused, a fixed step runs.
  expect_usage_error("run crane --method arkode-erk --table ARKODE_KNOTH_WOLKE_3_3", "fixed step");
  BOOST_TEST(energy_audit("run crane --method arkode-erk --table ARKODE_KNOTH_WOLKE_3_3 --step 5e-3").status == 0);
#ifdef ENERGY_AUDIT_SUNDIALS_BELOW_7
  expect_usage_error("run pendulum --method arkode-sprk", "SPRKStep");
  expect_usage_error("run pendulum --method arkode-sprk", "7.0");
#endif
  // Relaxation is ARKODE's: another method is told where it applies, whatever the SUNDIALS.
  expect_usage_error("run crane --method rk4 --relax", "--relax: applies to arkode-erk and arkode-dirk only, not to rk4");
#ifdef ENERGY_AUDIT_SUNDIALS_BELOW_6_6
  // Relaxation needs ARKODE's of 6.6: refused, naming it and the SUNDIALS found.
  expect_usage_error("run crane --method arkode-erk --relax", "--relax: relaxation needs SUNDIALS 6.6");
  expect_usage_error("run crane --method arkode-dirk --relax", "6.6");
#else
  // A table with a negative weight b_i: refused, naming the weight and the tables relaxation takes.
  expect_usage_error("run crane --method arkode-dirk --relax --table ARKODE_ESDIRK436L2SA_6_3_4",
                     "--relax: --table ARKODE_ESDIRK436L2SA_6_3_4 has a negative weight b_5 = -0.108255");
  expect_usage_error("run crane --method arkode-dirk --relax --table ARKODE_ESDIRK436L2SA_6_3_4",
                     "ARKODE_TRBDF2_3_3_2");
  expect_usage_error("run crane --method arkode-erk --relax --table ARKODE_DORMAND_PRINCE_7_4_5",
                     "has a negative weight b_5 = -0.322376");
  expect_usage_error("run mechanism --method arkode-erk --relax", "scleronomic");
  expect_usage_error("run crane-dae --form maggi --method arkode-erk --relax", "scleronomic");
#endif
}

#ifndef ENERGY_AUDIT_SUNDIALS_BELOW_6_6
// arkode-dirk relaxed: without --table its relaxation default (of order 2: every DIRK table of
// order 3 or more has a negative weight), named in the summary and the JSON; C of the damped crane
// kept at round-off, the relaxation counters in the JSON.
BOOST_AUTO_TEST_CASE(arkode_dirk_relaxes_with_its_relaxation_default_table) {
  const fs::path record = scratch_dir() / "dirk-relaxed.json";
  const Result relaxed = energy_audit("run crane --method arkode-dirk --relax --json " + record.string());
  BOOST_TEST_REQUIRE(relaxed.status == 0, relaxed.err);
  BOOST_TEST(relaxed.out.find("table      ARKODE_BILLINGTON_3_3_2\n") != std::string::npos, relaxed.out);
  const auto r = nlohmann::json::parse(read_file(record));
  BOOST_TEST(r["table"] == "ARKODE_BILLINGTON_3_3_2");
  BOOST_TEST(r["verdict"] == "pass");
  BOOST_TEST(r["delta_C"].get<double>() < 1e-11);  // round-off, summed over the steps
  BOOST_TEST(r["sundials"]["relaxation"]["energy_evals"].get<long>() > 0);
}
#endif

#ifndef ENERGY_AUDIT_SUNDIALS_BELOW_7
// arkode-sprk (SUNDIALS 7) on the separable driven pendulum: its default method named in the
// summary and the JSON, the steps of its fixed step, the wrong twin failed by δ_C and the equation
// check; refused, naming why, for a model that is not separable, with --relax and with a method
// SPRKStep does not have; compare leaves it out of its default methods.
BOOST_AUTO_TEST_CASE(arkode_sprk_runs_the_separable_pendulum_and_refuses_the_rest) {
  const fs::path record = scratch_dir() / "sprk.json", wrong_record = scratch_dir() / "sprk-wrong.json";
  const Result sprk = energy_audit("run pendulum --method arkode-sprk --step 0.01 --json " + record.string());
  BOOST_TEST_REQUIRE(sprk.status == 0, sprk.err);
  BOOST_TEST(sprk.out.find("table      ARKODE_SPRK_MCLACHLAN_4_4\n") != std::string::npos, sprk.out);
  const auto r = nlohmann::json::parse(read_file(record));
  BOOST_TEST(r["steps"].get<long>() == 1000);
  BOOST_TEST(r["verdict"] == "pass");
  BOOST_TEST(r["delta_C"].get<double>() < 1e-8);
  const Result wrong = energy_audit("run pendulum-wrong --method arkode-sprk --step 0.01 --json " + wrong_record.string());
  BOOST_TEST_REQUIRE(wrong.status == 0, wrong.err);
  const auto w = nlohmann::json::parse(read_file(wrong_record));
  BOOST_TEST(w["verdict"] == "fail");
  BOOST_TEST(w["delta_C"].get<double>() > 1e-2);
  expect_usage_error("run crane --method arkode-sprk --step 0.01", "not declared separable");
  expect_usage_error("run crane-dae --method arkode-sprk", "needs a separable model");
  expect_usage_error("run pendulum --method arkode-sprk --relax", "arkode-erk and arkode-dirk only");
  expect_usage_error("run pendulum --method arkode-sprk --table ARKODE_DORMAND_PRINCE_7_4_5",
                     "ARKODE_SPRK_MCLACHLAN_4_4");
  const Result compare = energy_audit("compare pendulum --steps 0.02");
  BOOST_TEST_REQUIRE(compare.status == 0, compare.err);
  BOOST_TEST(compare.out.find("arkode-sprk") == std::string::npos, compare.out);
  const Result chosen = energy_audit("compare pendulum --methods rk4,arkode-sprk --steps 0.02");
  BOOST_TEST_REQUIRE(chosen.status == 0, chosen.err);
  BOOST_TEST(chosen.out.find("arkode-sprk") != std::string::npos, chosen.out);
}
#endif

BOOST_AUTO_TEST_CASE(compare_advise_and_diagnose_take_the_arkode_methods) {
  const Result compare = energy_audit("compare crane --methods rk4,arkode-erk,arkode-dirk --steps 2e-3 --rtols 1e-6,1e-8");
  BOOST_TEST_REQUIRE(compare.status == 0, compare.err);
  BOOST_TEST(compare.out.find("arkode-erk") != std::string::npos, compare.out);
  BOOST_TEST(compare.out.find("arkode-dirk") != std::string::npos, compare.out);
  const fs::path advice = scratch_dir() / "arkode-advice.json";
  const Result advise = energy_audit("advise crane --target 1e-6 --methods arkode-erk --json " + advice.string());
  BOOST_TEST_REQUIRE(advise.status == 0, advise.err);
  const auto answer = nlohmann::json::parse(read_file(advice))["methods"][0]["answer"];
  BOOST_TEST_REQUIRE(!answer.is_null());
  BOOST_TEST(answer["delta_C"].get<double>() <= 1e-6);
  const Result diagnose = energy_audit("diagnose crane --method arkode-erk --rtol 1e-5 --levels 3");
  BOOST_TEST(diagnose.status == 0, diagnose.err);
  BOOST_TEST(diagnose.out.find("arkode-erk") != std::string::npos, diagnose.out);
}

#endif

BOOST_AUTO_TEST_CASE(every_run_says_which_equations_it_integrated) {
  // crane-wrong in Hamilton's form passes: its equations come from T, V and f, and its flipped
  // hand-derived accelerations are not run. The summary and the record say so.
  const std::filesystem::path json = scratch_dir() / "crane_wrong_hamilton.json";
  const Result hamilton = energy_audit("run crane-wrong --form hamilton --json " + json.string());
  BOOST_TEST(hamilton.status == 0, hamilton.err);
  BOOST_TEST(hamilton.out.find("form       hamilton: Hamilton's equations derived from T, V and f; the model's "
                               "hand-derived accelerations are not run in this form\n") != std::string::npos,
             hamilton.out);
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  BOOST_TEST(record["integrated_equations"].get<std::string>().find("not run in this form") != std::string::npos);
  const Result lagrange = energy_audit("run crane-wrong");
  BOOST_TEST(lagrange.out.find("form       lagrange: the model's hand-derived accelerations\n") != std::string::npos,
             lagrange.out);
  const Result derived = energy_audit("run crane-derived");
  BOOST_TEST(derived.out.find("form       lagrange: Lagrange's equations derived from T, V and f\n") != std::string::npos,
             derived.out);
  // The studies' tables say it in their header.
  const Result compare = energy_audit("compare crane-wrong --form hamilton --methods rk4 --steps 0.01");
  BOOST_TEST(compare.out.find("model crane-wrong (form hamilton: Hamilton's equations derived from T, V and f; the "
                              "model's hand-derived accelerations are not run in this form)") != std::string::npos,
             compare.out);
}

BOOST_AUTO_TEST_CASE(a_share_of_a_z_that_is_zero_or_round_off_is_not_printed) {
  // With the damper's coefficient 0 the damper does no work and Z stays 0: no share of it.
  const Result undamped = energy_audit("run crane --set k=0");
  BOOST_TEST(undamped.status == 0, undamped.err);
  BOOST_TEST(undamped.out.find("work       W_damper = +0 J\n") != std::string::npos, undamped.out);
  BOOST_TEST(undamped.out.find("share of Z") == std::string::npos, undamped.out);
  // A damper of 1e-20 N s/m: Z = -1.6e-18 J, round-off beside an energy of hundreds of joules.
  const Result negligible = energy_audit("run crane --set k=1e-20");
  BOOST_TEST(negligible.out.find("work       W_damper = -1.") != std::string::npos, negligible.out);
  BOOST_TEST(negligible.out.find("share of Z") == std::string::npos, negligible.out);
  const Result damped = energy_audit("run crane");
  BOOST_TEST(damped.out.find("work       W_damper = -372.315 J (share of Z +100.0 %)\n") != std::string::npos,
             damped.out);
}

BOOST_AUTO_TEST_SUITE_END()
