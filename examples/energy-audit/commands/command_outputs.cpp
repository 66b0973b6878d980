#include "command_outputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <utility>

#include "interruption.hpp"
#include "plots.hpp"

namespace energy_audit::cli {

void remove_previous_output(const std::string& path) noexcept {
  struct stat status {};
  if (!path.empty() && !named_descriptor(path) && lstat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
    unlink(path.c_str());
  }
}

std::vector<std::string> requested_outputs(const CLI::App& app) {
  std::vector<std::string> paths;
  for (const CLI::App* sub : app.get_subcommands()) {  // the one parsed
    for (const char* option : {"--csv", "--json", "--plot", "--plot-c"}) {
      const CLI::Option* given = sub->get_option_no_throw(option);
      if (given == nullptr) continue;
      for (const std::string& path : given->results()) paths.push_back(path);
    }
    // A command's own command parsed (mujoco diagnose): its outputs too.
    const std::vector<std::string> nested = requested_outputs(*sub);
    paths.insert(paths.end(), nested.begin(), nested.end());
  }
  return paths;
}

void remove_previous_outputs(const CLI::App& app) noexcept {
  try {
    for (const std::string& path : requested_outputs(app)) remove_previous_output(path);
  } catch (const std::exception&) {  // out of memory for the names: nothing to remove them by
  }
}

void CommandOutputs::add(std::string option, bool given, const std::string& path, OutputKind kind) {
  outputs_.push_back({std::move(option), given ? path : std::string(), kind, given, std::nullopt});
}

void CommandOutputs::check() const {
  std::vector<std::pair<std::string, std::string>> named;
  for (const Output& output : outputs_) {
    if (output.given) check_output_path(output.option, output.path);
    if (output.given && output.kind != OutputKind::Text) figure_format(output.option, output.path);
    named.emplace_back(output.option, output.path);
  }
  check_distinct_outputs(named);
  for (auto output = outputs_.begin(); output != outputs_.end(); ++output) {
    const auto same_option = [&](const Output& o) { return o.option == output->option && o.given; };
    const bool first_of_option = std::find_if(outputs_.begin(), output, same_option) == output;
    if (output->kind != OutputKind::Text && output->given && first_of_option) require_gnuplot(output->option);
  }
}

void CommandOutputs::open(bool write) {
  // Before the first temporary exists: a signal from now on removes the temporaries when it ends
  // the program, where the default action would leave them.
  install_interruption_handlers();
  if (!write) return;
  for (Output& output : outputs_) {
    if (!output.given) continue;
    if (output.kind != OutputKind::Figure) output.file.emplace(output.path);
    remove_previous_output(output.path);
  }
}

CommandOutputs::Output* CommandOutputs::find(std::string_view option) {
  for (Output& output : outputs_) {
    if (output.option == option) return &output;
  }
  return nullptr;
}

OutputFile* CommandOutputs::file(std::string_view option) {
  Output* output = find(option);
  return output != nullptr && output->file ? &*output->file : nullptr;
}

void CommandOutputs::commit(std::string_view option, const std::function<void(OutputFile&)>& write) {
  Output* output = find(option);
  if (output == nullptr || !output->file) return;
  if (write) write(*output->file);
  output->file->commit();
  output->committed = true;
}

std::string CommandOutputs::committed_text() const {
  std::string text;
  for (const Output& output : outputs_) {
    if (output.committed) text += (text.empty() ? "" : ", ") + quoted_path(output.path);
  }
  return text;
}

}  // namespace energy_audit::cli
