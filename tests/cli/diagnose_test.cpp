// energy-audit diagnose: the ladder of steps tells a step error (the crane with a coarse rk4
// step: δ_C falls at order 4), a model error (crane-wrong and mechanism-wrong, one sign flipped:
// δ_C stays at its plateau; the failing equation named), round-off (rk4 on the crane down to
// h ≈ 1e-6: δ_C falls to a floor near 1e-13 and rises below it) and a ladder within its
// threshold apart; the step it advises is the one it ran, and a separate `run` at it passes.
#include <cstdlib>
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
  BOOST_TEST(r.out.find("diagnosis  within threshold: the coarsest step already meets the threshold 0.001; delta_C "
                        "falls at order 3.9 (expected 4); h = ") != std::string::npos,
             r.out);
  const nlohmann::json d = nlohmann::json::parse(read_file(json));
  BOOST_TEST(d["kind"] == "within threshold");
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
      BOOST_TEST(r.out.find("diagnosis  model error: delta_C stays at 0.039 while the step shrinks 16-fold from h = "
                            "0.001, far above rounding's bound") != std::string::npos,
                 r.out);
      BOOST_TEST(r.out.find("the equations of motion do work that T, V and the forces do not account for") !=
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

/// The number after `prefix` in `text`, as strtod reads it; NaN when `prefix` is absent.
double number_after(const std::string& text, const std::string& prefix) {
  const std::size_t at = text.find(prefix);
  return at == std::string::npos ? std::nan("") : std::strtod(text.c_str() + at + prefix.size(), nullptr);
}

BOOST_AUTO_TEST_CASE(the_advised_step_is_printed_as_run_and_a_run_at_it_passes) {
  // cvode-bdf on the crane: the search's answer (rtol 0.0010693) is rounded down to two digits and
  // run; rk3: the same for a fixed step (0.0087813).
  for (const std::string method : {"cvode-bdf", "rk3"}) {
    BOOST_TEST_CONTEXT(method) {
      const fs::path json = scratch_dir() / ("diagnosis_advised_" + method + ".json");
      const Result r = energy_audit("diagnose crane --method " + method + " --threads 2 --json " + json.string());
      BOOST_TEST(r.status == 0, r.err);
      const std::string name = method == "rk3" ? "h" : "rtol";
      const double printed = number_after(r.out, "; " + name + " = ");
      const nlohmann::json d = nlohmann::json::parse(read_file(json));
      BOOST_TEST_REQUIRE(!d["advised"].is_null());
      BOOST_TEST(printed == d["advised"]["resolution"].get<double>());  // the printed value is the value run
      BOOST_TEST(d["advised"]["delta_C"].get<double>() <= 1e-3);
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", printed);
      const Result again = energy_audit("run crane --method " + method + (method == "rk3" ? " --step " : " --rtol ") +
                                        text);
      BOOST_TEST(again.status == 0, again.err);
      BOOST_TEST(number_after(again.out, "delta_C    ") <= 1e-3, again.out);
      BOOST_TEST(again.out.find("verdict    pass") != std::string::npos, again.out);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_ladder_at_round_off_says_so_and_still_advises_the_largest_step) {
  // rk4 on the crane from h = 1e-5: δ_C 6e-14 … rising, every level far under the threshold.
  const Result all = energy_audit("diagnose crane --step 1e-5 --levels 3 --threads 2");
  BOOST_TEST(all.status == 0, all.err);
  BOOST_TEST(all.out.find("diagnosis  round-off: ") != std::string::npos, all.out);
  BOOST_TEST(all.out.find("the coarsest step already meets the threshold 0.001") != std::string::npos, all.out);
  BOOST_TEST(all.out.find(" meets 0.001 (advise)") != std::string::npos, all.out);
  BOOST_TEST(all.out.find("undecided") == std::string::npos, all.out);
  // From h = 2e-5: a floor, then a rise of more than twofold.
  const Result floor = energy_audit("diagnose crane --step 2e-5 --levels 4 --threads 2");
  BOOST_TEST(floor.status == 0, floor.err);
  BOOST_TEST(floor.out.find("diagnosis  round-off: delta_C falls to a floor of ") != std::string::npos, floor.out);
}

BOOST_AUTO_TEST_CASE(a_model_error_names_its_equation_its_onset_and_what_to_do) {
  const fs::path json = scratch_dir() / "diagnosis_named.json";
  // Under a threshold of 0.1 crane-wrong's plateau, 0.039, passes; it is still no round-off.
  const Result r = energy_audit("diagnose crane-wrong --threshold 0.1 --threads 2 --json " + json.string());
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("diagnosis  model error: delta_C stays at 0.039") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("round-off") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("equations  the model's hand-derived accelerations\n") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("           equation of x1: relative residual ") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("what to do fix the equation of x1") != std::string::npos, r.out);
  const nlohmann::json d = nlohmann::json::parse(read_file(json));
  BOOST_TEST(d["kind"] == "model error");
  BOOST_TEST_REQUIRE(d["failing_equations"].size() >= 1u);
  BOOST_TEST(d["failing_equations"][0]["coordinate"] == "x1");
  BOOST_TEST(d["failing_equations"][0]["relative_residual"].get<double>() > 1e-3);
  BOOST_TEST(d["integrated_equations"] == "the model's hand-derived accelerations");
  // Under the default threshold, |C - C0| crosses it: when is said.
  const Result mechanism = energy_audit("diagnose mechanism-wrong --threads 2");
  BOOST_TEST(mechanism.out.find("           equation of gamma: relative residual ") != std::string::npos, mechanism.out);
  BOOST_TEST(mechanism.out.find("drift      |C - C0| first above the threshold at t = ") != std::string::npos,
             mechanism.out);
  // The damper its forces leave out: a ledger that names no force explains none of C - C0.
  const Result damper = energy_audit("diagnose crane-damper-missing --threads 2");
  BOOST_TEST(damper.out.find("diagnosis  model error") != std::string::npos, damper.out);
  BOOST_TEST(damper.out.find("ledger     C - C0 = -") != std::string::npos, damper.out);
  BOOST_TEST(damper.out.find("J at the finest level, explained by no named force's power") != std::string::npos,
             damper.out);
}

BOOST_AUTO_TEST_CASE(advise_tells_a_plateau_far_above_rounding_from_a_round_off_floor) {
  const fs::path json = scratch_dir() / "advice_crane_wrong.json";
  const Result r = energy_audit("advise crane-wrong --methods rk4 --json " + json.string());
  BOOST_TEST(r.out.find("below the round-off floor") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("a model error") != std::string::npos, r.out);
  const nlohmann::json a = nlohmann::json::parse(read_file(json));
  BOOST_TEST(a["methods"][0]["model_error"].get<bool>());
  BOOST_TEST(!a["methods"][0]["round_off_floor"].get<bool>());
}

BOOST_AUTO_TEST_CASE(orders_that_scatter_on_a_correct_model_ask_for_finer_steps_not_a_model_error) {
  const Result r = energy_audit("diagnose crane3d --method rkg --step 0.08 --levels 4 --threads 2");
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("model error") == std::string::npos, r.out);
  BOOST_TEST(r.out.find("not yet in the asymptotic range") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("run finer steps or more levels") != std::string::npos, r.out);
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
