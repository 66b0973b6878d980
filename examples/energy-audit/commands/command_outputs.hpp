#pragma once
/// \file
/// The files a command writes, through one lifecycle: named by their options when the arguments
/// are parsed; checked with the other usage checks, before anything is created; opened under
/// temporary names once every argument is checked, when the files an earlier invocation left
/// under their names are removed; each written and committed after the run; and, after a
/// run-time failure, removed by name (remove_previous_outputs).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "output_file.hpp"

namespace energy_audit::cli {

/// Removes the regular file an earlier invocation left at `path`, when this one's run starts and
/// after a run-time failure, so that no earlier result stands under a name it was asked to write:
/// while the run goes (or after a crash) only its temporary file exists.
/// A usage error, found before any run, leaves every file as it was. A name that stands for a
/// descriptor ("-") is no file.
void remove_previous_output(const std::string& path) noexcept;

/// The file names given to the output options of the command parsed (reproduce's --plots is a
/// directory, whose figures it names itself).
std::vector<std::string> requested_outputs(const CLI::App& app);

/// After a run-time failure: the earlier files under the names this invocation was asked to write.
void remove_previous_outputs(const CLI::App& app) noexcept;

/// How an output is produced.
enum class OutputKind {
  Text,    ///< written by the command through its OutputFile
  Plot,    ///< drawn by gnuplot into its OutputFile: gnuplot must be installed
  Figure,  ///< drawn by gnuplot under its name by the study itself: checked and cleared, not opened here
};

/// The outputs of one command, in the order they were added: that of the checks and messages.
class CommandOutputs {
 public:
  /// The output of `option`, when `given`, at `path`.
  void add(std::string option, bool given, const std::string& path, OutputKind kind = OutputKind::Text);

  /// The usage checks (check_output_path and, for a figure, figure_format on each, then
  /// check_distinct_outputs over all, then require_gnuplot once per option that plots); creates
  /// nothing.
  void check() const;

  /// Installs the interruption handlers (interruption.hpp), then creates the temporary files and
  /// removes the earlier ones under the outputs' names; an invocation that does not `write` (a
  /// rank other than 0) creates and removes nothing.
  void open(bool write = true);

  /// The open file of `option`; nullptr when the option was not given or nothing is written here.
  OutputFile* file(std::string_view option);

  /// When the file of `option` is open: writes it with `write` and commits it.
  void commit(std::string_view option, const std::function<void(OutputFile&)>& write = {});

  /// The names of the files committed so far, quoted and comma-separated ("'a.csv', 'b.json'").
  std::string committed_text() const;

 private:
  struct Output {
    std::string option, path;  ///< path: empty when the option was not given
    OutputKind kind;
    bool given;
    std::optional<OutputFile> file;
    bool committed = false;
  };
  Output* find(std::string_view option);

  std::vector<Output> outputs_;
};

}  // namespace energy_audit::cli
