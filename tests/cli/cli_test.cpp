// The energy-audit command line as a user meets it: exit statuses, one-line errors naming the
// bad argument, and the files it writes.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct Result {
  int status;
  std::string out, err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path scratch_dir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("energy_audit_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

Result energy_audit(const std::string& arguments) {
  const fs::path out = scratch_dir() / "stdout.txt", err = scratch_dir() / "stderr.txt";
  const std::string command = std::string(ENERGY_AUDIT_CLI) + " " + arguments + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  BOOST_REQUIRE(WIFEXITED(raw));
  return {WEXITSTATUS(raw), read_file(out), read_file(err)};
}

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A usage error: exit 2, one line on stderr that names the offending argument.
void expect_usage_error(const std::string& arguments, const std::string& named) {
  const Result r = energy_audit(arguments);
  BOOST_TEST(r.status == 2, arguments);
  BOOST_TEST(line_count(r.err) == 1u, arguments << " -> " << r.err);
  BOOST_TEST(r.err.find(named) != std::string::npos, arguments << " -> " << r.err);
}

}  // namespace

BOOST_AUTO_TEST_CASE(bad_input_is_a_one_line_usage_error_naming_it) {
  expect_usage_error("run no-such-model", "no-such-model");
  expect_usage_error("run crane --method rk5", "rk5");
  expect_usage_error("run crane --set mass=3", "mass");
  expect_usage_error("run crane --init theta=3", "theta");
  expect_usage_error("run crane --step 0", "--step");
  expect_usage_error("run crane --step -1e-3", "--step");
  expect_usage_error("run crane --step abc", "--step");
  expect_usage_error("run crane --step 6", "--step");            // longer than [0, 5]
  expect_usage_error("run crane --t-end 2 --step 3", "--step");  // longer than [0, 2]
  expect_usage_error("run crane --t-end 0", "--t-end");
  expect_usage_error("run crane --t-end -1", "--t-end");
  expect_usage_error("run crane --t-end inf", "--t-end");
  expect_usage_error("run crane --t-end nan", "--t-end");
  expect_usage_error("run crane --set m1", "m1");
  expect_usage_error("run crane --set =3", "=3");
  expect_usage_error("run crane --set m1=", "m1=");
  expect_usage_error("run crane --set m1=heavy", "heavy");
  expect_usage_error("run crane --init x1=1=2", "x1");
  expect_usage_error("run crane --threshold -1e-3", "--threshold");
  expect_usage_error("run crane --every 0", "--every");
  expect_usage_error("run crane --no-such-option", "--no-such-option");
  expect_usage_error("run", "MODEL");
  expect_usage_error("compare crane --methods rk4,rk5", "rk5");
  expect_usage_error("compare crane --steps 1e-2,,1e-3", "--steps");
  expect_usage_error("compare crane --steps 1e-2,-1e-3", "--step");
  expect_usage_error("compare no-such-model", "no-such-model");
  expect_usage_error("run crane --method cvode-bdf --rtol 0", "--rtol");
  expect_usage_error("run crane --method cvode-bdf --atol -1", "--atol");
  expect_usage_error("run crane --method cvode-bdf --rtol fine", "--rtol");
  expect_usage_error("run crane --method cvode-bdf --max-steps 0", "--max-steps");
  expect_usage_error("run crane --method cvode-adams --z-as memory", "--z-as");
  expect_usage_error("run crane --method cvode-adams --iteration picard", "--iteration");
  expect_usage_error("compare crane --methods cvode-bdf --rtols 1e-6,0", "--rtols");
  expect_usage_error("run crane --method idas", "idas");            // a method that cannot run the model:
  expect_usage_error("run crane --method idas", "crane");           // both are named
  expect_usage_error("run crane-dae --stabilize ggl", "rk4");       // ggl needs idas
  expect_usage_error("run crane --stabilize baumgarte", "crane");   // nothing to stabilize
  expect_usage_error("run crane-dae --stabilize projection", "--stabilize");
  expect_usage_error("run crane-dae --stabilize baumgarte --baumgarte 5", "--baumgarte");
  expect_usage_error("run crane-dae --stabilize baumgarte --baumgarte 5,-1", "--baumgarte");
  expect_usage_error("compare crane --methods rk4,idas", "idas");
  // Guards against runs that would take hours or all memory, or fail only at their end.
  expect_usage_error("run crane --step 1e-300", "--step");
  expect_usage_error("run crane --t-end 1e300", "steps");
  expect_usage_error("run crane --step 1e-7", "--every");                 // a 5.6 GB history
  expect_usage_error("run crane --method cvode-bdf --max-step 1e-300", "--max-step");
  expect_usage_error("run crane --method cvode-bdf --max-steps 9223372036854775808", "--max-steps");
  expect_usage_error("run crane --csv /nonexistent-dir/x.csv", "--csv");
  expect_usage_error("run crane --json /nonexistent-dir/x.json", "--json");
  expect_usage_error("compare crane --methods rk4 --steps 1e-2,10", "--steps");  // checked before any run
  expect_usage_error("compare crane --methods rk4 --steps 1e-2 --plot /nonexistent-dir/p.png", "--plot");
  expect_usage_error("run crane --set m1=-4.5", "m1");
  expect_usage_error("run crane --set l=0", "l = 0");
}

