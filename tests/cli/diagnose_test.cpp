// energy-audit diagnose: the ladder of steps tells a step error (the crane with a coarse rk4
// step: δ_C falls at order 4), a model error (crane-wrong and mechanism-wrong, one sign flipped:
// δ_C stays at its plateau) and round-off (rk4 on the crane down to h ≈ 1e-6: δ_C falls to a
// floor near 1e-13 and rises below it) apart.
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(diagnose)

BOOST_AUTO_TEST_CASE(a_coarse_rk4_step_on_the_crane_is_a_step_error_of_order_4) {
  const fs::path json = scratch_dir() / "diagnosis_step.json";
  const Result r = energy_audit("diagnose crane --step 0.02 --levels 5 --threads 2 --json " + json.string());
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("diagnosis  step error: delta_C falls at order 3.9 (expected 4); h = ") != std::string::npos,
             r.out);
  const nlohmann::json d = nlohmann::json::parse(read_file(json));
  BOOST_TEST(d["kind"] == "step error");
  BOOST_TEST(d["levels"].size() == 5u);
  BOOST_TEST(d["order"].get<double>() > 3.5);
  BOOST_TEST(d["order"].get<double>() < 4.5);
  // The advisor's step meets the threshold, verified by a run of its own.
  BOOST_TEST_REQUIRE(!d["advised"].is_null());
  BOOST_TEST(d["advised"]["meets"].get<bool>());
  BOOST_TEST(d["advised"]["delta_C"].get<double>() <= 1e-3);
  BOOST_TEST(d["advised"]["resolution"].get<double>() > 0.02);  // δ_C = 7e-5 at 0.02: a coarser step does
}

BOOST_AUTO_TEST_CASE(a_flipped_sign_is_a_model_error_whatever_the_step) {
  for (const std::string model : {"crane-wrong", "mechanism-wrong"}) {
    BOOST_TEST_CONTEXT(model) {
      const fs::path json = scratch_dir() / ("diagnosis_" + model + ".json");
      const Result r = energy_audit("diagnose " + model + " --threads 2 --json " + json.string());
      BOOST_TEST(r.status == 0, r.err);
      BOOST_TEST(r.out.find("diagnosis  model error: delta_C stays at 0.039 while the step shrinks 16-fold: the "
                            "equations of motion do work that T, V and the forces do not account for") !=
                     std::string::npos,
                 r.out);
      const nlohmann::json d = nlohmann::json::parse(read_file(json));
      BOOST_TEST(d["kind"] == "model error");
      BOOST_TEST(d["plateau"].get<double>() > 1e-3);
      BOOST_TEST(d["advised"].is_null());
    }
  }
  // run knows it already from the equation check: its verdict line says so.
  const Result run = energy_audit("run crane-wrong");
  BOOST_TEST(run.status == 0, run.err);
  BOOST_TEST(run.out.find("verdict    fail (delta_C threshold 0.001; equations' residual above its threshold: model "
                          "error)\n") != std::string::npos,
             run.out);
  const Result right = energy_audit("run crane --step 0.05");  // fails by its step: no such claim
  BOOST_TEST(right.out.find("verdict    fail (delta_C threshold 0.001)\n") != std::string::npos, right.out);
  // The adaptive methods' tolerance ladder sees the same plateau.
  const Result bdf = energy_audit("diagnose crane-wrong --method cvode-bdf --rtol 1e-4 --levels 4 --threads 2");
  BOOST_TEST(bdf.status == 0, bdf.err);
  BOOST_TEST(bdf.out.find("model error: delta_C stays at 0.039 while the rtol shrinks 1000-fold") != std::string::npos,
             bdf.out);
}

BOOST_AUTO_TEST_CASE(rk4_at_steps_down_to_1e_6_meets_round_off) {
  const fs::path json = scratch_dir() / "diagnosis_round_off.json";
  const Result r = energy_audit("diagnose crane --step 2.5e-4 --levels 9 --threads 2 --json " + json.string());
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("diagnosis  round-off: delta_C falls to a floor of ") != std::string::npos, r.out);
  const nlohmann::json d = nlohmann::json::parse(read_file(json));
  BOOST_TEST(d["kind"] == "round-off");
  BOOST_TEST(d["floor"].get<double>() < 1e-12);
  BOOST_TEST(d["floor_at"].get<double>() > d["levels"].back()["resolution"].get<double>());
  BOOST_TEST(d["levels"].back()["delta_C"].get<double>() > 2 * d["floor"].get<double>());
}

BOOST_AUTO_TEST_CASE(bad_input_is_a_one_line_usage_error) {
  const Result few = energy_audit("diagnose crane --levels 2");
  BOOST_TEST(few.status == 2);
  BOOST_TEST(few.err.find("--levels") != std::string::npos, few.err);
  const Result kinematic = energy_audit("diagnose ellipse");
  BOOST_TEST(kinematic.status == 2);
  BOOST_TEST(kinematic.err == "energy-audit: error: MODEL: ellipse is a kinematic model, judged by its verdict rather "
                              "than delta_C: use stability\n");
  const Result step = energy_audit("diagnose crane --method cvode-bdf --step 0.01");
  BOOST_TEST(step.status == 2, step.err);
}

BOOST_AUTO_TEST_SUITE_END()
