#include "command_outputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <exception>

#include "output_file.hpp"

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
  }
  return paths;
}

void remove_previous_outputs(const CLI::App& app) noexcept {
  try {
    for (const std::string& path : requested_outputs(app)) remove_previous_output(path);
  } catch (const std::exception&) {  // out of memory for the names: nothing to remove them by
  }
}

}  // namespace energy_audit::cli