BOOST_AUTO_TEST_CASE(missing_gnuplot_is_a_one_line_run_time_error) {
  const fs::path png = scratch_dir() / "no-gnuplot.png";
  BOOST_TEST(energy_audit("compare crane --methods rk4 --steps 1e-2 --plot " + png.string()).status == 0);
  const std::string no_path = "PATH=/nonexistent " + std::string(ENERGY_AUDIT_CLI) +
                              " compare crane --methods rk4 --steps 1e-2 --plot " + png.string() + " >/dev/null 2>" +
                              (scratch_dir() / "stderr.txt").string();
  const int raw = std::system(no_path.c_str());
  BOOST_TEST_REQUIRE(WIFEXITED(raw));
  BOOST_TEST(WEXITSTATUS(raw) == 1);
  const std::string err = read_file(scratch_dir() / "stderr.txt");
  BOOST_TEST(line_count(err) == 1u, err);
  BOOST_TEST(err.find("gnuplot") != std::string::npos, err);
}

BOOST_AUTO_TEST_CASE(list_names_every_model_and_method) {
  const Result r = energy_audit("list");
  BOOST_TEST(r.status == 0);
  for (const char* name : {"crane ", "crane-derived", "crane-wrong", "euler ", "euler-cromer", "rk2", "rk3", "rk4", "rkg",
                           "cvode-bdf", "cvode-adams", "idas", "crane-dae"}) {
    BOOST_TEST(r.out.find(name) != std::string::npos, name);
  }
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
  BOOST_TEST(rows[0] == "t,x1,phi,x1_dot,phi_dot,T,T2,T1,T0,V,E,H,Z,C");
  BOOST_TEST(rows[1].substr(0, 6) == "0,0.5,");
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

BOOST_AUTO_TEST_CASE(no_audit_runs_without_z_and_refuses_history_files) {
  const Result r = energy_audit("run crane --no-audit");
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.out.find("unaudited") != std::string::npos);
  expect_usage_error("run crane --no-audit --csv x.csv", "--csv");
}

BOOST_AUTO_TEST_CASE(compare_tables_every_method_and_step_with_observed_order) {
  const fs::path csv = scratch_dir() / "compare.csv";
  const Result r = energy_audit("compare crane --methods euler,euler-cromer,rk2,rk3,rk4,rkg --steps 1e-2,5e-3,1e-3 "
                                "--csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  const auto rows = lines_of(read_file(csv));
  BOOST_TEST_REQUIRE(rows.size() == 1u + 18u);
  BOOST_TEST(rows[0] == "method,step,rtol,delta_C,verdict,steps,rhs_evals,wall_seconds,observed_order");
  // rk4 at 5e-3 -> 1e-3: its observed order of delta_C is close to 4.
  for (const std::string& row : rows) {
    if (row.rfind("rk4,0.001,", 0) == 0) {
      const double order = std::stod(row.substr(row.rfind(',') + 1));
      BOOST_TEST(order == 4.0, boost::test_tools::tolerance(0.15));
    }
  }
  BOOST_TEST(energy_audit("compare crane-wrong --methods rk4 --steps 1e-3 --fail-on-verdict").status == 3);
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

BOOST_AUTO_TEST_CASE(compare_mixes_fixed_and_adaptive_methods_and_draws_plots) {
  const fs::path csv = scratch_dir() / "mixed.csv", plot = scratch_dir() / "wp.png", plot_c = scratch_dir() / "c.png";
  fs::remove(plot);
  fs::remove(plot_c);
  const Result r = energy_audit("compare crane --methods rk4,cvode-bdf,cvode-adams --steps 1e-2,1e-3 --rtols "
                                "1e-4,1e-6,1e-8,1e-10 --csv " + csv.string() + " --plot " + plot.string() +
                                " --plot-c " + plot_c.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  const auto rows = lines_of(read_file(csv));
  BOOST_TEST(rows.size() == 1u + 2u + 4u + 4u);
  BOOST_TEST(rows[3].rfind("cvode-bdf,,0.0001,", 0) == 0u, rows[3]);
  for (const fs::path& png : {plot, plot_c}) {
    const std::string bytes = read_file(png);
    BOOST_TEST_REQUIRE(bytes.size() > 1000u, png);
    BOOST_TEST(bytes.substr(1, 3) == "PNG", png);
  }
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

BOOST_AUTO_TEST_CASE(compare_says_where_a_run_diverged) {
  const Result r = energy_audit("compare crane --methods euler,rk4 --steps 1e-2 --set s=1e12");
  BOOST_TEST_REQUIRE(r.status == 0);  // a compare finishes; its rows carry the verdicts
  BOOST_TEST(r.out.find("euler step 0.01: diverged at t = ") != std::string::npos, r.out);
}
