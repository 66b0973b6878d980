// energy-audit's sweeps across MPI ranks (run_pool.hpp): started by mpiexec with 2 ranks,
// compare, sweep, stability and advise give the table, CSV and JSON of a serial run, run by run,
// and say that 2 ranks ran them; the commands that run in one process refuse the ranks with a
// usage error.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "compare_csv.hpp"

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
    fs::path d = fs::temp_directory_path() / ("energy_audit_mpi_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

Result run(const std::string& command_line) {
  const fs::path out = scratch_dir() / "stdout.txt", err = scratch_dir() / "stderr.txt";
  const std::string command = command_line + " >" + out.string() + " 2>" + err.string();
  const int raw = std::system(command.c_str());
  BOOST_REQUIRE(WIFEXITED(raw));
  return {WEXITSTATUS(raw), read_file(out), read_file(err)};
}

/// energy-audit in one process.
Result serial(const std::string& arguments) { return run(std::string(ENERGY_AUDIT_CLI) + " " + arguments); }

/// energy-audit on 2 ranks. As root OpenMPI must be told that it may run, and on a machine of
/// fewer cores that it may start 2 ranks anyway.
Result on_two_ranks(const std::string& arguments) {
  return run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 " +
             std::string(MPIEXEC) + " -n 2 " + ENERGY_AUDIT_CLI + " " + arguments);
}

/// The JSON record without what differs between any two runs: wall times, and who ran them.
nlohmann::json without_timing(nlohmann::json record) {
  if (record.is_object()) {
    for (const char* key : {"threads", "ranks", "wall_seconds", "wall_s"}) record.erase(key);
  }
  if (record.is_structured()) {
    for (auto& item : record) item = without_timing(item);
  }
  return record;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_sweep_on_two_ranks_equals_the_serial_one) {
  const fs::path one = scratch_dir() / "sweep1.csv", two = scratch_dir() / "sweep2.csv",
                 json1 = scratch_dir() / "sweep1.json", json2 = scratch_dir() / "sweep2.json";
  const std::string sweep = "sweep crane --set m1=8,10 --init phi=-0.5,-0.1 --methods rk4,euler,cvode-bdf "
                            "--steps 1e-3,4e-3 --rtols 1e-6,1e-8 ";
  const Result s = serial(sweep + "--threads 1 --csv " + one.string() + " --json " + json1.string());
  const Result r = on_two_ranks(sweep + "--csv " + two.string() + " --json " + json2.string());
  BOOST_TEST(s.status == 0, s.err);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("24 runs on 2 ranks") != std::string::npos, r.out);
  BOOST_TEST(s.out.find("24 runs on 1 thread") != std::string::npos, s.out);
  // Printed once, by rank 0.
  BOOST_TEST(r.out.find("sweep of crane") == r.out.rfind("sweep of crane"), r.out);
  BOOST_TEST(read_file(one) == read_file(two));
  const nlohmann::json serial_record = nlohmann::json::parse(read_file(json1)),
                       ranks_record = nlohmann::json::parse(read_file(json2));
  BOOST_TEST(ranks_record["ranks"] == 2);
  BOOST_TEST(ranks_record["threads"] == 1);
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(a_stability_map_with_its_searches_on_two_ranks_equals_the_serial_one) {
  const fs::path one = scratch_dir() / "map1.json", two = scratch_dir() / "map2.json";
  const std::string map = "stability ellipse --methods euler,rk2 --steps 0.01 --k -300:25:3 --t-end 2 ";
  const Result s = serial(map + "--threads 1 --json " + one.string());
  const Result r = on_two_ranks(map + "--json " + two.string());
  BOOST_TEST(s.status == 0, s.err);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("on 2 ranks") != std::string::npos, r.out);
  const nlohmann::json serial_record = nlohmann::json::parse(read_file(one)),
                       ranks_record = nlohmann::json::parse(read_file(two));
  BOOST_TEST(ranks_record["ranks"] == 2);
  BOOST_TEST(!serial_record["summaries"].empty());
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(advice_on_two_ranks_equals_the_serial_advice) {
  const fs::path one = scratch_dir() / "advice1.json", two = scratch_dir() / "advice2.json";
  const std::string advise = "advise crane --target 1e-5 --methods rk2,rk4,cvode-adams ";
  const Result s = serial(advise + "--threads 1 --json " + one.string());
  const Result r = on_two_ranks(advise + "--json " + two.string());
  BOOST_TEST(s.status == 0, s.err);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("the searches ran on 2 ranks") != std::string::npos, r.out);
  const nlohmann::json serial_record = nlohmann::json::parse(read_file(one)),
                       ranks_record = nlohmann::json::parse(read_file(two));
  BOOST_TEST(serial_record["recommended"].is_string());
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(a_compare_on_two_ranks_equals_the_serial_one) {
  const fs::path one = scratch_dir() / "compare1.csv", two = scratch_dir() / "compare2.csv";
  const std::string compare = "compare crane --methods euler,rk4,verlet,cvode-adams --steps 1e-2,2e-3 --rtols 1e-6,1e-8 ";
  const Result s = serial(compare + "--csv " + one.string());
  const Result r = on_two_ranks(compare + "--csv " + two.string());
  BOOST_TEST(s.status == 0, s.err);
  BOOST_TEST(r.status == 0, r.err);
  BOOST_TEST(r.out.find("the runs ran on 2 ranks") != std::string::npos, r.out);
  const std::string rows = compare_csv_without_wall_times(read_file(one));
  BOOST_TEST(rows.find("delta_C,equation_residual,verdict,steps,rhs_evals,observed_order\n") != std::string::npos, rows);
  BOOST_TEST(rows.find("rk4,0.002,,") != std::string::npos, rows);  // a row, not only the header
  BOOST_TEST(rows == compare_csv_without_wall_times(read_file(two)));
}

BOOST_AUTO_TEST_CASE(one_process_commands_and_threads_refuse_the_ranks) {
  for (const std::string& arguments : {std::string("run crane"), std::string("reproduce seed000")}) {
    const Result r = on_two_ranks(arguments);
    BOOST_TEST(r.status == 2, arguments);
    BOOST_TEST(r.err.find("without mpirun") != std::string::npos, r.err);
  }
  const Result threads = on_two_ranks("sweep crane --threads 2");
  BOOST_TEST(threads.status == 2);
  BOOST_TEST(threads.err.find("--threads") != std::string::npos, threads.err);
}
