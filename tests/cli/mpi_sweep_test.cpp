// energy-audit's sweeps across MPI ranks (run_pool.hpp): started by mpiexec with 2 ranks,
// compare, sweep, stability and advise give the table, CSV and JSON of a serial run, run by run,
// and say that 2 ranks ran them; the commands that run in one process refuse the ranks with a
// usage error.
#include <filesystem>
#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "compare_csv.hpp"
#include "shell_command.hpp"

namespace fs = std::filesystem;

namespace {

/// energy-audit on 2 ranks. As root OpenMPI must be told that it may run, and on a machine of
/// fewer cores that it may start 2 ranks anyway.
Result on_two_ranks(const std::string& arguments) {
  return run_shell_command(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 " +
      std::string(MPIEXEC) + " -n 2 " + ENERGY_AUDIT_CLI + " " + arguments);
}

/// One command run in one process on one thread, and on 2 ranks, each writing its own files.
struct TwoRuns {
  std::string name;  ///< of the files: NAME1 (serial) and NAME2 (ranks) in the scratch directory
  Result serial, ranks;

  fs::path stem(int run) const { return scratch_dir() / (name + std::to_string(run)); }
  /// The files each wrote where the command said OUT + `extension` (".csv").
  std::string serial_file(const std::string& extension) const { return read_file(stem(1).string() + extension); }
  std::string ranks_file(const std::string& extension) const { return read_file(stem(2).string() + extension); }
};

/// Runs `command` both ways, OUT in it standing for each run's own file stem; both must finish.
TwoRuns run_serially_and_on_two_ranks(const std::string& command, const std::string& name) {
  TwoRuns runs;
  runs.name = name;
  const auto with_stem = [&](int run) {
    const std::string stem = runs.stem(run).string();
    std::string text = command;
    for (std::size_t at = text.find("OUT"); at != std::string::npos; at = text.find("OUT", at + stem.size())) {
      text.replace(at, 3, stem);
    }
    return text;
  };
  runs.serial = run_shell_command(std::string(ENERGY_AUDIT_CLI) + " " + with_stem(1) + " --threads 1");
  runs.ranks = on_two_ranks(with_stem(2));
  BOOST_TEST(runs.serial.status == 0, runs.serial.err);
  BOOST_TEST(runs.ranks.status == 0, runs.ranks.err);
  return runs;
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
  const TwoRuns runs = run_serially_and_on_two_ranks(
      "sweep crane --set m1=8,10 --init phi=-0.5,-0.1 --methods rk4,euler,cvode-bdf --steps 1e-3,4e-3 "
      "--rtols 1e-6,1e-8 --csv OUT.csv --json OUT.json",
      "sweep");
  BOOST_TEST(runs.ranks.out.find("24 runs on 2 ranks") != std::string::npos, runs.ranks.out);
  BOOST_TEST(runs.serial.out.find("24 runs on 1 thread") != std::string::npos, runs.serial.out);
  // Printed once, by rank 0.
  BOOST_TEST(runs.ranks.out.find("sweep of crane") == runs.ranks.out.rfind("sweep of crane"), runs.ranks.out);
  BOOST_TEST(runs.serial_file(".csv") == runs.ranks_file(".csv"));
  const nlohmann::json serial_record = nlohmann::json::parse(runs.serial_file(".json")),
                       ranks_record = nlohmann::json::parse(runs.ranks_file(".json"));
  BOOST_TEST(ranks_record["ranks"] == 2);
  BOOST_TEST(ranks_record["threads"] == 1);
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(a_stability_map_with_its_searches_on_two_ranks_equals_the_serial_one) {
  const TwoRuns runs = run_serially_and_on_two_ranks(
      "stability ellipse --methods euler,rk2 --steps 0.01 --k -300:25:3 --t-end 2 --json OUT.json", "map");
  BOOST_TEST(runs.ranks.out.find("on 2 ranks") != std::string::npos, runs.ranks.out);
  const nlohmann::json serial_record = nlohmann::json::parse(runs.serial_file(".json")),
                       ranks_record = nlohmann::json::parse(runs.ranks_file(".json"));
  BOOST_TEST(ranks_record["ranks"] == 2);
  BOOST_TEST(!serial_record["summaries"].empty());
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(advice_on_two_ranks_equals_the_serial_advice) {
  const TwoRuns runs = run_serially_and_on_two_ranks(
      "advise crane --target 1e-5 --methods rk2,rk4,cvode-adams --json OUT.json", "advice");
  BOOST_TEST(runs.ranks.out.find("the searches ran on 2 ranks") != std::string::npos, runs.ranks.out);
  const nlohmann::json serial_record = nlohmann::json::parse(runs.serial_file(".json")),
                       ranks_record = nlohmann::json::parse(runs.ranks_file(".json"));
  BOOST_TEST(serial_record["recommended"].is_string());
  BOOST_TEST(without_timing(serial_record) == without_timing(ranks_record));
}

BOOST_AUTO_TEST_CASE(a_compare_on_two_ranks_equals_the_serial_one) {
  const TwoRuns runs = run_serially_and_on_two_ranks(
      "compare crane --methods euler,rk4,verlet,cvode-adams --steps 1e-2,2e-3 --rtols 1e-6,1e-8 --csv OUT.csv",
      "compare");
  BOOST_TEST(runs.ranks.out.find("the runs ran on 2 ranks") != std::string::npos, runs.ranks.out);
  const std::string rows = compare_csv_without_wall_times(runs.serial_file(".csv"));
  BOOST_TEST(rows.find("delta_C,equation_residual,verdict,steps,rhs_evals,observed_order\n") != std::string::npos, rows);
  BOOST_TEST(rows.find("rk4,0.002,,") != std::string::npos, rows);  // a row, not only the header
  BOOST_TEST(rows == compare_csv_without_wall_times(runs.ranks_file(".csv")));
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

BOOST_AUTO_TEST_CASE(on_two_ranks_rank_0_alone_shows_the_progress_with_every_ranks_runs) {
  const Result sweep = on_two_ranks("sweep crane --set m1=8,10 --methods rk4,euler --steps 1e-3,4e-3 --progress");
  BOOST_TEST_REQUIRE(sweep.status == 0, sweep.err);
  BOOST_TEST(sweep.err.find("sweep of crane: 8/8 runs, ") != std::string::npos, sweep.err);
  BOOST_TEST(sweep.err.find("sweep of crane: 0/8") == sweep.err.rfind("sweep of crane: 0/8"), sweep.err);  // one line
  // The probes of the search another rank made are counted once gathered: as many as the JSON lists.
  const fs::path json = scratch_dir() / "advice_progress.json";
  const Result advice = on_two_ranks("advise crane --target 1e-5 --methods rk4,cvode-adams --progress --json " +
                                     json.string());
  BOOST_TEST_REQUIRE(advice.status == 0, advice.err);
  const nlohmann::json record = nlohmann::json::parse(read_file(json));
  const std::size_t rk4 = record["methods"][0]["probes"].size(), adams = record["methods"][1]["probes"].size();
  const std::string final_count = "advise crane: 2/2 methods done, " + std::to_string(rk4 + adams) + " probes (rk4 " +
                                  std::to_string(rk4) + ", cvode-adams " + std::to_string(adams) + "), ";
  BOOST_TEST(advice.err.find(final_count) != std::string::npos, advice.err << "\nexpected: " << final_count);
}
