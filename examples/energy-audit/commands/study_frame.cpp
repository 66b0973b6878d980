#include "study_frame.hpp"

#include <algorithm>
#include <iostream>
#include <thread>

#include "interruption.hpp"

namespace energy_audit::cli {

namespace {

/// Where a study's runs go: the MPI ranks when mpirun started more than one, else `threads`
/// threads of this process (--threads, which the ranks refuse); they are counted on `progress`.
RunPool run_pool(const MpiSession& session, unsigned threads, const CLI::Option* threads_option,
                 ProgressLine& progress) {
  if (session.size() > 1) {
    refuse_if_given(threads_option, "the runs go to the " + std::to_string(session.size()) +
                                        " MPI ranks, one run per rank at a time; start it without mpirun for threads");
  }
  return session.run_pool(static_cast<int>(threads), &progress);
}

}  // namespace

unsigned machine_cores() { return std::max(1u, std::thread::hardware_concurrency()); }

void StudyOptions::add_to(CLI::App& command, const std::string& threads_help) {
  threads_option = command.add_option("--threads", threads, threads_help)->check(CLI::Range(1u, 1024u))->capture_default_str();
  progress.add_to(command);
}

StudyFrame::StudyFrame(const StudyOptions& options, const MpiSession& session)
    : progress_line_(options.progress.shown(session)),
      pool_(run_pool(session, options.threads, options.threads_option, progress_line_)) {}

const StopRequest* StudyFrame::start(CommandOutputs& outputs) {
  outputs.check();
  outputs.open(pool_.leads());
  install_interruption_handlers();
  return &interruption_request();
}

void StudyFrame::finish(const std::function<void(std::ostream&)>& print, const std::function<void()>& commit) {
  progress_line_.finish();
  print(std::cout);
  std::cout.flush();
  commit();
}

}  // namespace energy_audit::cli
