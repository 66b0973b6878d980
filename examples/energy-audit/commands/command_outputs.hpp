#pragma once
/// \file
/// The files a command writes, from the names given to its output options to the committed files.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

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

}  // namespace energy_audit::cli
