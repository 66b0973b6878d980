// energy-audit mujoco (built where MuJoCo is found): a run of an MJCF model with its ledger and
// outputs, the settings refused in one line, diagnose's ladder (step error, divergence) and
// advise's timestep. Short intervals: the whole suite runs in about a second.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

namespace {

/// A test model (tests/plugins/mujoco/models).
std::string model(const std::string& name) { return std::string(ENERGY_AUDIT_MUJOCO_MODELS) + "/" + name; }

/// The line of `text` that starts with `start`; empty when none does.
std::string line_starting(const std::string& text, const std::string& start) {
  for (const std::string& line : lines_of(text)) {
    if (line.rfind(start, 0) == 0) return line;
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mujoco)

BOOST_AUTO_TEST_CASE(a_pendulum_run_with_rk4_passes_and_prints_its_ledger) {
  const Result r = energy_audit("mujoco " + model("pendulum.xml") + " --integrator rk4 --t-end 1");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(line_starting(r.out, "integrator ") == "integrator RK4, timestep 0.001", r.out);
  BOOST_TEST(line_starting(r.out, "verdict ") == "verdict    pass", r.out);
  BOOST_TEST(!line_starting(r.out, "energy     E - E0 = ").empty(), r.out);
  BOOST_TEST(!line_starting(r.out, "work       contacts = ").empty(), r.out);
  BOOST_TEST(!line_starting(r.out, "residual   C - C0 = ").empty(), r.out);
  // MuJoCo writes no MUJOCO_LOG.TXT: its warnings are the audit's to report.
  const fs::path dir = fresh_dir("mujoco-log");
  const Process diverged = run_cli({"mujoco", model("stiff_spring.xml"), "--timestep", "0.03", "--t-end", "2"}, dir);
  BOOST_TEST(diverged.status == 1, diverged.err);
  BOOST_TEST(entries_of(dir).empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_actuator_is_named_with_the_models_actuators) {
  expect_usage_error("mujoco " + model("arm_two_link.xml") + " --ctrl elbow=1",
                     "no actuator 'elbow' (its actuators: shoulder_motor, elbow_motor)");
  expect_usage_error("mujoco " + model("pendulum.xml") + " --ctrl motor=1", "has no actuator 'motor' (it has no actuators)");
  expect_usage_error("mujoco " + model("arm_two_link.xml") + " --ctrl elbow_motor=sin:1", "--ctrl");
  expect_usage_error("mujoco " + model("arm_two_link.xml") + " --ctrl elbow_motor=1 --ctrl elbow_motor=2", "given twice");
  expect_usage_error("mujoco " + model("pendulum.xml") + " --integrator implicitfast", "--integrator: 'implicitfast'");
  expect_usage_error("mujoco diagnose " + model("pendulum.xml") + " --timestep 0", "--timestep");
  expect_usage_error("mujoco --t-end 1 diagnose " + model("pendulum.xml"), "--t-end: give it after 'diagnose'");
  expect_usage_error("mujoco advise " + model("pendulum.xml"), "--target");
}

// A model that cannot be read or is not MJCF is an input error, as audit-trajectory's FILE: exit 2,
// one line with the system's reason or MuJoCo's own message; no output file is touched.
BOOST_AUTO_TEST_CASE(a_model_that_does_not_load_is_one_line) {
  expect_usage_error("mujoco " + (scratch_dir() / "no-such-model.xml").string(), "MODEL: cannot read");
  expect_usage_error("mujoco diagnose " + scratch_dir().string(), "Is a directory");
  const fs::path dir = fresh_dir("mujoco-not-mjcf");
  std::ofstream(dir / "model.xml") << "<mujoco><worldbody><body><geom type='nothing'/></body></worldbody></mujoco>\n";
  std::ofstream(dir / "old.json") << "earlier\n";
  const Process p = run_cli({"mujoco", "model.xml", "--json", "old.json"}, dir);
  BOOST_TEST(p.status == 2, p.err);
  BOOST_TEST(line_count(p.err) == 1u, p.err);
  BOOST_TEST(p.err.find("MODEL: MuJoCo") != std::string::npos, p.err);
  BOOST_TEST(read_file(dir / "old.json") == "earlier\n");
}

BOOST_AUTO_TEST_CASE(the_contacts_work_per_pair_of_geoms) {
  const fs::path dir = fresh_dir("mujoco-pairs");
  const Process p = run_cli({"mujoco", model("bouncing_ball.xml"), "--t-end", "1", "--json", "run.json"}, dir);
  BOOST_TEST_REQUIRE(p.status == 0, p.err);
  const nlohmann::json record = nlohmann::json::parse(read_file(dir / "run.json"));
  BOOST_TEST_REQUIRE(record["contact_pairs"].size() == 1u, record.dump());
  BOOST_TEST(record["contact_pairs"][0]["name"] == "floor / ball");
  double contacts = 0;
  for (const nlohmann::json& entry : record["ledger"]) {
    if (entry["name"] == "contacts") contacts = entry["work"].get<double>();
  }
  BOOST_TEST(contacts < -1.0);
  BOOST_TEST(record["contact_pairs"][0]["work"].get<double>() == contacts);
  BOOST_TEST(line_starting(p.out, "             of which floor / ball = ") != "", p.out);
}

BOOST_AUTO_TEST_CASE(the_json_record_has_the_verdict_and_the_ledger_and_the_csv_the_history) {
  const fs::path dir = fresh_dir("mujoco-json");
  const Process p = run_cli({"mujoco", model("damped_double_pendulum.xml"), "--integrator", "RK4", "--t-end", "0.5",
                             "--json", "run.json", "--csv", "run.csv", "--every", "10"},
                            dir);
  BOOST_TEST_REQUIRE(p.status == 0, p.err);
  const nlohmann::json record = nlohmann::json::parse(read_file(dir / "run.json"));
  BOOST_TEST(record["verdict"] == "pass");
  BOOST_TEST(record["integrator"] == "RK4");
  BOOST_TEST(record["steps"] == 500);
  BOOST_TEST(record["delta_C"].get<double>() < 1e-9);
  double ledger_work = 0;
  bool damping = false;
  for (const nlohmann::json& entry : record["ledger"]) {
    ledger_work += entry["work"].get<double>();
    damping = damping || entry["name"] == "damping shoulder";
  }
  BOOST_TEST(damping, record["ledger"].dump());
  // The ledger explains the energy the dampers took: E - E0 = the works + the unexplained rest.
  BOOST_TEST(record["energy_change"].get<double>() < -0.01);
  BOOST_TEST(std::abs(record["energy_change"].get<double>() - ledger_work - record["unexplained_work"].get<double>()) < 1e-12);
  const std::vector<std::string> rows = lines_of(read_file(dir / "run.csv"));
  BOOST_TEST_REQUIRE(rows.size() == 1u + 51u);  // steps 0, 10, ..., 500
  BOOST_TEST(rows[0] == "t,E_kin,E_pot,E,Z,C");
  BOOST_TEST(rows.back().rfind("0.5", 0) == 0u, rows.back());
}

BOOST_AUTO_TEST_CASE(diagnose_finds_eulers_step_error_at_order_one) {
  const Result r = energy_audit("mujoco diagnose " + model("pendulum.xml") + " --integrator euler --timestep 0.01 --t-end 2");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(line_starting(r.out, "diagnosis ") == "diagnosis  step error", r.out);
  std::smatch order;
  const std::string finding = line_starting(r.out, "finding ");
  BOOST_TEST_REQUIRE(std::regex_search(finding, order, std::regex("at order ([0-9.]+) \\(Euler's order: 1\\)")), r.out);
  BOOST_TEST(std::abs(std::stod(order[1]) - 1.0) < 0.1, finding);
  BOOST_TEST(!line_starting(r.out, "what to do a timestep of about ").empty(), r.out);
}

BOOST_AUTO_TEST_CASE(diagnose_finds_that_rk4_diverges_on_the_stiff_spring) {
  const fs::path dir = fresh_dir("mujoco-diverged");
  const Process p = run_cli({"mujoco", "diagnose", model("stiff_spring.xml"), "--integrator", "rk4", "--timestep", "0.03",
                             "--t-end", "2", "--json", "d.json"},
                            dir);
  BOOST_TEST_REQUIRE(p.status == 0, p.err);
  BOOST_TEST(line_starting(p.out, "diagnosis ") == "diagnosis  diverged", p.out);
  BOOST_TEST(p.out.find("mjWARN_BADQACC") != std::string::npos, p.out);
  const nlohmann::json record = nlohmann::json::parse(read_file(dir / "d.json"));
  BOOST_TEST(record["diagnosis"] == "diverged");
  BOOST_TEST_REQUIRE(record["rungs"].size() == 3u);
  BOOST_TEST(record["rungs"][0]["verdict"] == "diverged");
  BOOST_TEST(record["rungs"][1]["verdict"] != "diverged");  // 0.015 is within RK4's stability
}

BOOST_AUTO_TEST_CASE(advise_names_a_timestep_at_which_the_run_passes) {
  const Result advice =
      energy_audit("mujoco advise " + model("pendulum.xml") + " --integrator rk4 --target 1e-8 --t-end 1");
  BOOST_TEST_REQUIRE(advice.status == 0, advice.err);
  const std::string line = line_starting(advice.out, "timestep   ");
  BOOST_TEST_REQUIRE(!line.empty(), advice.out);
  const std::string timestep = line.substr(11);
  BOOST_TEST(std::stod(timestep) > 0.001, advice.out);  // RK4 meets 1e-8 above the model's timestep
  const Result run = energy_audit("mujoco " + model("pendulum.xml") + " --integrator rk4 --t-end 1 --threshold 1e-8 --timestep " +
                                  timestep + " --fail-on-verdict");
  BOOST_TEST(run.status == 0, run.out << run.err);
  BOOST_TEST(line_starting(run.out, "verdict ") == "verdict    pass", run.out);
}

BOOST_AUTO_TEST_CASE(a_sinusoidal_control_passes_and_its_motor_work_is_in_the_ledger) {
  const Result r = energy_audit("mujoco " + model("arm_two_link.xml") +
                                " --integrator rk4 --t-end 1 --ctrl elbow_motor=sin:2,1");
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(line_starting(r.out, "control ") == "control    elbow_motor=sin:2,1,0,0", r.out);
  BOOST_TEST(line_starting(r.out, "verdict ") == "verdict    pass", r.out);
  const std::string work = line_starting(r.out, "work       actuator elbow_motor = +");
  BOOST_TEST_REQUIRE(!work.empty(), r.out);
  BOOST_TEST(std::stod(work.substr(work.find('+'))) > 1.0, work);  // the motor fed energy in
  BOOST_TEST(!line_starting(r.out, "work       actuator shoulder_motor = +0 J").empty(), r.out);
}

BOOST_AUTO_TEST_SUITE_END()
