// energy-audit compare: the table of methods and steps with observed orders, CSV and plots,
// on threads as serially.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "cli_test_support.hpp"
#include "compare_csv.hpp"
#include "registry_lists.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(missing_gnuplot_is_a_one_line_error_before_any_run) {
  const fs::path png = scratch_dir() / "no-gnuplot.png";
  BOOST_TEST(energy_audit("compare crane --methods rk4 --steps 1e-2 --plot " + png.string()).status == 0);
  const std::string no_path = "PATH=/nonexistent " + std::string(ENERGY_AUDIT_CLI) +
                              " compare crane --methods rk4 --steps 1e-2 --plot " + png.string() + " >" +
                              (scratch_dir() / "stdout.txt").string() + " 2>" + (scratch_dir() / "stderr.txt").string();
  const int raw = std::system(no_path.c_str());
  BOOST_TEST_REQUIRE(WIFEXITED(raw));
  BOOST_TEST(WEXITSTATUS(raw) == 1);
  const std::string err = read_file(scratch_dir() / "stderr.txt");
  BOOST_TEST(line_count(err) == 1u, err);
  BOOST_TEST(err.find("gnuplot") != std::string::npos, err);
  BOOST_TEST(read_file(scratch_dir() / "stdout.txt").empty());  // no table: no run was made
  BOOST_TEST(!fs::exists(png));  // nor is an earlier plot left under the name
}

BOOST_AUTO_TEST_CASE(compare_tables_every_method_and_step_with_observed_order) {
  const fs::path csv = scratch_dir() / "compare.csv";
  const Result r = energy_audit("compare crane --methods euler,euler-cromer,rk2,rk3,rk4,rkg --steps 1e-2,5e-3,1e-3 "
                                "--csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0);
  const auto rows = lines_of(read_file(csv));
  BOOST_TEST_REQUIRE(rows.size() == 1u + 18u);
  BOOST_TEST(rows[0] == "method,step,rtol,delta_C,equation_residual,verdict,steps,rhs_evals,wall_seconds,observed_order");
  // rk4 at 5e-3 -> 1e-3: its observed order of delta_C is close to 4.
  for (const std::string& row : rows) {
    if (row.rfind("rk4,0.001,", 0) == 0) {
      const double order = std::stod(row.substr(row.rfind(',') + 1));
      BOOST_TEST(order == 4.0, boost::test_tools::tolerance(0.15));
    }
  }
  BOOST_TEST(energy_audit("compare crane-wrong --methods rk4 --steps 1e-3 --fail-on-verdict").status == 3);
}

// Without --methods, compare runs the whole fixed-step list (the names `list` shows as fixed-step
// methods, verlet included) and no adaptive method.
BOOST_AUTO_TEST_CASE(compare_defaults_to_every_fixed_step_method) {
  const fs::path csv = scratch_dir() / "compare_default.csv";
  BOOST_TEST_REQUIRE(energy_audit("compare crane --steps 1e-2 --csv " + csv.string()).status == 0);
  std::vector<std::string> methods;
  for (const std::string& row : lines_of(read_file(csv))) methods.push_back(row.substr(0, row.find(',')));
  std::vector<std::string> expected{"method"};
  for (const std::string& name : registry_fixed_step_method_names()) expected.push_back(name);
  BOOST_TEST(methods == expected, boost::test_tools::per_element());
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
  BOOST_TEST(rows[3].rfind("cvode-bdf,,1e-04,", 0) == 0u, rows[3]);
  for (const fs::path& png : {plot, plot_c}) {
    const std::string bytes = read_file(png);
    BOOST_TEST_REQUIRE(bytes.size() > 1000u, png);
    BOOST_TEST(bytes.substr(1, 3) == "PNG", png);
  }
}

BOOST_AUTO_TEST_CASE(compare_says_where_a_run_diverged) {
  const Result r = energy_audit("compare crane --methods euler,rk4 --steps 1e-2 --set s=1e12");
  BOOST_TEST_REQUIRE(r.status == 0);  // a compare finishes; its rows carry the verdicts
  BOOST_TEST(r.out.find("euler step 0.01: diverged at t = ") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_compare_on_threads_equals_the_serial_one) {
  const fs::path one = scratch_dir() / "compare_t1.csv", three = scratch_dir() / "compare_t3.csv";
  const std::string compare = "compare crane --methods euler,rk4,verlet,cvode-bdf --steps 1e-2,2e-3 --rtols 1e-6,1e-8 ";
  const Result serial = energy_audit(compare + "--csv " + one.string());
  const Result threaded = energy_audit(compare + "--threads 3 --csv " + three.string());
  BOOST_TEST(serial.status == 0, serial.err);
  BOOST_TEST(threaded.status == 0, threaded.err);
  BOOST_TEST(serial.out.find("the runs ran on") == std::string::npos, serial.out);  // one at a time by default
  BOOST_TEST(threaded.out.find("the runs ran on 3 threads") != std::string::npos, threaded.out);
  const std::string rows = compare_csv_without_wall_times(read_file(one));
  BOOST_TEST(line_count(rows) == 9u);
  BOOST_TEST(rows.find("verlet,0.002,,") != std::string::npos, rows);
  BOOST_TEST(rows == compare_csv_without_wall_times(read_file(three)));
  expect_usage_error("compare crane --threads 0", "--threads");
}

// crane-wrong's δ_C is its model error, the same at every step: the observed orders round to 0,
// which the table prints as 0.00, never -0.00, and the CSV never as -0.
BOOST_AUTO_TEST_CASE(orders_that_round_to_zero_print_without_a_sign) {
  const fs::path csv = scratch_dir() / "plateau.csv";
  const Result r = energy_audit("compare crane-wrong --methods rk4,rkg --steps 1e-3,5e-4,2.5e-4 --csv " + csv.string());
  BOOST_TEST_REQUIRE(r.status == 0, r.err);
  BOOST_TEST(r.out.find("0.00") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("-0.00") == std::string::npos, r.out);
  for (const std::string& row : lines_of(read_file(csv))) BOOST_TEST(row.substr(row.rfind(',') + 1) != "-0", row);
}

BOOST_AUTO_TEST_SUITE_END()
